import {
  Anchor,
  Button,
  Card,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { adminComplianceContracts } from '../../../../shared/contracts/admin-compliance.ts';
import { MONTH_NAMES } from '../../../../shared/lists/months.ts';
import { FILING_FORMS } from '../../../../shared/schemas/compliance.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { call, HttpFailure } from '../../../lib/http.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { PenaltyFiguresCard } from './penalty-figures-card.tsx';

/** Today's local calendar date, 'YYYY-MM-DD' (what a date input holds). */
function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The "Record filing" form: form (NativeSelect), tax year, filed on; posts to
 * `POST /api/admin/accounts/:id/filings` and shows the server's field messages. With no
 * `accountId` it asks for the account number too.
 */
function RecordFilingForm({
  accountId,
  accountName,
  taxYear,
}: {
  accountId?: number;
  accountName?: string;
  taxYear?: number;
}) {
  const inRow = accountId !== undefined;
  const client = useQueryClient();
  const [values, setValues] = useState({
    account: '' as string | number,
    form: '990-N',
    tax_year: (taxYear ?? '') as string | number,
    filed_on: localToday(),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const target = accountId ?? Number(values.account);
  const save = useMutation({
    mutationFn: () =>
      call(adminComplianceContracts.recordFiling, {
        params: { id: String(target) },
        body: { form: values.form, tax_year: values.tax_year, filed_on: values.filed_on },
      }),
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      setErrors({});
      if (!accountId) setValues({ ...values, account: '', tax_year: '' });
      void client.invalidateQueries({ queryKey: keyOf(adminComplianceContracts.risk) });
    },
    onError: (err) => {
      if (err instanceof HttpFailure && Object.keys(err.errors).length)
        setErrors(Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [k, v[0]])));
      else if (err instanceof HttpFailure && err.status === 404) setErrors({ account: 'No such account.' });
      else toastFailure();
    },
  });
  const change = (patch: Partial<typeof values>) => {
    setValues({ ...values, ...patch });
    setErrors(Object.fromEntries(Object.entries(errors).filter(([k]) => !(k in patch))));
  };
  const label = accountName ? `Record filing for ${accountName}` : 'Record a filing';
  return (
    <Group
      component="form"
      aria-label={label}
      gap="xs"
      align="flex-start"
      wrap={inRow ? 'nowrap' : 'wrap'}
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        if (!accountId && !(Number(values.account) > 0))
          return setErrors({ ...errors, account: 'The account number field is required.' });
        save.mutate();
      }}
    >
      {!inRow && (
        <NumberInput
          label="Account number"
          size="xs"
          w={130}
          min={1}
          allowDecimal={false}
          hideControls
          value={values.account}
          onChange={(v) => change({ account: v })}
          error={errors.account}
        />
      )}
      <NativeSelect
        label="Form"
        size="xs"
        w={90}
        value={values.form}
        onChange={(e) => change({ form: e.currentTarget.value })}
        error={errors.form}
        data={[...FILING_FORMS]}
      />
      <NumberInput
        label="Tax year"
        size="xs"
        w={90}
        min={2007}
        max={9999}
        allowDecimal={false}
        hideControls
        value={values.tax_year}
        onChange={(v) => change({ tax_year: v })}
        error={errors.tax_year}
      />
      <TextInput
        label="Filed on"
        type="date"
        size="xs"
        w={150}
        value={values.filed_on}
        max={localToday()}
        onChange={(e) => change({ filed_on: e.currentTarget.value })}
        error={errors.filed_on}
      />
      <Button type="submit" size="xs" mt={23} loading={save.isPending}>
        Record filing
      </Button>
    </Group>
  );
}

/**
 * Admin → Revocation risk (docs/irs-standing.md): member groups and the provider's GEN subordinates
 * whose standing (docs/irs-standing.md) shows a missed return or a revocation, most urgent first,
 * each with a form to record a filing; plus a form to record a filing for any account by its number,
 * and the late-filing penalty figures of each due year (PenaltyFiguresCard).
 */
export default function CompliancePage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    ...queryOf(adminComplianceContracts.risk, { query: { page } }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="Revocation risk"
        lead="Member groups and subordinates of our group exemption that missed an annual return, per the IRS data (BMF, Form 990-N data, Automatic Revocation List) and the filings recorded here. Not filing for three consecutive years revokes the exemption on the third due date (IRC §6033(j)); the IRS writes after two missed years."
      />
      <AdminNav />
      <ListCard
        query={q}
        label="Accounts at revocation risk"
        what="The accounts at risk"
        empty="No group has missed a return."
        columns={['Account', 'Fiscal year end', 'Standing', 'Record filing']}
        minWidth={900}
        striped={false}
        onPage={(p) => setParams({ page: String(p) })}
        row={(r) => (
          <Table.Tr key={r.account_id}>
            <Table.Td>
              <Anchor component={Link} to={`/admin/accounts/show/${r.account_id}`} fw={600}>
                {r.name}
              </Anchor>
              <Text size="xs" c="dimmed">
                #{r.account_id}
                {r.gen ? ` · GEN ${r.gen}` : ''}
                {r.city ? ` · ${r.city}, ${r.state}` : ''}
                {r.primary_email ? ` · ${r.primary_email}` : ''}
              </Text>
            </Table.Td>
            <Table.Td>{r.fiscal_year_end_month ? MONTH_NAMES[r.fiscal_year_end_month - 1] : 'Unknown'}</Table.Td>
            <Table.Td>
              <Text
                size="sm"
                fw={700}
                c={r.standing === 'revoked' || r.standing === 'past_revocation_date' ? 'red.9' : 'dark.7'}
              >
                {r.standing_label}
              </Text>
              {r.missed_tax_years.length > 0 && (
                <Text size="sm">
                  Missed:{' '}
                  {r.missed_tax_years.length > 4
                    ? `${r.missed_tax_years[0]}–${r.missed_tax_years.at(-1)} (${r.missed_tax_years.length} years)`
                    : r.missed_tax_years.join(', ')}
                </Text>
              )}
              {r.revoked_on ? (
                <Text size="sm">Revoked {r.revoked_on}</Text>
              ) : (
                r.revocation_date && (
                  <Text size="sm">
                    Revocation date {r.revocation_date}
                    {r.days_to_revocation !== null && r.days_to_revocation >= 0
                      ? ` (${r.days_to_revocation} days left)`
                      : ''}
                  </Text>
                )
              )}
              <Text size="xs" c="dimmed">
                {r.latest_tax_year_filed ? `Last return: ${r.latest_tax_year_filed}` : 'No return on file'}
                {r.sources.bmf ? ` · per IRS data released ${r.sources.bmf}` : ''}
              </Text>
            </Table.Td>
            <Table.Td>
              {r.can_record_filing ? (
                <RecordFilingForm accountId={r.account_id} accountName={r.name} taxYear={r.missed_tax_years[0]} />
              ) : (
                <Text size="sm" c="dimmed">
                  A subordinate's returns show in the IRS data.
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      <Card withBorder padding="md" mt="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Record a filing for any account
          </Title>
          <Text size="sm" c="dimmed">
            The tax year is the calendar year the organization's fiscal year ends in.
          </Text>
          <RecordFilingForm />
        </Stack>
      </Card>
      <PenaltyFiguresCard />
    </>
  );
}
