import { Card, SimpleGrid } from '@mantine/core';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { REGION_OPTIONS } from '../../../shared/lists/regions.ts';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { SelectField } from '../../components/form-kit/select-field.tsx';
import { TextareaField } from '../../components/form-kit/textarea-field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useInquiryForm } from './use-inquiry-form.ts';
import type { inquiryContracts } from '../../../shared/contracts/public-forms.ts';

const REGION_LABELS: Record<(typeof REGION_OPTIONS)[number], string> = {
  nationwide: 'Nationwide',
  regional: 'Regional',
};

/** docs/requirements/product.md tool 8: inquiry from national organizations with many chapters or affiliates. */
export default function MultiChapterPage() {
  const kit = useInquiryForm(
    routeAt<typeof inquiryContracts.multiChapter>('POST', '/multi-chapter'),
    'multi_chapter',
    { name: '', email: '', phone: '', organization: '', affiliates: '', regions: '', concerns: '' },
    () => import('../../../shared/schemas/public-forms.ts').then((m) => m.multiChapterSchema),
  );
  return (
    <>
      <PageHeader
        title="Compliance for every chapter"
        lead="National organizations use our group exemption and compliance calendar to keep all their chapters and affiliates in good standing. Tell us about yours."
      />
      <Card withBorder padding="xl" maw={760}>
        <KitForm kit={kit} label="Multi-chapter inquiry">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField name="name" label="Name" required autoComplete="name" />
            <TextField name="email" label="E-mail" type="email" required autoComplete="email" />
            <TextField name="phone" label="Phone" type="tel" required autoComplete="tel" />
            <TextField name="organization" label="Organization" required autoComplete="organization" />
            <TextField name="affiliates" label="Number of affiliates" required type="number" inputMode="numeric" />
            <SelectField
              name="regions"
              label="Nationwide or regional"
              required
              options={REGION_OPTIONS.map((r) => [r, REGION_LABELS[r]] as const)}
            />
          </SimpleGrid>
          <TextareaField name="concerns" label="Biggest concerns" rows={5} maxLength={5000} />
          <SubmitButton>Submit</SubmitButton>
        </KitForm>
      </Card>
    </>
  );
}
