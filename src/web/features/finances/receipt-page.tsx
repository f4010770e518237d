import { useEffect, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Center, Divider, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { PAYMENT_METHOD_NAMES, paymentStatusLabel, type PaymentReceipt } from '../../../shared/schemas/finances.ts';
import { boot } from '../../lib/boot.ts';
import { HttpFailure, http } from '../../lib/http.ts';
import { showDate } from '../../lib/locale.ts';
import { STATUS_COLOR } from './payments-table.tsx';
import classes from './receipt-page.module.css';

/** Where "back" goes: an admin looking at another account goes to that account's latest payments. */
function financesHref(accountId: number | undefined) {
  const user = boot.user;
  return user?.isAdmin && accountId !== undefined && accountId !== user.accountId ? `/admin/payments/latest/${accountId}` : '/app/finances';
}

/** 404 (unknown, another account's, or a payment without a receipt: the server does not say which), 401, or any other failure. */
function ReceiptFailure({ error }: { error: unknown }) {
  const status = error instanceof HttpFailure ? error.status : 0;
  if (status === 401) {
    const next = encodeURIComponent(window.location.pathname);
    return (
      <Stack align="flex-start" py="xl">
        <Title order={1}>Please sign in</Title>
        <Text>Sign in to see this receipt.</Text>
        <Button component={Link} to={`/login?next=${next}`}>Sign in</Button>
      </Stack>
    );
  }
  const missing = status === 404;
  return (
    <Stack align="flex-start" py="xl">
      <Title order={1}>{missing ? 'Receipt not found' : 'Something went wrong'}</Title>
      <Text>{missing
        ? 'There is no receipt at this address for your account. Only paid payments have receipts; find yours on the finances page.'
        : 'The receipt could not be loaded. Please reload the page.'}</Text>
      <Button component={Link} to="/app/finances" variant={missing ? 'filled' : 'default'}>Go to finances</Button>
    </Stack>
  );
}

function SummaryRow({ label, cents, strong }: { label: string; cents: number; strong?: boolean }) {
  return (
    <Group justify="space-between" gap="xl" wrap="nowrap">
      <Text fw={strong ? 800 : 500}>{label}</Text>
      <Text fw={strong ? 800 : 500} fz={strong ? 'lg' : undefined} className={classes.amount}>{formatCurrency(cents)}</Text>
    </Group>
  );
}

/** The printable receipt itself. */
function ReceiptSheet({ receipt }: { receipt: PaymentReceipt }) {
  const { payment: p, account, company } = receipt;
  const isHeld = p.status === 'held';
  const method = [PAYMENT_METHOD_NAMES[p.method] ?? p.method, p.method === 'card' || p.method === 'bank' ? p.account_type : null].filter(Boolean).join(' · ');
  const details: [string, ReactNode][] = [['Method', method]];
  if (p.account_last4) details.push(['Account', p.account_last4]);
  if (p.auth_code) details.push(['Authorization code', p.auth_code]);
  if (p.gateway_trans_id) details.push(['Transaction ID', p.gateway_trans_id]);
  details.push(['Receipt number', String(p.id)]);
  const titleId = 'receipt-title';
  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 40 }} component="article" aria-labelledby={titleId} className={classes.sheet}>
      <Stack gap="xl">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text fw={800} fz="xl">{company.name}</Text>
            {company.phone && <Text size="sm" c="gray.7">{company.phone}</Text>}
            {company.email && <Text size="sm" c="gray.7">{company.email}</Text>}
          </div>
          <div style={{ textAlign: 'right' }}>
            <Title order={1} size="h2" id={titleId}>Payment receipt</Title>
            <Text size="sm" c="gray.7">Date: {showDate(p.settled_at ?? p.created_at)}</Text>
            <Badge mt={6} color={STATUS_COLOR[p.status] ?? 'gray'} variant="light">{paymentStatusLabel(p.status)}</Badge>
          </div>
        </Group>

        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
          <div>
            <Text size="xs" tt="uppercase" c="dimmed" fw={700}>Received from</Text>
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
            The payment was received and is being reviewed. Your invoices will be updated once it is approved. Please do not pay again.
          </Alert>
        )}

        <Table aria-label="Invoices paid" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Invoice</Table.Th>
              <Table.Th className={classes.amount}>{isHeld ? 'Applied' : 'Amount applied'}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {p.invoices.length === 0 ? (
              <Table.Tr><Table.Td colSpan={2}><Text c="dimmed">No invoices.</Text></Table.Td></Table.Tr>
            ) : p.invoices.map((inv) => (
              <Table.Tr key={inv.id}>
                <Table.Td><Anchor component={Link} to={`/app/invoices/show/${inv.id}`} size="sm">Invoice {inv.number}</Anchor></Table.Td>
                <Table.Td className={classes.amount}>{inv.amount_cents === null ? 'After review' : formatCurrency(inv.amount_cents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>

        <Group justify="flex-end">
          <Stack gap={4} aria-label="Totals" role="group" miw={{ base: '100%', sm: '22rem' }}>
            <SummaryRow label="Amount paid" cents={p.amount_cents} />
            {p.discount_cents > 0 && <SummaryRow label="Discount" cents={p.discount_cents} />}
            <Divider my={4} />
            <SummaryRow label="Total settled" cents={p.amount_cents + p.discount_cents} strong />
          </Stack>
        </Group>

        {company.phone && <Text size="sm" c="gray.7">Questions about this payment? Call us at {company.phone}.</Text>}
      </Stack>
    </Paper>
  );
}

/** /app/payments/receipt/{id} (SPEC tool 14): a printable receipt of one paid or held payment. */
export default function ReceiptPage() {
  const { id = '' } = useParams();
  const query = useQuery({
    queryKey: ['receipt', id],
    queryFn: () => http.get<PaymentReceipt>(`/api/payments/${encodeURIComponent(id)}/receipt`),
    retry: (count, error) => !(error instanceof HttpFailure && error.status >= 400 && error.status < 500) && count < 1,
  });
  const loaded = query.data;
  useEffect(() => {
    if (!loaded) return;
    const before = document.title;
    document.title = `Receipt ${loaded.payment.id} — ${loaded.account.name} | ${boot.company.name}`;
    return () => { document.title = before; };
  }, [loaded]);

  if (query.isPending) return <Center py="xl"><Loader aria-label="Loading" /></Center>;
  if (query.isError) return <ReceiptFailure error={query.error} />;
  return (
    <Stack gap="md">
      <Group justify="space-between" className={classes.noPrint} maw="52rem">
        <Anchor component={Link} to={financesHref(query.data.account.id)}>Back to finances</Anchor>
        <Button variant="light" onClick={() => window.print()}>Print</Button>
      </Group>
      <ReceiptSheet receipt={query.data} />
    </Stack>
  );
}
