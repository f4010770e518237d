import { Card, SimpleGrid } from '@mantine/core';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { CONTACT_SUBJECTS } from '../../../shared/lists/subjects.ts';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { SelectField } from '../../components/form-kit/select-field.tsx';
import { TextareaField } from '../../components/form-kit/textarea-field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { useInquiryForm } from './use-inquiry-form.ts';
import type { inquiryContracts } from '../../../shared/contracts/public-forms.ts';

/** docs/requirements/product.md tool 7: the contact form ("Let's talk"). */
export default function ContactPage() {
  const kit = useInquiryForm(
    routeAt<typeof inquiryContracts.contact>('POST', '/contact'),
    'contact',
    { name: '', email: '', organization: '', subject: '', message: '' },
    () => import('../../../shared/schemas/public-forms.ts').then((m) => m.contactSchema),
  );
  return (
    <>
      <PageHeader
        title="Let's talk"
        lead={`Questions about membership, state registration, your 990 or renewals? Write to us${boot.company.phone ? ` or call ${boot.company.phone}` : ''}.`}
      />
      <Card withBorder padding="xl" maw={720}>
        <KitForm kit={kit} label="Contact us">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField name="name" label="Name" required autoComplete="name" />
            <TextField name="email" label="E-mail" type="email" required autoComplete="email" />
          </SimpleGrid>
          <TextField name="organization" label="Organization" autoComplete="organization" />
          <SelectField name="subject" label="Subject" required options={CONTACT_SUBJECTS.map((s) => [s, s] as const)} />
          <TextareaField name="message" label="Message" required rows={6} maxLength={5000} />
          <SubmitButton>Send message</SubmitButton>
        </KitForm>
      </Card>
    </>
  );
}
