import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Code,
  CopyButton,
  Group,
  Loader,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { supervisionContracts } from '../../../shared/contracts/supervision.ts';
import { MONTH_NAMES } from '../../../shared/lists/months.ts';
import { STATES } from '../../../shared/lists/states.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
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
import { hasNoOrganizationYet, NoOrganizationYet } from '../../components/no-organization-yet.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { toastSuccess } from '../../lib/feedback.tsx';
import { call } from '../../lib/http.ts';
import { showDate, showDateTime } from '../../lib/locale.ts';

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
function ReportForm({
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

/**
 * /app/supervision (docs/supervision.md): a group's yearly supervision report and Form 990-N
 * preparation for one tax year, with the facts the product knows, the gross receipts test as the
 * officer types, whether the IRS 990-N data shows the return, and, once saved, the e-Postcard
 * summary to copy. Staff open a group's report with `?account_id=`.
 */
export default function SupervisionPage() {
  if (hasNoOrganizationYet()) {
    return (
      <>
        <PageHeader title="Yearly supervision report and Form 990-N" />
        <NoOrganizationYet title="No report to fill in yet." />
      </>
    );
  }
  return <SupervisionScreen />;
}

function SupervisionScreen() {
  const [params, setParams] = useSearchParams();
  const client = useQueryClient();
  const accountId = Number(params.get('account_id')) || null;
  const taxYear = Number(params.get('tax_year')) || null;
  const key = ['supervision', accountId, taxYear] as const;
  const q = useQuery({
    queryKey: key,
    queryFn: () =>
      call(supervisionContracts.form, {
        query: { ...(accountId ? { account_id: accountId } : {}), ...(taxYear ? { tax_year: taxYear } : {}) },
      }),
    retry: false,
  });
  const header = (
    <PageHeader
      title="Yearly supervision report and Form 990-N"
      lead="Once a year: the eight items of the IRS e-Postcard and the information your central organization needs to supervise its group exemption."
    />
  );
  if (q.isPending)
    return (
      <>
        {header}
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      </>
    );
  if (q.isError)
    return (
      <>
        {header}
        <Alert color="red">The supervision report could not be loaded. Please reload the page.</Alert>
      </>
    );
  const view = q.data;
  const fye = view.account.fiscal_year_end_month;
  return (
    <>
      {header}
      <Stack gap="lg" maw={900}>
        <Card withBorder padding="lg">
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <Stack gap={4}>
              <Title order={2} size="h3">
                {view.account.name}
              </Title>
              {view.account.ein && <Text>EIN {formatEin(view.account.ein)}</Text>}
              {view.account.central_name && (
                <Text size="sm" c="dimmed">
                  Covered by the group exemption of {view.account.central_name}
                  {view.account.gen ? ` (GEN ${view.account.gen})` : ''}
                </Text>
              )}
              <Text size="sm">
                {fye ? `Fiscal year ends in ${MONTH_NAMES[fye - 1]}. ` : ''}
                {view.period_end && `Tax year ${view.tax_year} ended ${showDate(view.period_end)}`}
                {view.due_date &&
                  `; Form 990-N due ${showDate(view.due_date)} (a late one has no penalty and still counts).`}
              </Text>
            </Stack>
            <NativeSelect
              label="Tax year"
              value={String(view.tax_year)}
              w={140}
              data={view.tax_years.map((y) => ({ value: String(y), label: String(y) }))}
              onChange={(e) =>
                setParams({ ...(accountId ? { account_id: String(accountId) } : {}), tax_year: e.currentTarget.value })
              }
            />
          </Group>
          <Group mt="sm" gap="xs">
            {view.filed ? (
              <Badge color="green" variant="light" size="lg" tt="none">
                Filed: seen in the IRS 990-N data released {showDate(view.filed.released_on)}
              </Badge>
            ) : (
              <Badge color="gray" variant="light" size="lg" tt="none">
                Not yet seen in the IRS 990-N data
              </Badge>
            )}
            {view.report ? (
              <Badge color="blue" variant="light" size="lg" tt="none">
                Report saved {showDateTime(view.report.submitted_at)}
                {view.report.submitted_by ? ` by ${view.report.submitted_by}` : ''}
              </Badge>
            ) : (
              <Badge color="orange" variant="light" size="lg" tt="none">
                Report not saved yet
              </Badge>
            )}
          </Group>
        </Card>

        <ReportForm
          key={`${view.tax_year}:${view.report?.submitted_at ?? ''}`}
          view={view}
          accountId={accountId}
          onSaved={(form) => client.setQueryData(key, form)}
        />

        {view.summary ? (
          <Card withBorder padding="lg" component="section" aria-labelledby="epostcard-summary">
            <Group justify="space-between" mb="sm">
              <Title order={2} size="h3" id="epostcard-summary">
                Your e-Postcard summary
              </Title>
              <CopyButton value={view.summary}>
                {({ copied, copy }) => (
                  <Button variant={copied ? 'filled' : 'light'} color={copied ? 'green' : 'blue'} onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Code block aria-label="e-Postcard summary">
              {view.summary}
            </Code>
            <Text size="sm" mt="sm">
              File it on the IRS site:{' '}
              <Anchor
                href="https://www.irs.gov/charities-non-profits/annual-electronic-filing-requirement-for-small-exempt-organizations-form-990-n-e-postcard"
                target="_blank"
                rel="noreferrer"
              >
                Form 990-N (e-Postcard)
              </Anchor>
              . We mark it filed once the IRS 990-N data shows it.
            </Text>
          </Card>
        ) : (
          <Text c="dimmed">Save the report to get the summary to copy into the IRS e-Postcard.</Text>
        )}
        {!accountId && (
          <Anchor component={Link} to="/account">
            Back to your account
          </Anchor>
        )}
      </Stack>
    </>
  );
}
