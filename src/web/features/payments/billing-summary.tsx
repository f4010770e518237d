import { Anchor, Badge, Button, Card, Checkbox, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { normalizeDiscountCode, type BillingSummary, type DiscountPayload } from '../../../shared/rules/billing.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { showDate } from '../../lib/locale.ts';

/** One unpaid invoice of GET /api/payments/screen (amounts in cents). */
export interface UnpaidInvoice {
  id: number;
  number: string;
  document_at: string;
  value_cents: number;
  balance_cents: number;
  public_notes: string;
  /** A payment of it is in flight, held for review or pending: it cannot be selected. */
  is_processing: boolean;
  order_details: { label: string; type: string; value_cents: number }[];
}

/**
 * The unpaid invoices with their checkboxes (docs/requirements/screens.md: all checked at first, each linking to its
 * invoice page; docs/requirements/behaviour.md: disabled while PayPal invoices are pending). An invoice that a payment in
 * flight, held for review or pending holds cannot be chosen (docs/payments.md).
 */
export function InvoiceSelection({
  invoices,
  selected,
  onToggle,
  locked,
}: {
  invoices: UnpaidInvoice[];
  selected: ReadonlySet<number>;
  onToggle: (id: number, checked: boolean) => void;
  locked: boolean;
}) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="invoices-heading">
      <Title order={2} size="h4" id="invoices-heading" mb="sm">
        Unpaid invoices
      </Title>
      {invoices.length === 0 ? (
        <Text>No unpaid invoices.</Text>
      ) : (
        <Stack gap="sm">
          {invoices.map((inv) => (
            <Group key={inv.id} justify="space-between" align="flex-start" wrap="nowrap">
              <Checkbox
                checked={selected.has(inv.id)}
                disabled={locked || inv.is_processing}
                onChange={(e) => onToggle(inv.id, e.currentTarget.checked)}
                aria-label={`Pay invoice ${inv.number}: ${inv.order_details.map((l) => l.label).join(', ')}`}
                label={
                  <span>
                    <Anchor component={Link} to={`/app/invoices/show/${inv.id}`} fw={600}>
                      Invoice {inv.number}
                    </Anchor>
                    <Text span size="sm" c="gray.7">
                      {' '}
                      · {showDate(inv.document_at)}
                    </Text>
                    <Text size="sm" c="gray.7">
                      {inv.order_details.map((l) => l.label).join(', ')}
                    </Text>
                    {inv.is_processing && (
                      <Badge color="yellow" variant="light" mt={4} style={{ textTransform: 'none' }}>
                        A payment is being processed
                      </Badge>
                    )}
                  </span>
                }
              />
              <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                {formatCurrency(inv.balance_cents)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/**
 * The discount code box (docs/requirements/screens.md, docs/requirements/behaviour.md "Discount code"): upper-case input, Apply reserves the code;
 * an empty or unknown code removes the discount silently. `locked` when restored from PayPal.
 */
export function DiscountBox({
  discount,
  onApply,
  onRemove,
  locked,
  busy,
}: {
  discount: DiscountPayload | null;
  onApply: (code: string) => void;
  onRemove: () => void;
  locked: boolean;
  busy: boolean;
}) {
  const [code, setCode] = useState('');
  if (discount) {
    return (
      <Group justify="space-between" wrap="nowrap" aria-live="polite">
        <div>
          <Badge color="green" variant="light" size="lg">
            {discount.code}
          </Badge>
          <Text size="sm" c="gray.7" mt={4}>
            {discount.description}
          </Text>
        </div>
        {!locked && (
          <Button variant="subtle" color="red" onClick={onRemove} disabled={busy}>
            Remove discount
          </Button>
        )}
      </Group>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onApply(normalizeDiscountCode(code));
      }}
    >
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          label="Discount code"
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.toUpperCase())}
          styles={{ input: { textTransform: 'uppercase' } }}
          autoComplete="off"
          maxLength={255}
          disabled={locked}
          style={{ flex: 1 }}
        />
        <Button type="submit" variant="default" loading={busy} disabled={locked}>
          Apply
        </Button>
      </Group>
    </form>
  );
}

/** The summary (docs/requirements/screens.md): subtotal, discount, tax, total, and the forfeit notice. */
export function SummaryTable({ summary }: { summary: BillingSummary }) {
  return (
    <>
      <Table withRowBorders={false} verticalSpacing={4} aria-label="Summary">
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>Subtotal</Table.Td>
            <Table.Td ta="right">{formatCurrency(summary.subtotal)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Discount</Table.Td>
            <Table.Td ta="right">
              {summary.discount_total > 0 ? `−${formatCurrency(summary.discount_total)}` : formatCurrency(0)}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Tax</Table.Td>
            <Table.Td ta="right">{formatCurrency(summary.tax)}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th fz="lg">Total</Table.Th>
            <Table.Th ta="right" fz="lg" data-testid="billing-total">
              {formatCurrency(summary.total)}
            </Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
      <Text size="xs" c="gray.7" mt="xs">
        Discounts have no cash value and any excess is forfeited.
        {summary.forfeited > 0 && ` ${formatCurrency(summary.forfeited)} of this discount will not be used.`}
      </Text>
    </>
  );
}
