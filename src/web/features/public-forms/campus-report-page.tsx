import { Card } from '@mantine/core';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useInquiryForm } from './use-inquiry-form.ts';
import type { inquiryContracts } from '../../../shared/contracts/public-forms.ts';

/** docs/requirements/product.md tool 9: collects e-mails for the report of Greek chapters in good standing on a campus. */
export default function CampusReportPage() {
  const kit = useInquiryForm(
    routeAt<typeof inquiryContracts.campusReport>('POST', '/campus-report'),
    'campus_report',
    { email: '', organization: '' },
    () => import('../../../shared/schemas/public-forms.ts').then((m) => m.campusReportSchema),
  );
  return (
    <>
      <PageHeader
        title="Which chapters on your campus are in good standing?"
        lead="Fraternity and sorority advisors: tell us your campus and we will e-mail you the report of Greek chapters there that are in good standing with the IRS."
      />
      <Card withBorder padding="xl" maw={560}>
        <KitForm kit={kit} label="Campus report">
          <TextField name="email" label="E-mail" type="email" required autoComplete="email" />
          <TextField name="organization" label="Campus" required placeholder="University of Wyoming" />
          <SubmitButton>Send me the report</SubmitButton>
        </KitForm>
      </Card>
    </>
  );
}
