import { Alert, Anchor, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Table, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import {
  ADMIN_PAYMENT_METHODS, ADMIN_PAYMENT_STATUSES, adminOpenInvoicesQuery, adminPaymentsQuery,
  type AdminMoneyTotals, type AdminOpenInvoicesPage, type AdminPaymentRow, type AdminPaymentsPage,
} from '../../../shared/schemas/admin-payments.ts';
import {
  PAYMENT_METHOD_NAMES, hasReceipt, paymentMethodLabel, paymentStatusLabel,
} from '../../../shared/schemas/finances.ts';
import { http } from '../../lib/http.ts';
import { showDate } from '../../lib/locale.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';
import { AdminListCard } from './admin-list-card.tsx';
import { PaymentInvoiceLinks, PaymentStatusBadge } from '../../components/payment-status.tsx';

const DAY_MS = 86_400_000;

type Tab = 'payments' | 'invoices';

/** The figures above both lists, with what the held and pending counts ask of staff. */
function Totals({ totals }: { totals: AdminMoneyTotals | undefined }) {
  const figures = [
    ['Open balances', totals ? formatCurrency(totals.open_balance_cents) : '…',
      totals ? `${totals.open_invoices} open ${totals.open_invoices === 1 ? 'invoice' : 'invoices'}` : ''],
    ['Held for review', totals ? String(totals.held_payments) : '…', 'payments under review at the gateway'],
    ['Not confirmed', totals ? String(totals.pending_payments) : '…', 'pending payments never confirmed'],
  ] as const;
  const attention = totals && (totals.held_payments > 0 || totals.pending_payments > 0);
  return (
    <Stack gap="sm" mb="lg">
      <SimpleGrid cols={{ base: 1, sm: 3 }} component="section" aria-label="Totals">
        {figures.map(([label, value, note]) => (
          <Card key={label} withBorder padding="md">
            <Text size="sm" c="dimmed">{label}</Text>
            <Text fz={26} fw={700} data-testid={`total-${label.toLowerCase().replace(/\s+/g, '-')}`}>{value}</Text>
            <Text size="xs" c="dimmed">{note}</Text>
          </Card>
        ))}
      </SimpleGrid>
      <Alert color={attention ? 'yellow' : 'gray'} variant="light" title="Held and pending payments need staff attention">
        Held payments are under review at the payment gateway: the money was taken but is applied to the
        invoices only once the review clears. Pending payments were never confirmed: the gateway’s answer
        never came, so check them in the gateway before anyone pays again.
      </Alert>
    </Stack>
  );
}

/**
 * /admin/payments (issue 7): the staff's view of money across all accounts. Totals at the top
 * (open balances; held and not-confirmed payments, which need attention), then two tabs: every
 * account's payments, newest first, filtered by status and method, with invoices and receipts;
 * and every account's open invoices, oldest first, optionally only those over 30 days old, each
 * with a link to pay it on the account's behalf. Tab, filters and page live in the address.
 */
export default function PaymentsAdminPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'invoices' ? 'invoices' : 'payments';
  const raw = (k: string) => params.get(k) ?? '';
  const payQuery = adminPaymentsQuery.safeParse({ status: raw('status'), method: raw('method'), page: raw('page') });
  const invQuery = adminOpenInvoicesQuery.safeParse({ overdue: raw('overdue'), page: raw('page') });
  const payFilters = payQuery.success ? payQuery.data : { page: 1 };
  const invFilters = invQuery.success ? invQuery.data : { page: 1 };

  const payments = useQuery({
    queryKey: ['admin-payments', payFilters],
    queryFn: () => http.get<AdminPaymentsPage>('/api/admin/payments', { ...payFilters }),
    placeholderData: keepPreviousData,
    enabled: tab === 'payments',
  });
  const invoices = useQuery({
    queryKey: ['admin-open-invoices', invFilters],
    queryFn: () => http.get<AdminOpenInvoicesPage>('/api/admin/invoices/open', { ...invFilters }),
    placeholderData: keepPreviousData,
    enabled: tab === 'invoices',
  });

  /** The address with `change` applied; a new tab or filter starts again at page 1. */
  const go = (change: Record<string, string | number | undefined>) => {
    const next: Record<string, string> = {};
    const keep = tab === 'payments' ? { status: payFilters.status, method: payFilters.method } : { overdue: invFilters.overdue };
    const merged: Record<string, string | number | undefined> = { tab, ...(change.tab && change.tab !== tab ? {} : keep), ...change };
    for (const [k, v] of Object.entries(merged)) if (v !== undefined && v !== '' && !(k === 'tab' && v === 'payments')) next[k] = String(v);
    if (!change.page || Number(change.page) <= 1) delete next.page;
    setParams(next);
  };

  const totals = (tab === 'payments' ? payments.data : invoices.data)?.totals;
  const now = Date.now();

  return (
    <>
      <PageHeader title="Payments" lead="Every account’s payments and open invoices." />
      <AdminNav />
      <Totals totals={totals} />
      <Tabs value={tab} onChange={(v) => go({ tab: v ?? 'payments' })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="payments">Payments</Tabs.Tab>
          <Tabs.Tab value="invoices">Open invoices</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="payments">
          <Group mb="md" align="flex-end" wrap="wrap">
            <NativeSelect label="Status" value={payFilters.status ?? ''} onChange={(e) => go({ status: e.currentTarget.value })}
              data={[{ value: '', label: 'Any status' }, ...ADMIN_PAYMENT_STATUSES.map((s) => ({ value: s, label: paymentStatusLabel(s) }))]} />
            <NativeSelect label="Method" value={payFilters.method ?? ''} onChange={(e) => go({ method: e.currentTarget.value })}
              data={[{ value: '', label: 'Any method' }, ...ADMIN_PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_NAMES[m] }))]} />
            {(payFilters.status || payFilters.method) && <Button variant="subtle" onClick={() => setParams({})}>Clear</Button>}
          </Group>
          <AdminListCard
            query={payments}
            label="Payments"
            what="The payments"
            empty={payFilters.status || payFilters.method ? 'No payments match.' : 'No payments yet.'}
            columns={['Date', 'Account', 'Method', 'Amount', 'Status', 'Invoices', '']}
            minWidth={900}
            onPage={(p) => go({ page: p })}
            row={(p) => (
              <Table.Tr key={p.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{showDate(p.created_at)}</Table.Td>
                <Table.Td><Anchor component={Link} to={`/admin/accounts/show/${p.account.id}`}>{p.account.name}</Anchor></Table.Td>
                <Table.Td>{paymentMethodLabel(p)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatCurrency(p.amount_cents)}
                  {p.discount_cents > 0 && <Text size="xs" c="dimmed">Discount {formatCurrency(p.discount_cents)}</Text>}
                </Table.Td>
                <Table.Td><PaymentStatusBadge status={p.status} /></Table.Td>
                <Table.Td><PaymentInvoiceLinks invoices={p.invoices} /></Table.Td>
                <Table.Td>
                  {hasReceipt(p.status) && (
                    <Anchor component={Link} to={`/app/payments/receipt/${p.id}`} size="sm"
                      aria-label={`Receipt for the payment of ${showDate(p.created_at)} by ${p.account.name}`}>Receipt</Anchor>
                  )}
                </Table.Td>
              </Table.Tr>
            )}
          />
        </Tabs.Panel>

        <Tabs.Panel value="invoices">
          <Group mb="md" align="flex-end" wrap="wrap">
            <NativeSelect label="Overdue" value={invFilters.overdue ?? ''} onChange={(e) => go({ overdue: e.currentTarget.value })}
              data={[{ value: '', label: 'All open invoices' }, { value: '30', label: 'Overdue more than 30 days' }]} />
          </Group>
          <AdminListCard
            query={invoices}
            label="Open invoices"
            what="The open invoices"
            empty={invFilters.overdue ? 'No open invoices are more than 30 days old.' : 'No open invoices.'}
            columns={['Invoice', 'Account', 'Date', 'Value', 'Balance', '']}
            onPage={(p) => go({ page: p })}
            row={(inv) => {
              const days = Math.floor((now - new Date(inv.document_at).getTime()) / DAY_MS);
              return (
                <Table.Tr key={inv.id}>
                  <Table.Td><Anchor component={Link} to={`/app/invoices/show/${inv.id}`} fw={600}>{inv.number}</Anchor></Table.Td>
                  <Table.Td><Anchor component={Link} to={`/admin/accounts/show/${inv.account.id}`}>{inv.account.name}</Anchor></Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {showDate(inv.document_at)}
                    {days > 30 && <Text size="xs" c="orange">{days} days ago</Text>}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatCurrency(inv.value_cents)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }} fw={600}>{formatCurrency(inv.balance_cents)}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/app/payments?account_id=${inv.account.id}`} size="sm">Pay for this account</Anchor>
                  </Table.Td>
                </Table.Tr>
              );
            }}
          />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
