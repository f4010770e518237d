import { adminIrsBulkChecksContracts } from '../../../../shared/contracts/admin-irs-bulk-checks.ts';
import { BulkCheckPanel } from '../../../components/bulk-check-panel.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { hrefOf, upload } from '../../../lib/http.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';

const c = adminIrsBulkChecksContracts;

/**
 * Checking a list of EINs (docs/irs-standing.md "Checking a list of EINs"), staff only: the
 * {@link BulkCheckPanel} on the staff's routes, which reach every check (a central organization's
 * workspace shows the same panel on its group's routes).
 */
export default function IrsBulkChecksPage() {
  return (
    <>
      <PageHeader
        title="Standing check (CSV)"
        lead="Upload a list of EINs and download each organization's standing with the IRS, as the instant check shows it."
      />
      <AdminNav />
      <BulkCheckPanel
        list={queryOf(c.list, {})}
        uploadChecks={(body) => upload(c.upload, {}, body)}
        resultHref={(id) => hrefOf(c.result, { params: { id: String(id) } })}
      />
    </>
  );
}
