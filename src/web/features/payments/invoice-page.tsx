import { Anchor, Center, Divider, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { billingContracts } from '../../../shared/contracts/billing.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import {
  lineTypeLabel,
  PAYMENT_TYPE_LABELS,
  type InvoiceOrganization,
  type InvoiceView,
} from '../../../shared/schemas/invoices.ts';
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
import classes from './invoice-page.module.css';

function Address({ organization }: { organization: InvoiceOrganization }) {
  const cityLine = [organization.city, [organization.state, organization.zip].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return (
    <div>
      <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
        Billed to
      </Text>
      <Text fw={700}>{organization.name}</Text>
      {organization.street && <Text size="sm">{organization.street}</Text>}
      {cityLine && <Text size="sm">{cityLine}</Text>}
    </div>
  );
}

/** The printable invoice itself. */
function InvoiceSheet({ invoice }: { invoice: InvoiceView }) {
  const { name: companyName, phone } = boot.company;
  const paidCents = invoice.payments.reduce((sum, p) => sum + p.amount_cents, 0);
  const isPaid = invoice.balance_cents <= 0;
  return (
    <PrintableSheet
      titleId="invoice-title"
      title={`Invoice ${invoice.number}`}
      date={showDate(invoice.document_at)}
      badge={isPaid ? { label: 'Paid', color: 'green' } : { label: 'Balance due', color: 'orange' }}
      company={{ name: companyName, phone }}
    >
      <Address organization={invoice.organization} />

      <Table aria-label="Order details" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Description</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th className={documentClasses.amount}>Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoice.order_details.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text c="dimmed">No order details.</Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            invoice.order_details.map((line, i) => (
              <Table.Tr key={i}>
                <Table.Td>{line.label}</Table.Td>
                <Table.Td>{lineTypeLabel(line.type)}</Table.Td>
                <Table.Td className={documentClasses.amount}>{formatCurrency(line.value_cents)}</Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
        <div>
          {invoice.public_notes && (
            <>
              <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
                Notes
              </Text>
              <Text size="sm" className={classes.notes}>
                {invoice.public_notes}
              </Text>
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
        <Title order={2} size="h4" id="payments-title" mb="xs">
          Payments applied
        </Title>
        {invoice.payments.length === 0 ? (
          <Text c="dimmed">No payments yet.</Text>
        ) : (
          <Table aria-label="Payments applied" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Method</Table.Th>
                <Table.Th className={documentClasses.amount}>Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoice.payments.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{showDate(p.paid_at)}</Table.Td>
                  <Table.Td>{PAYMENT_TYPE_LABELS[p.type] ?? p.type}</Table.Td>
                  <Table.Td className={documentClasses.amount}>{formatCurrency(p.amount_cents)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>

      {!isPaid && phone && (
        <Text size="sm" c="gray.7">
          Questions about this invoice? Call us at {phone}.
        </Text>
      )}
    </PrintableSheet>
  );
}

/** The failure screen's words when the invoice cannot be shown. */
const FAILURE = {
  noun: 'invoice',
  missingText:
    'There is no invoice at this address for your account. Check the link, or find your invoices on the payments page.',
  listHref: '/app/payments',
  listLabel: 'Go to payments',
};

/** /app/invoices/show/{id} (docs/requirements/screens.md, tool 14): one invoice of the account, printable. */
export default function InvoicePage() {
  const { id = '' } = useParams();
  const query = useQuery({
    ...queryOf(billingContracts.invoice, { params: { id } }),
    retry: retryUnlessClientError,
  });
  useDocumentTitle(query.data && `Invoice ${query.data.number}`);

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
        <Anchor component={Link} to="/app/payments">
          Back to payments
        </Anchor>
      }
    >
      <InvoiceSheet invoice={query.data} />
    </PrintableDocument>
  );
}
