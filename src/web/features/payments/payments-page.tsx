import { Alert, Anchor, Card, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { http } from '../../lib/http.ts';
import { showDate } from '../../lib/locale.ts';

/** GET /api/invoices/unpaid. */
export interface UnpaidInvoice {
  id: number;
  number: string;
  document_at: string;
  value_cents: number;
  balance_cents: number;
  order_details: { label: string; type: string; value_cents: number }[];
}

function InvoiceCard({ invoice }: { invoice: UnpaidInvoice }) {
  const titleId = `invoice-${invoice.id}`;
  return (
    <Card withBorder padding="lg" component="article" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={2} size="h4" id={titleId}>
            <Anchor component={Link} to={`/app/invoices/show/${invoice.id}`} inherit>Invoice {invoice.number}</Anchor>
          </Title>
          <Text size="sm" c="gray.7">Dated {showDate(invoice.document_at)}</Text>
        </div>
        <div style={{ textAlign: 'right' }}>
          <Text size="sm" c="gray.7">Balance due</Text>
          <Text fw={800} fz="xl">{formatCurrency(invoice.balance_cents)}</Text>
        </div>
      </Group>
      <Table withRowBorders={false} verticalSpacing={4} aria-label={`Invoice ${invoice.number} lines`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoice.order_details.map((line, i) => (
            <Table.Tr key={i}>
              <Table.Td>{line.label}</Table.Td>
              <Table.Td ta="right">{formatCurrency(line.value_cents)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th>Invoice total</Table.Th>
            <Table.Th ta="right">{formatCurrency(invoice.value_cents)}</Table.Th>
          </Table.Tr>
          {invoice.balance_cents !== invoice.value_cents && (
            <Table.Tr>
              <Table.Th>Balance</Table.Th>
              <Table.Th ta="right">{formatCurrency(invoice.balance_cents)}</Table.Th>
            </Table.Tr>
          )}
        </Table.Tfoot>
      </Table>
    </Card>
  );
}

/** /app/payments: the account's unpaid invoices (read-only until online payment opens). */
export default function PaymentsPage() {
  const q = useQuery({ queryKey: ['invoices', 'unpaid'], queryFn: () => http.get<{ invoices: UnpaidInvoice[] }>('/api/invoices/unpaid') });
  const { phone } = boot.company;
  return (
    <>
      <PageHeader title="Payments" lead="Your unpaid invoices." />
      {q.isPending && <Center py="xl"><Loader aria-label="Loading" /></Center>}
      {q.isError && <Alert color="red" title="Something went wrong">Your invoices could not be loaded. Please reload the page.</Alert>}
      {q.data && (
        <Stack gap="lg" maw={760}>
          {q.data.invoices.length === 0 ? (
            <Text>No unpaid invoices.</Text>
          ) : (
            q.data.invoices.map((inv) => <InvoiceCard key={inv.id} invoice={inv} />)
          )}
          <Alert color="blue" variant="light" title="Online payment opens soon">
            {phone ? (
              <>To pay now, call us at <Anchor inherit href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</Anchor>.</>
            ) : (
              <>To pay now, please <Anchor inherit component={Link} to="/contact">contact us</Anchor>.</>
            )}
          </Alert>
        </Stack>
      )}
    </>
  );
}
