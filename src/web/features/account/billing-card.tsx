import { Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { billingContracts } from '../../../shared/contracts/billing.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { paymentMethodLabel } from '../../../shared/schemas/finances.ts';
import { PaymentStatusBadge } from '../../components/payment-status.tsx';
import { showDate } from '../../lib/locale.ts';
import { queryOf } from '../../lib/queries.ts';

/**
 * "Invoices and payments" on /account (docs/requirements/product.md "Staff console"): what is due (each open invoice links to its page,
 * with Pay now), and the latest payments with a link to all of them and their receipts at
 * /app/finances. Reads GET /api/finances.
 */
export function BillingCard() {
  const q = useQuery({
    ...queryOf(billingContracts.finances, { query: {} }),
    retry: false,
  });
  if (!q.data) return null;
  const open = q.data.invoices.open;
  const due = open.reduce((sum, i) => sum + i.balance_cents, 0);
  const latest = q.data.payments.data.slice(0, 3);
  return (
    <Card withBorder padding="xl" mt="lg" maw={720} component="section" aria-labelledby="billing-card">
      <Title order={2} size="h3" id="billing-card" mb="sm">
        Invoices and payments
      </Title>
      {open.length === 0 ? (
        <Text>Nothing is due. Thank you!</Text>
      ) : (
        <Stack gap="xs">
          {open.map((inv) => (
            <Group key={inv.id} justify="space-between" wrap="nowrap">
              <Anchor component={Link} to={`/app/invoices/show/${inv.id}`}>
                Invoice {inv.number}
              </Anchor>
              <Text fw={600}>{formatCurrency(inv.balance_cents)}</Text>
            </Group>
          ))}
          <Group justify="space-between" mt="xs">
            <Text fw={700}>{formatCurrency(due)} due</Text>
            <Button component={Link} to="/app/payments">
              Pay now
            </Button>
          </Group>
        </Stack>
      )}
      <Title order={3} size="h5" mt="lg" mb="xs">
        Latest payments
      </Title>
      {latest.length === 0 ? (
        <Text c="gray.7" size="sm">
          No payments yet.
        </Text>
      ) : (
        <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {latest.map((p) => (
            <Group component="li" key={p.id} justify="space-between" wrap="nowrap">
              <Text size="sm">
                {showDate(p.created_at)} · {paymentMethodLabel(p)}
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" fw={600}>
                  {formatCurrency(p.amount_cents)}
                </Text>
                <PaymentStatusBadge status={p.status} />
              </Group>
            </Group>
          ))}
        </Stack>
      )}
      <Anchor component={Link} to="/app/finances" size="sm" mt="md" display="inline-block">
        All payments and receipts
      </Anchor>
    </Card>
  );
}
