import { useEffect } from 'react';
import { Anchor, Badge, Button, Center, Divider, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { lineTypeLabel, PAYMENT_TYPE_LABELS, type InvoiceOrganization, type InvoiceView } from '../../../shared/schemas/invoices.ts';
import { boot } from '../../lib/boot.ts';
import { HttpFailure, http } from '../../lib/http.ts';
import { showDate } from '../../lib/locale.ts';
import classes from './invoice-page.module.css';

function BackLink() {
  return <Anchor component={Link} to="/app/payments">Back to payments</Anchor>;
}

/** 404 (unknown, or another account's: the server does not say which), 401, or any other failure. */
function InvoiceFailure({ error }: { error: unknown }) {
  const status = error instanceof HttpFailure ? error.status : 0;
  if (status === 401) {
    const next = encodeURIComponent(window.location.pathname);
    return (
      <Stack align="flex-start" py="xl">
        <Title order={1}>Please sign in</Title>
        <Text>Sign in to see this invoice.</Text>
        <Button component={Link} to={`/login?next=${next}`}>Sign in</Button>
      </Stack>
    );
  }
  const missing = status === 404;
  return (
    <Stack align="flex-start" py="xl">
      <Title order={1}>{missing ? 'Invoice not found' : 'Something went wrong'}</Title>
      <Text>{missing ? 'There is no invoice at this address for your account. Check the link, or find your invoices on the payments page.' : 'The invoice could not be loaded. Please reload the page.'}</Text>
      <Button component={Link} to="/app/payments" variant={missing ? 'filled' : 'default'}>Go to payments</Button>
    </Stack>
  );
}

function Address({ organization }: { organization: InvoiceOrganization }) {
  const cityLine = [organization.city, [organization.state, organization.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return (
    <div>
      <Text size="xs" tt="uppercase" c="dimmed" fw={700}>Billed to</Text>
      <Text fw={700}>{organization.name}</Text>
      {organization.street && <Text size="sm">{organization.street}</Text>}
      {cityLine && <Text size="sm">{cityLine}</Text>}
    </div>
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

/** The printable invoice itself. */
function InvoiceSheet({ invoice }: { invoice: InvoiceView }) {
  const { name: companyName, phone } = boot.company;
  const paidCents = invoice.payments.reduce((sum, p) => sum + p.amount_cents, 0);
  const isPaid = invoice.balance_cents <= 0;
  const titleId = 'invoice-title';
  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 40 }} component="article" aria-labelledby={titleId} className={classes.sheet}>
      <Stack gap="xl">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text fw={800} fz="xl">{companyName}</Text>
            {phone && <Text size="sm" c="gray.7">{phone}</Text>}
          </div>
          <div style={{ textAlign: 'right' }}>
            <Title order={1} size="h2" id={titleId}>Invoice {invoice.number}</Title>
            <Text size="sm" c="gray.7">Date: {showDate(invoice.document_at)}</Text>
            <Badge mt={6} color={isPaid ? 'green' : 'orange'} variant="light">{isPaid ? 'Paid' : 'Balance due'}</Badge>
          </div>
        </Group>

        <Address organization={invoice.organization} />

        <Table aria-label="Order details" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Description</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th className={classes.amount}>Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.order_details.length === 0 ? (
              <Table.Tr><Table.Td colSpan={3}><Text c="dimmed">No order details.</Text></Table.Td></Table.Tr>
            ) : (
              invoice.order_details.map((line, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{line.label}</Table.Td>
                  <Table.Td>{lineTypeLabel(line.type)}</Table.Td>
                  <Table.Td className={classes.amount}>{formatCurrency(line.value_cents)}</Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>

        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
          <div>
            {invoice.public_notes && (
              <>
                <Text size="xs" tt="uppercase" c="dimmed" fw={700}>Notes</Text>
                <Text size="sm" className={classes.notes}>{invoice.public_notes}</Text>
              </>
            )}
          </div>
          <Stack gap={4} aria-label="Totals" role="group">
            <SummaryRow label="Invoice total" cents={invoice.value_cents} />
            <SummaryRow label="Payments applied" cents={-paidCents} />
            <Divider my={4} />
            <SummaryRow label="Balance due" cents={invoice.balance_cents} strong />
          </Stack>
        </SimpleGrid>

        <section aria-labelledby="payments-title">
          <Title order={2} size="h4" id="payments-title" mb="xs">Payments applied</Title>
          {invoice.payments.length === 0 ? (
            <Text c="dimmed">No payments yet.</Text>
          ) : (
            <Table aria-label="Payments applied" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Method</Table.Th>
                  <Table.Th className={classes.amount}>Amount</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invoice.payments.map((p) => (
                  <Table.Tr key={p.id}>
                    <Table.Td>{showDate(p.paid_at)}</Table.Td>
                    <Table.Td>{PAYMENT_TYPE_LABELS[p.type] ?? p.type}</Table.Td>
                    <Table.Td className={classes.amount}>{formatCurrency(p.amount_cents)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </section>

        {!isPaid && phone && (
          <Text size="sm" c="gray.7">Questions about this invoice? Call us at {phone}.</Text>
        )}
      </Stack>
    </Paper>
  );
}

/** /app/invoices/show/{id} (SPEC §2, tool 14): one invoice of the account, printable. */
export default function InvoicePage() {
  const { id = '' } = useParams();
  const query = useQuery({
    queryKey: ['invoice', id],
    queryFn: () => http.get<InvoiceView>(`/api/invoices/${encodeURIComponent(id)}`),
    retry: (count, error) => !(error instanceof HttpFailure && error.status >= 400 && error.status < 500) && count < 1,
  });
  const number = query.data?.number;
  useEffect(() => {
    if (!number) return;
    const before = document.title;
    document.title = `Invoice ${number} | ${boot.company.name}`;
    return () => { document.title = before; };
  }, [number]);

  if (query.isPending) return <Center py="xl"><Loader aria-label="Loading" /></Center>;
  if (query.isError) return <InvoiceFailure error={query.error} />;
  return (
    <Stack gap="md">
      <Group justify="space-between" className={classes.noPrint} maw="52rem">
        <BackLink />
        <Button variant="light" onClick={() => window.print()}>Print</Button>
      </Group>
      <InvoiceSheet invoice={query.data} />
    </Stack>
  );
}
