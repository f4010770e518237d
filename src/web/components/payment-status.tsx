import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatCurrency } from '../../shared/rules/formats.ts';
import { paymentStatusLabel, type FinancePayment } from '../../shared/schemas/finances.ts';

const STATUS_COLOR: Readonly<Record<string, string>> = {
  paid: 'green',
  held: 'yellow',
  pending: 'gray',
  declined: 'red',
  failed: 'red',
  voided: 'gray',
  refunded: 'grape',
};

/** The badge color of a payment status (paid green, held yellow, pending gray, declined and failed red). */
export const paymentStatusColor = (status: string): string => STATUS_COLOR[status] ?? 'gray';

/** A payment's status as a badge with its readable words (finances, receipts, the admin's payments, /account). */
export function PaymentStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant="light" color={paymentStatusColor(status)}>
      {paymentStatusLabel(status)}
    </Badge>
  );
}

/** The invoices a payment was for, each linking to its page, with the amount applied when it was paid. */
export function PaymentInvoiceLinks({ invoices }: { invoices: FinancePayment['invoices'] }) {
  if (invoices.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Stack gap={2}>
      {invoices.map((inv) => (
        <Text size="sm" key={inv.id}>
          <Anchor component={Link} to={`/app/invoices/show/${inv.id}`}>
            {inv.number}
          </Anchor>
          {inv.amount_cents !== null && (
            <Text span size="sm" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
              {' '}
              {formatCurrency(inv.amount_cents)}
            </Text>
          )}
        </Text>
      ))}
    </Stack>
  );
}
