import { Alert, Anchor, Button, Card, NativeSelect, SimpleGrid, Stack, Table, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { adminInvoicesContracts } from '../../../../shared/contracts/admin-invoices.ts';
import { adminPaymentContracts } from '../../../../shared/contracts/admin-payments.ts';
import { formatCurrency } from '../../../../shared/rules/formats.ts';
import {
  ADMIN_PAYMENT_METHODS,
  ADMIN_PAYMENT_STATUSES,
  adminOpenInvoicesQuery,
  adminPaymentsQuery,
  type AdminMoneyTotals,
  type AdminOpenInvoicesQuery,
  type AdminPaymentsQuery,
  type AdminPaymentRow,
  type StaffPaymentAction,
} from '../../../../shared/schemas/admin-payments.ts';
import {
  PAYMENT_METHOD_NAMES,
  hasReceipt,
  paymentMethodLabel,
  paymentStatusLabel,
} from '../../../../shared/schemas/finances.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { PaymentInvoiceLinks, PaymentStatusBadge } from '../../../components/payment-status.tsx';
import { hrefOf } from '../../../lib/http.ts';
import { showDate } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { ListSearch } from '../list-search.tsx';
import { addressParams } from '../use-list-filters.ts';
import { AttentionPanel } from './attention-panel.tsx';
import { GatewayRefusal, PaymentActionButtons, PaymentActionDialog } from './payment-actions.tsx';
import { CardTestingNotice } from './payment-alerts.tsx';

const DAY_MS = 86_400_000;

type Tab = 'attention' | 'payments' | 'invoices';

/** The figures above both lists, with what the held and pending counts ask of staff. */
function Totals({ totals, onReview }: { totals: AdminMoneyTotals | undefined; onReview: () => void }) {
  const figures = [
    [
      'Open balances',
      totals ? formatCurrency(totals.open_balance_cents) : '…',
      totals ? `${totals.open_invoices} open ${totals.open_invoices === 1 ? 'invoice' : 'invoices'}` : '',
    ],
    ['Held for review', totals ? String(totals.held_payments) : '…', 'payments under review at the gateway'],
    ['Not confirmed', totals ? String(totals.pending_payments) : '…', 'pending payments never confirmed'],
  ] as const;
  const attention = totals && (totals.held_payments > 0 || totals.pending_payments > 0);
  return (
    <Stack gap="sm" mb="lg">
      <SimpleGrid cols={{ base: 1, sm: 3 }} component="section" aria-label="Totals">
        {figures.map(([label, value, note]) => (
          <Card key={label} withBorder padding="md">
            <Text size="sm" c="dimmed">
              {label}
            </Text>
            <Text fz={26} fw={700} data-testid={`total-${label.toLowerCase().replace(/\s+/g, '-')}`}>
              {value}
            </Text>
            <Text size="xs" c="dimmed">
              {note}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Alert
        color={attention ? 'yellow' : 'gray'}
        variant="light"
        title="Held and pending payments need staff attention"
      >
        Held payments are under review at the payment gateway: the money was taken but is applied to the invoices only
        once it is approved. Pending payments were never confirmed: the gateway’s answer never came. Both hold their
        invoices, so nobody can pay them twice, and the reconciliation with the gateway settles most of them by itself.
        {attention && (
          <Button variant="light" size="xs" ml="sm" onClick={onReview}>
            Review them
          </Button>
        )}
      </Alert>
    </Stack>
  );
}

/**
 * The tab and the filters of both lists as `params` gives them (the page's address): only the
 * filters this page offers, as the server takes them (the parsed sort is an object, not a
 * parameter, so the sort stays as written); a query the schemas refuse gives the first page
 * unfiltered. docs/staff-lists.md.
 */
function filtersOf(params: URLSearchParams) {
  const tab: Tab =
    params.get('tab') === 'invoices' ? 'invoices' : params.get('tab') === 'attention' ? 'attention' : 'payments';
  const raw = (k: string) => params.get(k) ?? '';
  const payQuery = adminPaymentsQuery.safeParse({
    status: raw('status'),
    method: raw('method'),
    search: raw('search'),
    sort: raw('sort'),
    page: raw('page'),
  });
  const invQuery = adminOpenInvoicesQuery.safeParse({
    overdue: raw('overdue'),
    search: raw('search'),
    sort: raw('sort'),
    page: raw('page'),
  });
  const payFilters: Pick<AdminPaymentsQuery, 'status' | 'method' | 'search' | 'page'> & { sort?: string } =
    payQuery.success
      ? {
          status: payQuery.data.status,
          method: payQuery.data.method,
          search: payQuery.data.search,
          sort: raw('sort') || undefined,
          page: payQuery.data.page,
        }
      : { page: 1 };
  const invFilters: Pick<AdminOpenInvoicesQuery, 'overdue' | 'search' | 'page'> & { sort?: string } = invQuery.success
    ? {
        overdue: invQuery.data.overdue,
        search: invQuery.data.search,
        sort: raw('sort') || undefined,
        page: invQuery.data.page,
      }
    : { page: 1 };
  return { tab, payFilters, invFilters };
}

/**
 * /admin/payments (docs/payments.md): the staff's view of money across all accounts. A red notice
 * first while payment alerts wait for a review (possible card testing, docs/payments.md "Card
 * testing"), then the totals (open balances; held and not-confirmed payments, which need
 * attention), then three tabs:
 * every account's payments, newest first, filtered by status and method, with invoices, receipts,
 * the gateway's words for a declined or failed one and the actions staff may take (void, refund);
 * what needs a decision (AttentionPanel, with the payment alerts); and every
 * account's open invoices, oldest first, optionally only those over 30 days old, each with a link
 * to pay it on the account's behalf. Tab, filters and page live in the address.
 */
export default function PaymentsAdminPage() {
  const [params, setParams] = useSearchParams();
  const { tab, payFilters, invFilters } = filtersOf(params);
  const [acting, setActing] = useState<{ payment: AdminPaymentRow; action: StaffPaymentAction } | null>(null);
  const { page: _page, ...payExport } = payFilters;
  const payFiltered = Boolean(payFilters.status || payFilters.method || payFilters.search);
  const { page: _invPage, ...invExport } = invFilters;

  const payments = useQuery({
    ...queryOf(adminPaymentContracts.list, { query: payFilters }),
    placeholderData: keepPreviousData,
    enabled: tab !== 'invoices',
  });
  const invoices = useQuery({
    ...queryOf(adminInvoicesContracts.open, { query: invFilters }),
    placeholderData: keepPreviousData,
    enabled: tab === 'invoices',
  });

  /** The address with `change` applied; a new tab or filter starts again at page 1. */
  const go = (change: Record<string, string | number | undefined>) => {
    const next: Record<string, string> = {};
    // From the address as it is now, which can be a step ahead of this render (addressParams).
    const now = filtersOf(addressParams());
    const keep =
      now.tab === 'payments'
        ? {
            status: now.payFilters.status,
            method: now.payFilters.method,
            search: now.payFilters.search,
            sort: now.payFilters.sort,
          }
        : { overdue: now.invFilters.overdue, search: now.invFilters.search, sort: now.invFilters.sort };
    const merged: Record<string, string | number | undefined> = {
      tab: now.tab,
      ...(change.tab && change.tab !== now.tab ? {} : keep),
      ...change,
    };
    for (const [k, v] of Object.entries(merged))
      if (v !== undefined && v !== '' && !(k === 'tab' && v === 'payments')) next[k] = String(v);
    if (!change.page || Number(change.page) <= 1) delete next.page;
    setParams(next);
  };

  // Whole-site figures, not narrowed by the filters: read once per visit (and again after a staff action).
  const totals = useQuery({
    ...queryOf(adminInvoicesContracts.moneyTotals, {}),
  }).data;
  // Days open are counted from when the page was opened, so a re-render does not shift them.
  const [now] = useState(() => Date.now());

  return (
    <>
      <PageHeader title="Payments" lead="Every account’s payments and open invoices." />
      <AdminNav />
      <CardTestingNotice open={totals?.open_payment_alerts} onReview={() => go({ tab: 'attention' })} />
      <Totals totals={totals} onReview={() => go({ tab: 'attention' })} />
      <Tabs value={tab} onChange={(v) => go({ tab: v ?? 'payments' })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="payments">Payments</Tabs.Tab>
          <Tabs.Tab value="attention">Needs a decision</Tabs.Tab>
          <Tabs.Tab value="invoices">Open invoices</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="attention">
          <AttentionPanel />
        </Tabs.Panel>

        <Tabs.Panel value="payments">
          <ListSearch
            label="Payments"
            placeholder="Account, last 4 or transaction ID"
            search={payFilters.search ?? ''}
            onSearch={(search) => go({ search })}
            filtered={payFiltered}
            onClear={() => go({ status: '', method: '', search: '' })}
            exportHref={hrefOf(adminPaymentContracts.exportCsv, { query: payExport })}
          >
            <NativeSelect
              label="Status"
              value={payFilters.status ?? ''}
              onChange={(e) => go({ status: e.currentTarget.value })}
              data={[
                { value: '', label: 'Any status' },
                ...ADMIN_PAYMENT_STATUSES.map((s) => ({ value: s, label: paymentStatusLabel(s) })),
              ]}
            />
            <NativeSelect
              label="Method"
              value={payFilters.method ?? ''}
              onChange={(e) => go({ method: e.currentTarget.value })}
              data={[
                { value: '', label: 'Any method' },
                ...ADMIN_PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_NAMES[m] })),
              ]}
            />
          </ListSearch>
          <ListCard
            query={payments}
            label="Payments"
            what="The payments"
            empty={payFiltered ? 'No payments match.' : 'No payments yet.'}
            columns={[
              { title: 'Date', sort: 'created_at' },
              'Account',
              { title: 'Method', sort: 'method' },
              { title: 'Amount', sort: 'amount_cents' },
              { title: 'Status', sort: 'status' },
              'Invoices',
              '',
            ]}
            sort={payFilters.sort || '-created_at'}
            onSort={(sort) => go({ sort: sort === '-created_at' ? '' : sort })}
            minWidth={1000}
            onPage={(p) => go({ page: p })}
            row={(p) => (
              <Table.Tr key={p.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{showDate(p.created_at)}</Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/admin/accounts/show/${p.account.id}`}>
                    {p.account.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{paymentMethodLabel(p)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatCurrency(p.amount_cents)}
                  {p.discount_cents > 0 && (
                    <Text size="xs" c="dimmed">
                      Discount {formatCurrency(p.discount_cents)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <PaymentStatusBadge status={p.status} />
                  <GatewayRefusal payment={p} />
                  {p.refunded_cents > 0 && p.status !== 'refunded' && (
                    <Text size="xs" c="dimmed" mt={4}>
                      {formatCurrency(p.refunded_cents)} refunded
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <PaymentInvoiceLinks invoices={p.invoices} />
                </Table.Td>
                <Table.Td>
                  <Stack gap={6} align="flex-start">
                    {hasReceipt(p.status) && (
                      <Anchor
                        component={Link}
                        to={`/app/payments/receipt/${p.id}`}
                        size="sm"
                        aria-label={`Receipt for the payment of ${showDate(p.created_at)} by ${p.account.name}`}
                      >
                        Receipt
                      </Anchor>
                    )}
                    <PaymentActionButtons payment={p} onChoose={(action) => setActing({ payment: p, action })} />
                  </Stack>
                </Table.Td>
              </Table.Tr>
            )}
          />
        </Tabs.Panel>

        <Tabs.Panel value="invoices">
          <ListSearch
            label="Open invoices"
            placeholder="Invoice number or account"
            search={invFilters.search ?? ''}
            onSearch={(search) => go({ search })}
            filtered={Boolean(invFilters.overdue || invFilters.search)}
            onClear={() => go({ overdue: '', search: '' })}
            exportHref={hrefOf(adminInvoicesContracts.openCsv, { query: invExport })}
          >
            <NativeSelect
              label="Overdue"
              value={invFilters.overdue ?? ''}
              onChange={(e) => go({ overdue: e.currentTarget.value })}
              data={[
                { value: '', label: 'All open invoices' },
                { value: '30', label: 'Overdue more than 30 days' },
              ]}
            />
          </ListSearch>
          <ListCard
            query={invoices}
            label="Open invoices"
            what="The open invoices"
            empty={
              invFilters.search
                ? 'No open invoices match.'
                : invFilters.overdue
                  ? 'No open invoices are more than 30 days old.'
                  : 'No open invoices.'
            }
            columns={[
              { title: 'Invoice', sort: 'number' },
              'Account',
              { title: 'Date', sort: 'document_at' },
              'Value',
              { title: 'Balance', sort: 'balance_cents' },
              '',
            ]}
            sort={invFilters.sort || 'document_at'}
            onSort={(sort) => go({ sort: sort === 'document_at' ? '' : sort })}
            onPage={(p) => go({ page: p })}
            row={(inv) => {
              const days = Math.floor((now - new Date(inv.document_at).getTime()) / DAY_MS);
              return (
                <Table.Tr key={inv.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/app/invoices/show/${inv.id}`} fw={600}>
                      {inv.number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/admin/accounts/show/${inv.account.id}`}>
                      {inv.account.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {showDate(inv.document_at)}
                    {days > 30 && (
                      <Text size="xs" c="orange">
                        {days} days ago
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatCurrency(inv.value_cents)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }} fw={600}>
                    {formatCurrency(inv.balance_cents)}
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/app/payments?account_id=${inv.account.id}`} size="sm">
                      Pay for this account
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              );
            }}
          />
        </Tabs.Panel>
      </Tabs>
      {acting && (
        <PaymentActionDialog payment={acting.payment} action={acting.action} onClose={() => setActing(null)} />
      )}
    </>
  );
}
