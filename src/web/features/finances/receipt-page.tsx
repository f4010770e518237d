import { Alert, Anchor, Center, Divider, Group, Loader, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { billingContracts } from '../../../shared/contracts/billing.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { PAYMENT_METHOD_NAMES, paymentStatusLabel, type PaymentReceipt } from '../../../shared/schemas/finances.ts';
import { paymentStatusColor } from '../../components/payment-status.tsx';
import {
  documentClasses,
  DocumentFailure,
  PrintableDocument,
  PrintableSheet,
  retryUnlessClientError,
  SummaryRow,
  useDocumentTitle,
} from '../../components/printable-document.tsx';
import { boot } from '../../lib/boot.ts';
import { showDate } from '../../lib/locale.ts';
import { queryOf } from '../../lib/queries.ts';
import classes from './receipt-page.module.css';
import type { ReactNode } from 'react';

/** Where "back" goes: an admin looking at another account goes to that account's latest payments. */
function financesHref(accountId: number | undefined) {
  const user = boot.user;
  return user?.isAdmin && accountId !== undefined && accountId !== user.accountId
    ? `/admin/payments/latest/${accountId}`
    : '/app/finances';
}

/** The printable receipt itself. */
function ReceiptSheet({ receipt }: { receipt: PaymentReceipt }) {
  const { payment: p, account, company } = receipt;
  const isHeld = p.status === 'held';
  const method = [
    PAYMENT_METHOD_NAMES[p.method] ?? p.method,
    p.method === 'card' || p.method === 'bank' ? p.account_type : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const details: [string, ReactNode][] = [['Method', method]];
  if (p.account_last4) details.push(['Account', p.account_last4]);
  if (p.auth_code) details.push(['Authorization code', p.auth_code]);
  if (p.gateway_trans_id) details.push(['Transaction ID', p.gateway_trans_id]);
  details.push(['Receipt number', String(p.id)]);
  return (
    <PrintableSheet
      titleId="receipt-title"
      title="Payment receipt"
      date={showDate(p.settled_at ?? p.created_at)}
      badge={{ label: paymentStatusLabel(p.status), color: paymentStatusColor(p.status) }}
      company={company}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
        <div>
          <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
            Received from
          </Text>
          <Text fw={700}>{account.name}</Text>
          {account.ein && <Text size="sm">EIN {account.ein}</Text>}
        </div>
        <dl className={classes.details} aria-label="Payment details">
          {details.map(([label, value]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </SimpleGrid>

      {isHeld && (
        <Alert color="yellow" variant="light" title="Held for review">
          The payment was received and is being reviewed. Your invoices will be updated once it is approved. Please do
          not pay again.
        </Alert>
      )}

      <Table aria-label="Invoices paid" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Invoice</Table.Th>
            <Table.Th className={documentClasses.amount}>{isHeld ? 'Applied' : 'Amount applied'}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {p.invoices.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={2}>
                <Text c="dimmed">No invoices.</Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            p.invoices.map((inv) => (
              <Table.Tr key={inv.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/app/invoices/show/${inv.id}`} size="sm">
                    Invoice {inv.number}
                  </Anchor>
                </Table.Td>
                <Table.Td className={documentClasses.amount}>
                  {inv.amount_cents === null ? 'After review' : formatCurrency(inv.amount_cents)}
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>

      <Group justify="flex-end">
        <Stack gap={4} aria-label="Totals" role="group" miw={{ base: '100%', sm: '22rem' }}>
          <SummaryRow label="Amount paid" cents={p.amount_cents} />
          {p.discount_cents > 0 && <SummaryRow label="Discount" cents={p.discount_cents} />}
          <Divider my={4} />
          <SummaryRow label="Total settled" cents={p.amount_cents + p.discount_cents} strong />
          {p.refunds.map((r, i) => (
            <SummaryRow key={i} label={`Refunded ${showDate(r.created_at)}`} cents={-r.amount_cents} />
          ))}
          {p.refunded_cents > 0 && (
            <SummaryRow label="Kept after refunds" cents={p.amount_cents - p.refunded_cents} strong />
          )}
        </Stack>
      </Group>

      {company.phone && (
        <Text size="sm" c="gray.7">
          Questions about this payment? Call us at {company.phone}.
        </Text>
      )}
    </PrintableSheet>
  );
}

/** The failure screen's words when the receipt cannot be shown (404 also covers a payment without a receipt). */
const FAILURE = {
  noun: 'receipt',
  missingText:
    'There is no receipt at this address for your account. Only paid payments have receipts; find yours on the finances page.',
  listHref: '/app/finances',
  listLabel: 'Go to finances',
};

/** /app/payments/receipt/{id} (docs/requirements/product.md tool 14): a printable receipt of one paid or held payment. */
export default function ReceiptPage() {
  const { id = '' } = useParams();
  const query = useQuery({
    ...queryOf(billingContracts.receipt, { params: { id } }),
    retry: retryUnlessClientError,
  });
  const loaded = query.data;
  useDocumentTitle(loaded && `Receipt ${loaded.payment.id} — ${loaded.account.name}`);

  if (query.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (query.isError) return <DocumentFailure error={query.error} {...FAILURE} />;
  return (
    <PrintableDocument
      back={
        <Anchor component={Link} to={financesHref(query.data.account.id)}>
          Back to finances
        </Anchor>
      }
    >
      <ReceiptSheet receipt={query.data} />
    </PrintableDocument>
  );
}
