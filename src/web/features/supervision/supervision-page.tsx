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
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { supervisionContracts } from '../../../shared/contracts/supervision.ts';
import { MONTH_NAMES } from '../../../shared/lists/months.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { hasNoOrganizationYet, NoOrganizationYet } from '../../components/no-organization-yet.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { showDate, showDateTime } from '../../lib/locale.ts';
import { queryOf } from '../../lib/queries.ts';
import { ReportForm } from './report-form.tsx';

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
  const read = queryOf(supervisionContracts.form, {
    query: { ...(accountId ? { account_id: accountId } : {}), ...(taxYear ? { tax_year: taxYear } : {}) },
  });
  const q = useQuery({ ...read, retry: false });
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
          onSaved={(form) => client.setQueryData(read.queryKey, form)}
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
