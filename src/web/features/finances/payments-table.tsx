import { Alert, Anchor, Button, Card, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { billingContracts } from '../../../shared/contracts/billing.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import {
  hasReceipt,
  paymentMethodLabel,
  type FinancePayment,
  type FinancesView,
} from '../../../shared/schemas/finances.ts';
import { PageNav } from '../../components/page-nav.tsx';
import { PaymentInvoiceLinks, PaymentStatusBadge } from '../../components/payment-status.tsx';
import { HttpFailure } from '../../lib/http.ts';
import { showDate } from '../../lib/locale.ts';
import { queryOf } from '../../lib/queries.ts';
import classes from './finances.module.css';

/** The payments page for `accountId` (an admin's view) or the signed-in holder's own account. */
export function paymentsHref(accountId?: number) {
  return accountId ? `/app/payments?account_id=${accountId}` : '/app/payments';
}

/** 401, 404 (no account, or an unknown one for an admin), or any other failure. */
function FinancesFailure({ error, forAdmin }: { error: unknown; forAdmin: boolean }) {
  const status = error instanceof HttpFailure ? error.status : 0;
  if (status === 401) {
    const next = encodeURIComponent(window.location.pathname + window.location.search);
    return (
      <Stack align="flex-start" py="md">
        <Text>Please sign in to see your payments.</Text>
        <Button component={Link} to={`/login?next=${next}`}>
          Sign in
        </Button>
      </Stack>
    );
  }
  if (status === 404) {
    return forAdmin ? (
      <Alert color="red" title="Account not found">
        There is no account with this number. Check the link.
      </Alert>
    ) : (
      <Stack align="flex-start" py="md">
        <Text>
          Your sign-in has no organization account yet. Once your application is submitted, its payments are listed
          here.
        </Text>
        <Button component={Link} to="/account" variant="default">
          Go to your account
        </Button>
      </Stack>
    );
  }
  if (status === 422) {
    // Only staff without an organization of their own get here: they look at accounts one by one.
    return (
      <Alert color="blue" title="No organization of your own">
        Staff accounts have no payments. An account’s payments are at /admin/payments/latest/ followed by its number.
      </Alert>
    );
  }
  return (
    <Alert color="red" title="Something went wrong">
      The payments could not be loaded. Please reload the page.
    </Alert>
  );
}

function PaymentRow({ payment: p }: { payment: FinancePayment }) {
  return (
    <Table.Tr>
      <Table.Td className={classes.nowrap}>{showDate(p.created_at)}</Table.Td>
      <Table.Td>{paymentMethodLabel(p)}</Table.Td>
      <Table.Td className={classes.amount}>
        {formatCurrency(p.amount_cents)}
        {p.discount_cents > 0 && (
          <Text size="xs" c="dimmed">
            Discount {formatCurrency(p.discount_cents)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <PaymentStatusBadge status={p.status} />
      </Table.Td>
      <Table.Td>
        <PaymentInvoiceLinks invoices={p.invoices} />
      </Table.Td>
      <Table.Td>
        {hasReceipt(p.status) && (
          <Anchor
            component={Link}
            to={`/app/payments/receipt/${p.id}`}
            size="sm"
            aria-label={`Receipt for the payment of ${showDate(p.created_at)}`}
          >
            Receipt
          </Anchor>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The account's payments, newest first, 20 a page (docs/requirements/product.md tool 14; docs/requirements/screens.md /app/finances and
 * /admin/payments/latest/{accountId}), with a notice of unpaid invoices linking to the payments
 * page. `accountId`: the account an admin looks at; none for the holder's own account.
 * `onAccount` receives the account once loaded (the admin page titles itself with its name).
 */
export function PaymentsOverview({
  accountId,
  onAccount,
}: {
  accountId?: number;
  onAccount?: (account: FinancesView['account']) => void;
}) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const q = useQuery({
    ...queryOf(billingContracts.finances, { query: { account_id: accountId, page } }),
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof HttpFailure && error.status >= 400 && error.status < 500) && count < 1,
  });
  const account = q.data?.account;
  useEffect(() => {
    if (account) onAccount?.(account);
  }, [account, onAccount]);

  if (q.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) return <FinancesFailure error={q.error} forAdmin={accountId !== undefined} />;
  const { payments, invoices } = q.data;
  const open = invoices.open.length;
  const owed = invoices.open.reduce((sum, i) => sum + i.balance_cents, 0);
  return (
    <Stack gap="md">
      {open > 0 && (
        <Alert
          color="orange"
          variant="light"
          title={`${accountId === undefined ? 'You have' : 'This account has'} ${open} unpaid ${open === 1 ? 'invoice' : 'invoices'}.`}
          role="status"
        >
          <Group gap="md">
            <Text size="sm">{formatCurrency(owed)} is due.</Text>
            <Anchor component={Link} to={paymentsHref(accountId)} fw={700}>
              Pay now
            </Anchor>
          </Group>
        </Alert>
      )}
      <Card withBorder padding="md" component="section" aria-labelledby="payments-heading">
        <Title order={2} size="h4" id="payments-heading" mb="sm">
          Payments
        </Title>
        {payments.total === 0 ? (
          <Text c="dimmed" py="lg" ta="center">
            No payments yet.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table striped highlightOnHover verticalSpacing="sm" aria-label="Payments">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Method</Table.Th>
                  <Table.Th className={classes.amount}>Amount</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Invoices</Table.Th>
                  <Table.Th>
                    <span className={classes.srOnly}>Receipt</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {payments.data.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={6}>
                      <Text c="dimmed">No payments on this page.</Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  payments.data.map((p) => <PaymentRow key={p.id} payment={p} />)
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <PageNav
          page={payments}
          onChange={(p) =>
            setParams((prev) => {
              const next = new URLSearchParams(prev);
              next.set('page', String(p));
              return next;
            })
          }
        />
      </Card>
    </Stack>
  );
}
