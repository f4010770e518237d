import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { adminAccountsContracts } from '../../../../shared/contracts/admin-accounts.ts';
import { formatCurrency, formatFileSize } from '../../../../shared/rules/formats.ts';
import { ACCOUNT_STATUS_LABELS } from '../../../../shared/schemas/admin-accounts.ts';
import { ComplianceCalendarCard } from '../../../components/compliance-calendar-card.tsx';
import { FilingExtensions } from '../../../components/filing-extensions.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ReinstatementChecklist } from '../../../components/reinstatement-checklist.tsx';
import { RenewalCard } from '../../../components/renewal-card.tsx';
import { StandingCard } from '../../../components/standing-card.tsx';
import { hrefOf, HttpFailure } from '../../../lib/http.ts';
import { showDate, showDateTime } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { STATUS_COLOR } from '../applications/applications-page.tsx';
import { Section, Fact, AccountSettingsCard } from './account-show-parts.tsx';
import { ACCOUNT_STATUS_COLOR, showEin } from './accounts-page.tsx';

const PAYMENT_COLOR: Record<string, string> = {
  paid: 'green',
  held: 'yellow',
  pending: 'blue',
  declined: 'red',
  failed: 'red',
};
const METHOD_LABEL: Record<string, string> = { card: 'Card', bank: 'Bank account', paypal: 'PayPal', zero: 'Discount' };

/**
 * One account for an admin (docs/requirements/screens.md /admin/accounts/show/{id}, docs/requirements/permissions.md): its summary, the
 * renewal form and the compliance calendar for this account (the shared components with its id:
 * a renewal submitted here comes back to this page), its users with "Manage users", applications,
 * bylaws, uploads, invoices with "Pay invoices", and payments. Every action goes through the
 * account-scoped pages with `account_id`, which the server audits as done on its behalf.
 */
export default function AccountShowPage() {
  const { id = '' } = useParams();
  const accountId = /^[1-9]\d{0,9}$/.test(id) ? Number(id) : 0;
  const q = useQuery({
    ...queryOf(adminAccountsContracts.show, { params: { id } }),
    retry: false,
  });
  if (q.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) {
    const missing = q.error instanceof HttpFailure && q.error.status === 404;
    return (
      <>
        <PageHeader title="Account" />
        <AdminNav />
        <Alert color="red">
          {missing ? 'This account could not be found.' : 'The account could not be loaded. Please reload the page.'}
        </Alert>
        <Anchor component={Link} to="/admin/accounts" mt="md" display="inline-block">
          Back to accounts
        </Anchor>
      </>
    );
  }
  const { account: a, counts } = q.data;
  return (
    <>
      <PageHeader title={a.name} lead={[a.city, a.state].filter(Boolean).join(', ') || undefined} />
      <AdminNav />
      <Stack gap="lg">
        <Card withBorder padding="lg" component="section" aria-labelledby="account-summary">
          <Group justify="space-between" mb="md" wrap="wrap">
            <Group gap="xs">
              <Title order={2} size="h3" id="account-summary">
                Summary
              </Title>
              <Badge color={ACCOUNT_STATUS_COLOR[a.status]} variant="light" size="lg">
                {ACCOUNT_STATUS_LABELS[a.status]}
              </Badge>
            </Group>
            <Group gap="xs">
              <Button component={Link} to={`/app?account_id=${a.id}`} size="xs">
                Open the group’s home
              </Button>
              <Anchor component={Link} to={`/admin/audit?account_id=${a.id}`}>
                This account’s audit log
              </Anchor>
              <Anchor component={Link} to={`/app/account/show/${a.id}`}>
                Public profile
              </Anchor>
              <Anchor component={Link} to="/admin/accounts">
                Back to accounts
              </Anchor>
            </Group>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
            <Fact label="EIN">{showEin(a.ein) || '—'}</Fact>
            <Fact label="Level">{a.level?.name ?? '—'}</Fact>
            <Fact label="Renewal due">{a.renewal_due_at ? showDate(a.renewal_due_at) : '—'}</Fact>
            <Fact label="Bonus balance">{formatCurrency(a.bonus_balance_cents)}</Fact>
            <Fact label="Group">
              {a.group ? (
                <>
                  {a.group.label}
                  {a.group.is_billed_as_group && (
                    <Text span size="sm" c="dimmed">
                      {' '}
                      (billed as a group)
                    </Text>
                  )}
                </>
              ) : (
                '—'
              )}
            </Fact>
            <Fact label="Open balance">{formatCurrency(q.data.open_balance_cents)}</Fact>
            <Fact label="E-mail">{a.email ?? '—'}</Fact>
            <Fact label="Account since">{showDate(a.created_at)}</Fact>
          </SimpleGrid>
          {a.is_suspended_from_basic_renewal && (
            <Text size="sm" c="red" mt="md">
              Suspended from the basic renewal: this account can only renew with the upgrade.
            </Text>
          )}
        </Card>

        <StandingCard
          state={q.data.standing.state}
          irs={q.data.standing.irs}
          letterUrl={hrefOf(adminAccountsContracts.standingLetter, { params: { id: String(a.id) } })}
          title={{ id: 'account-standing', text: 'Standing with the IRS', label: q.data.standing.label }}
          reinstatement={q.data.standing.state === 'revoked' ? <ReinstatementChecklist accountId={a.id} /> : undefined}
          extensions={
            <FilingExtensions
              accountId={a.id}
              suggestedPeriod={
                q.data.standing.irs.returns.find((r) => r.status === 'missed_unless_extended')?.period_end
              }
            />
          }
        />

        <AccountSettingsCard
          key={`${a.id}-${String(a.is_suspended_from_basic_renewal)}-${a.group?.id ?? ''}-${String(a.group?.is_billed_as_group)}-${a.renewal_due_at ?? ''}`}
          detail={q.data}
        />
      </Stack>

      {/* The shared cards bring their own top margin. */}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg" style={{ alignItems: 'start' }}>
        <RenewalCard accountId={accountId} />
        <ComplianceCalendarCard accountId={accountId} />
      </SimpleGrid>

      <Stack gap="lg" mt="lg">
        <Section
          id="account-users"
          title="Users"
          count={counts.users}
          shown={q.data.users.length}
          actions={
            <Button component={Link} to={`/app/account/users?account_id=${a.id}`} size="xs" variant="light">
              Manage users
            </Button>
          }
        >
          <Table aria-label="Users" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Since</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.users.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    {[u.first_name, u.last_name].filter(Boolean).join(' ') || '—'}
                    {u.is_primary && (
                      <Badge ml="xs" size="xs" variant="light">
                        Primary
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  <Table.Td>{showDate(u.created_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>

        <Section
          id="account-invoices"
          title="Invoices"
          count={counts.invoices}
          shown={q.data.invoices.length}
          actions={
            <Button component={Link} to={`/app/payments?account_id=${a.id}`} size="xs" variant="light">
              Pay invoices
            </Button>
          }
        >
          <Table aria-label="Invoices" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Invoice</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>Notes</Table.Th>
                <Table.Th ta="right">Value</Table.Th>
                <Table.Th ta="right">Balance</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.invoices.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/app/invoices/show/${i.id}`}>
                      {i.number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{showDate(i.document_at)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {i.public_notes}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{formatCurrency(i.value_cents)}</Table.Td>
                  <Table.Td
                    ta="right"
                    fw={i.balance_cents > 0 ? 700 : undefined}
                    c={i.balance_cents > 0 ? 'orange' : undefined}
                  >
                    {i.balance_cents > 0 ? formatCurrency(i.balance_cents) : 'Paid'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>

        <Section
          id="account-payments"
          title="Payments"
          count={counts.payments}
          shown={q.data.payments.length}
          actions={
            <Anchor component={Link} to={`/admin/payments/latest/${a.id}`} size="sm">
              All payments
            </Anchor>
          }
        >
          <Table aria-label="Payments" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Method</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.payments.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{showDateTime(p.created_at)}</Table.Td>
                  <Table.Td>
                    {METHOD_LABEL[p.method] ?? p.method}
                    {p.account_last4 ? ` ${p.account_last4}` : ''}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={PAYMENT_COLOR[p.status] ?? 'gray'}>
                      {p.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{formatCurrency(p.amount_cents)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>

        <Section
          id="account-applications"
          title="Applications"
          count={counts.applications}
          shown={q.data.applications.length}
        >
          <Table aria-label="Applications" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Last activity</Table.Th>
                <Table.Th>Applicant</Table.Th>
                <Table.Th>Level</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.applications.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/admin/applications/${r.id}`}>
                      {showDateTime(r.updated_at)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{r.email}</Table.Td>
                  <Table.Td>{r.level}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOR[r.status] ?? 'gray'}>
                      {r.status}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>

        <Section id="account-bylaws" title="Bylaws" count={counts.bylaws} shown={q.data.bylaws.length}>
          <Table aria-label="Bylaws" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Saved</Table.Th>
                <Table.Th>Variant</Table.Th>
                <Table.Th>By</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.bylaws.map((b) => (
                <Table.Tr key={b.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/bylaws-generator/preview/${b.hash}`}>
                      {showDateTime(b.updated_at)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{b.variant}</Table.Td>
                  <Table.Td>{b.email}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>

        <Section id="account-uploads" title="Uploads" count={counts.files} shown={q.data.files.length}>
          <Table aria-label="Uploads" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Purpose</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Uploaded</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.files.map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{f.file_name}</Table.Td>
                  <Table.Td>{f.purpose.replace(/_/g, ' ')}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatFileSize(f.size_bytes)}</Table.Td>
                  <Table.Td>{showDateTime(f.created_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>
      </Stack>
    </>
  );
}
