import { Card, List, SimpleGrid, Text, Title } from '@mantine/core';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { InstantCheck } from './instant-check.tsx';
import { useInquiryForm } from './use-inquiry-form.ts';
import type { inquiryContracts } from '../../../shared/contracts/public-forms.ts';

/**
 * docs/requirements/product.md tool 6: the instant revocation-risk check of any organization
 * (docs/irs-standing.md "Instant check"), and beneath it the free review request, prefilled with
 * the organization checked.
 */
export default function ComplianceCheckPage() {
  const kit = useInquiryForm(
    routeAt<typeof inquiryContracts.complianceCheck>('POST', '/compliance-check'),
    'compliance_check',
    { name: '', email: '', phone: '', organization: '', ein: '', group_id: '' },
    () => import('../../../shared/schemas/public-forms.ts').then((m) => m.complianceCheckSchema),
  );
  return (
    <>
      <PageHeader
        title="Are your organizations at risk for revocation?"
        lead="The IRS revokes the exemption of any group that misses three annual filings in a row. Check any organization's standing in the IRS data now, or ask us for a free review."
      />
      <InstantCheck
        onChecked={(org) => {
          kit.form.setValue('organization', org.name);
          kit.form.setValue('ein', org.ein_formatted);
          if (org.gen && org.ruling_is_group) kit.form.setValue('group_id', org.gen);
        }}
      />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="xl">
        <Card withBorder padding="xl" style={{ gridColumn: 'span 2' }}>
          <Title order={2} size="h3" mb="md">
            Ask us for a free review
          </Title>
          <KitForm kit={kit} label="Free compliance check">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextField name="name" label="Name" required autoComplete="name" />
              <TextField name="email" label="E-mail" type="email" required autoComplete="email" />
              <TextField name="phone" label="Phone" type="tel" required autoComplete="tel" />
              <TextField name="organization" label="Organization" required autoComplete="organization" />
              <TextField
                name="ein"
                label="EIN"
                required
                placeholder="12-3456789"
                inputMode="numeric"
                maxLength={10}
                description="9 digits, with or without the dash"
              />
              <TextField
                name="group_id"
                label="IRS group exemption number (optional)"
                placeholder="1234"
                inputMode="numeric"
                maxLength={4}
                description="4 digits, if your group is covered by a national group exemption"
              />
            </SimpleGrid>
            <SubmitButton>Submit</SubmitButton>
          </KitForm>
        </Card>
        <Card withBorder padding="xl">
          <Title order={2} size="h4" mb="sm">
            What we check
          </Title>
          <List spacing="xs" size="sm">
            <List.Item>Your listing in the IRS Business Master File</List.Item>
            <List.Item>Which Form 990 you must file, and the last one on record</List.Item>
            <List.Item>Whether your exemption has been revoked</List.Item>
            <List.Item>Your state registration status</List.Item>
          </List>
          <Text size="sm" c="dimmed" mt="md">
            We answer within two business days.
          </Text>
        </Card>
      </SimpleGrid>
    </>
  );
}
