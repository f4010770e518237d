import { Alert, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { supervisionContracts } from '../../../shared/contracts/supervision.ts';
import { MONTH_NAMES } from '../../../shared/lists/months.ts';
import { STATES } from '../../../shared/lists/states.ts';
import { grossReceiptsTest, receiptsYearsNeeded } from '../../../shared/rules/gross-receipts.ts';
import {
  EPOSTCARD_TEXT_MAX,
  ORGANIZATION_TYPE_LABELS,
  ORGANIZATION_TYPES,
  dollarsToCents,
  supervisionReportSchema,
  type SupervisionFormValues,
  type SupervisionFormView,
} from '../../../shared/schemas/supervision.ts';
import { CheckboxField } from '../../components/form-kit/checkbox-field.tsx';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { SelectField } from '../../components/form-kit/select-field.tsx';
import { TextareaField } from '../../components/form-kit/textarea-field.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { toastSuccess } from '../../lib/feedback.tsx';
import { call } from '../../lib/http.ts';

const STATE_OPTIONS = Object.entries(STATES).map(([code, name]) => [code, name] as const);
const MONTH_OPTIONS = MONTH_NAMES.map((m, i) => [String(i + 1), m] as const);
const TYPE_OPTIONS = ORGANIZATION_TYPES.map((t) => [t, ORGANIZATION_TYPE_LABELS[t]] as const);
const IRS_HINT = `Each name and address line takes up to ${EPOSTCARD_TEXT_MAX} letters, numbers, spaces or hyphens, as the IRS e-Postcard accepts.`;

/** Dollars as typed to cents, or null when empty or not an amount (the live test only). */
const cents = (v: unknown) => {
  const r = dollarsToCents('amount', false).safeParse(v);
  return r.success ? r.data : null;
};

/** The gross receipts test as the officer types, with the rule that applies (shared/rules/gross-receipts.ts). */
function ReceiptsTestNote({ values }: { values: Partial<SupervisionFormValues> }) {
  const taxYear = Number(values.tax_year);
  const first = Number(values.first_tax_year);
  const receipts = cents(values.gross_receipts);
  if (!/^\d{4}$/.test(String(values.first_tax_year ?? '')) || receipts === null) {
    return (
      <Alert color="gray" variant="light" title="Gross receipts test">
        Enter the first tax year and this year's gross receipts to see whether the organization may file the e-Postcard.
      </Alert>
    );
  }
  const test = grossReceiptsTest({
    taxYear,
    firstTaxYear: first,
    receiptsCents: receipts,
    priorYearCents: cents(values.prior_year_receipts),
    secondPriorYearCents: cents(values.second_prior_year_receipts),
    pledgedCents: cents(values.first_year_pledges),
  });
  if (test.passes === null)
    return (
      <Alert color="gray" variant="light" title="Gross receipts test">
        {test.message}
      </Alert>
    );
  return (
    <Alert
      color={test.passes ? 'green' : 'red'}
      variant="light"
      title={
        test.passes ? 'Gross receipts are normally $50,000 or less' : 'Not eligible for the e-Postcard (Form 990-N)'
      }
      role="status"
    >
      {test.message}
    </Alert>
  );
}

/** The report form of one tax year (PUT /api/account/supervision), sections for the 990-N items and the supervision items. */
export function ReportForm({
  view,
  accountId,
  onSaved,
}: {
  view: SupervisionFormView;
  accountId: number | null;
  onSaved: (v: SupervisionFormView) => void;
}) {
  const kit = useServerForm({
    route: supervisionContracts.save,
    defaultValues: view.values,
    schema: supervisionReportSchema,
    isClearing: false,
    // Staff acting for an account name it in the body (read by the access check, not the report's schema).
    send: (values) =>
      call(supervisionContracts.save, {
        body: {
          ...values,
          purpose_confirmed: values.purpose_confirmed ? 1 : 0,
          ...(accountId ? { account_id: accountId } : {}),
        },
      }),
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      onSaved(answer.form);
    },
  });
  const watched = kit.form.watch();
  const need = useMemo(() => {
    const first = Number(watched.first_tax_year);
    return /^\d{4}$/.test(String(watched.first_tax_year ?? ''))
      ? receiptsYearsNeeded(view.tax_year, first)
      : { prior: true, secondPrior: true, pledges: false };
  }, [watched.first_tax_year, view.tax_year]);
  const y = view.tax_year;
  const central = view.account.central_name || 'the central organization';
  return (
    <KitForm kit={kit} label={`Supervision report for tax year ${y}`}>
      <Title order={2} size="h3">
        Form 990-N (e-Postcard)
      </Title>
      <Text size="sm" c="dimmed">
        The eight items the IRS asks. The IRS fills in your EIN, legal name and tax year from its records; check that
        they match. {IRS_HINT}
      </Text>
      <Card withBorder padding="md" component="section">
        <Title order={3} size="h5" mb="xs">
          1–2. EIN and tax year
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField name="ein" label="EIN" required placeholder="12-3456789" autoComplete="off" />
          <SelectField
            name="fiscal_year_end_month"
            label="Fiscal year ends in"
            required
            options={MONTH_OPTIONS}
            description={
              view.account.fiscal_year_end_month
                ? `On file: ${MONTH_NAMES[view.account.fiscal_year_end_month - 1]} (${view.account.fiscal_year_end_source === 'irs' ? 'IRS data, ACCT_PD' : 'your organization data'}).`
                : 'No fiscal year end on file yet.'
            }
          />
        </SimpleGrid>
      </Card>
      <Card withBorder padding="md" component="section">
        <Title order={3} size="h5" mb="xs">
          3. Legal name and mailing address
        </Title>
        <Text size="sm" mb="xs">
          Legal name: <strong>{view.account.legal_name}</strong>
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField
            name="mailing_address_line1"
            label="Mailing address line 1"
            required
            maxLength={EPOSTCARD_TEXT_MAX}
            autoComplete="address-line1"
          />
          <TextField
            name="mailing_address_line2"
            label="Mailing address line 2"
            maxLength={EPOSTCARD_TEXT_MAX}
            autoComplete="address-line2"
          />
          <TextField
            name="mailing_city"
            label="Mailing city"
            required
            maxLength={EPOSTCARD_TEXT_MAX}
            autoComplete="address-level2"
          />
          <SelectField name="mailing_state" label="Mailing state" required options={STATE_OPTIONS} />
          <TextField
            name="mailing_zip"
            label="Mailing ZIP code"
            required
            inputMode="numeric"
            autoComplete="postal-code"
          />
        </SimpleGrid>
      </Card>
      <Card withBorder padding="md" component="section">
        <Title order={3} size="h5" mb="xs">
          4. Other names the organization uses
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextField name="other_name_1" label="Other name 1" maxLength={EPOSTCARD_TEXT_MAX} />
          <TextField name="other_name_2" label="Other name 2" maxLength={EPOSTCARD_TEXT_MAX} />
          <TextField name="other_name_3" label="Other name 3" maxLength={EPOSTCARD_TEXT_MAX} />
        </SimpleGrid>
      </Card>
      <Card withBorder padding="md" component="section">
        <Title order={3} size="h5" mb="xs">
          5. Principal officer
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField name="officer_name" label="Principal officer name" required maxLength={EPOSTCARD_TEXT_MAX} />
          <TextField
            name="officer_address_line1"
            label="Principal officer address line 1"
            required
            maxLength={EPOSTCARD_TEXT_MAX}
          />
          <TextField
            name="officer_address_line2"
            label="Principal officer address line 2"
            maxLength={EPOSTCARD_TEXT_MAX}
          />
          <TextField name="officer_city" label="Principal officer city" required maxLength={EPOSTCARD_TEXT_MAX} />
          <SelectField name="officer_state" label="Principal officer state" required options={STATE_OPTIONS} />
          <TextField name="officer_zip" label="Principal officer ZIP code" required inputMode="numeric" />
        </SimpleGrid>
      </Card>
      <Card withBorder padding="md" component="section">
        <Title order={3} size="h5" mb="xs">
          6. Website
        </Title>
        <TextField
          name="website"
          label="Website"
          placeholder="www.example.org"
          maxLength={EPOSTCARD_TEXT_MAX}
          description="Leave empty if the organization has none."
        />
      </Card>
      <Card withBorder padding="md" component="section">
        <Title order={3} size="h5" mb="xs">
          7. Gross receipts normally $50,000 or less
        </Title>
        <Stack gap="sm">
          <SelectField
            name="organization_type"
            label="Is the organization a private foundation or a supporting organization?"
            required
            options={TYPE_OPTIONS}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField
              name="first_tax_year"
              label="First tax year of the organization"
              required
              inputMode="numeric"
              description="The calendar year its first fiscal year ended in."
            />
            <TextField
              name="gross_receipts"
              label={`Gross receipts for tax year ${y} (dollars)`}
              required
              inputMode="numeric"
              description="Everything received, before expenses."
            />
            {need.prior && (
              <TextField
                name="prior_year_receipts"
                label={`Gross receipts for tax year ${y - 1} (dollars)`}
                required
                inputMode="numeric"
              />
            )}
            {need.secondPrior && (
              <TextField
                name="second_prior_year_receipts"
                label={`Gross receipts for tax year ${y - 2} (dollars)`}
                required
                inputMode="numeric"
              />
            )}
            {need.pledges && (
              <TextField
                name="first_year_pledges"
                label="Gifts pledged but not yet received (dollars)"
                inputMode="numeric"
                description="First tax year only: the IRS counts what donors pledged."
              />
            )}
          </SimpleGrid>
          <ReceiptsTestNote values={watched} />
        </Stack>
      </Card>
      <Card withBorder padding="md" component="section">
        <Title order={3} size="h5" mb="xs">
          8. Termination
        </Title>
        <SelectField
          name="terminated"
          label="Has the organization terminated (gone out of business)?"
          required
          options={[
            ['no', 'No'],
            ['yes', 'Yes'],
          ]}
        />
      </Card>

      <Title order={2} size="h3" mt="md">
        Supervision information for {central}
      </Title>
      <Text size="sm" c="dimmed">
        A Form 990-N does not give the central organization what it must review each year, so it asks for this too.
      </Text>
      <Card withBorder padding="md" component="section">
        <Stack gap="sm">
          <TextareaField
            name="officers"
            label="Officers and directors"
            required
            rows={4}
            description="One per line: name and title, e.g. Jane Doe, Treasurer."
          />
          <TextField
            name="total_expenses"
            label={`Total expenses for tax year ${y} (dollars)`}
            required
            inputMode="numeric"
          />
          <TextareaField name="activities" label="Activities during the year" required rows={4} />
          {view.account.uniform_purpose_statement && (
            <Alert color="blue" variant="light" title="Uniform purpose statement">
              {view.account.uniform_purpose_statement}
            </Alert>
          )}
          <CheckboxField
            name="purpose_confirmed"
            label="We confirm the organization operated during the year for the purposes of the uniform purpose statement."
          />
        </Stack>
      </Card>
      <SubmitButton>Save report</SubmitButton>
    </KitForm>
  );
}
