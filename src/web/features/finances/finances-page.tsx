import { hasNoOrganizationYet, NoOrganizationYet } from '../../components/no-organization-yet.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PaymentsOverview } from './payments-table.tsx';

/** /app/finances (docs/requirements/screens.md): where a holder lands after paying; their payments and receipts. */
export default function FinancesPage() {
  return (
    <>
      <PageHeader
        title="Finances"
        lead="Your organization’s payments, newest first, with a printable receipt for each payment received."
      />
      {hasNoOrganizationYet() ? <NoOrganizationYet title="No payments yet." /> : <PaymentsOverview />}
    </>
  );
}
