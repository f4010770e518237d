import { Alert, Anchor, Button, Card, Group, Modal, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { adminInvoicesContracts } from '../../../../shared/contracts/admin-invoices.ts';
import { adminPaymentContracts } from '../../../../shared/contracts/admin-payments.ts';
import { formatCurrency } from '../../../../shared/rules/formats.ts';
import {
  resolveDiscrepancySchema,
  type AdminPaymentRow,
  type AttentionDiscrepancy,
  type StaffPaymentAction,
} from '../../../../shared/schemas/admin-payments.ts';
import { paymentMethodLabel } from '../../../../shared/schemas/finances.ts';
import { PaymentInvoiceLinks, PaymentStatusBadge } from '../../../components/payment-status.tsx';
import { toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { call } from '../../../lib/http.ts';
import { showDate, showDateTime } from '../../../lib/locale.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { useAdminForm } from '../use-admin-form.ts';
import { GatewayRefusal, PaymentActionButtons, PaymentActionDialog } from './payment-actions.tsx';
import { PaymentAlertsCard } from './payment-alerts.tsx';

/** The dialog that marks a gateway charge no payment accounts for as dealt with. */
function ResolveDiscrepancyDialog({
  discrepancy,
  onClose,
}: {
  discrepancy: AttentionDiscrepancy;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const form = useAdminForm({ resolution: '' }, resolveDiscrepancySchema);
  const send = useMutation({
    mutationFn: () =>
      call(adminPaymentContracts.resolveDiscrepancy, {
        params: { id: String(discrepancy.id) },
        body: form.values,
      }),
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      void client.invalidateQueries({ queryKey: keyOf(adminPaymentContracts.attention) });
      onClose();
    },
    onError: (err) => form.fail(err),
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={<Text fw={700}>Mark the gateway charge as dealt with</Text>}
      centered
      size="lg"
    >
      <form
        noValidate
        aria-label="Mark the gateway charge as dealt with"
        onSubmit={(e) => {
          e.preventDefault();
          if (form.check()) send.mutate();
        }}
      >
        <Stack>
          <Text size="sm">
            Charge {discrepancy.trans_id} of <strong>{formatCurrency(discrepancy.amount_cents)}</strong> (
            {[discrepancy.account_type, discrepancy.account_last4].filter(Boolean).join(' ')}), sent as{' '}
            {discrepancy.trans_ref_id || 'no reference'}. Void or refund it in the gateway’s own console first if it
            should not stand.
          </Text>
          <Textarea
            label="What was done"
            withAsterisk
            autosize
            minRows={2}
            maxLength={500}
            value={form.values.resolution}
            error={form.errors.resolution}
            onChange={(e) => form.change({ resolution: e.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={send.isPending}>
              Mark dealt with
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The "Needs a decision" tab of /admin/payments (docs/payments.md "Reconciliation", "Staff
 * actions", "Card testing"): the payment alerts not reviewed yet (possible card testing);
 * payments held for review, never confirmed, or put before staff by the reconciliation, each with
 * the actions staff may take; the gateway charges no payment accounts for; when the gateway was
 * last asked, and a button to ask it now.
 */
export function AttentionPanel() {
  const client = useQueryClient();
  const q = useQuery({
    ...queryOf(adminPaymentContracts.attention, {}),
  });
  const [acting, setActing] = useState<{ payment: AdminPaymentRow; action: StaffPaymentAction } | null>(null);
  const [resolving, setResolving] = useState<AttentionDiscrepancy | null>(null);
  const check = useMutation({
    mutationFn: () => call(adminPaymentContracts.reconcile, {}),
    onSuccess: (answer) => {
      if (answer.summary.listUnavailable)
        toastFailure('The payment gateway could not be reached. Nothing was changed; try again later.');
      else toastSuccess(`${answer.message} ${answer.summary.checked} checked.`);
      void client.invalidateQueries({ queryKey: keyOf(adminPaymentContracts.attention) });
      // The payments' list and the money totals.
      void client.invalidateQueries({ queryKey: keyOf(adminPaymentContracts.list) });
      void client.invalidateQueries({ queryKey: keyOf(adminInvoicesContracts.moneyTotals) });
    },
    onError: () => toastFailure(),
  });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" wrap="wrap">
        <Text size="sm" c="dimmed">
          {q.data?.last_reconciled_at
            ? `Last checked with the payment gateway ${showDateTime(q.data.last_reconciled_at)}.`
            : 'Not checked with the payment gateway yet.'}{' '}
          The check runs by itself every few minutes.
        </Text>
        <Button variant="default" onClick={() => check.mutate()} loading={check.isPending}>
          Check with the gateway now
        </Button>
      </Group>
      <PaymentAlertsCard alerts={q.data?.alerts} />
      <Card withBorder padding="md" component="section" aria-labelledby="attention-payments">
        <Title order={2} size="h4" id="attention-payments" mb="sm">
          Payments
        </Title>
        {q.isPending && <Text c="dimmed">Loading…</Text>}
        {q.isError && <Alert color="red">The payments that need a decision could not be loaded.</Alert>}
        {q.data && q.data.payments.length === 0 && (
          <Text c="dimmed" py="md" ta="center">
            Nothing needs a decision.
          </Text>
        )}
        {q.data && q.data.payments.length > 0 && (
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="sm" aria-label="Payments that need a decision">
              <Table.Thead>
                <Table.Tr>
                  {['Date', 'Account', 'Method', 'Amount', 'Status', 'Invoices', 'Actions'].map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.data.payments.map((p) => (
                  <Table.Tr key={p.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{showDate(p.created_at)}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/accounts/show/${p.account.id}`}>
                        {p.account.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{paymentMethodLabel(p)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatCurrency(p.amount_cents)}</Table.Td>
                    <Table.Td>
                      <PaymentStatusBadge status={p.status} />
                      <GatewayRefusal payment={p} />
                      {p.review_reason && (
                        <Text size="xs" c="orange.9" mt={4} maw={260}>
                          {p.review_reason}
                        </Text>
                      )}
                      {p.pending_refund_cents !== null && (
                        <Text size="xs" c="dimmed" mt={4}>
                          Refund of {formatCurrency(p.pending_refund_cents)} not confirmed yet
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <PaymentInvoiceLinks invoices={p.invoices} />
                    </Table.Td>
                    <Table.Td>
                      <PaymentActionButtons payment={p} onChoose={(action) => setActing({ payment: p, action })} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <Card withBorder padding="md" component="section" aria-labelledby="attention-gateway">
        <Title order={2} size="h4" id="attention-gateway" mb={4}>
          Charges at the gateway with no payment
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Charges sent by this site that no payment accounts for: a payment recorded as failed, or one the gateway
          charged twice.
        </Text>
        {q.data && q.data.discrepancies.length === 0 && (
          <Text c="dimmed" py="md" ta="center">
            None found.
          </Text>
        )}
        {q.data && q.data.discrepancies.length > 0 && (
          <Table.ScrollContainer minWidth={800}>
            <Table verticalSpacing="sm" aria-label="Charges at the gateway with no payment">
              <Table.Thead>
                <Table.Tr>
                  {['Found', 'Transaction', 'Amount', 'Account', 'Gateway status', 'Actions'].map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.data.discrepancies.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{showDate(d.found_at)}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{d.trans_id}</Text>
                      <Text size="xs" c="dimmed">
                        {d.trans_ref_id}
                        {d.invoice_number ? ` · invoice ${d.invoice_number}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatCurrency(d.amount_cents)}</Table.Td>
                    <Table.Td>{[d.account_type, d.account_last4].filter(Boolean).join(' ')}</Table.Td>
                    <Table.Td>{d.transaction_status}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => setResolving(d)}
                        aria-label={`Mark charge ${d.trans_id} as dealt with`}
                      >
                        Mark dealt with
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {acting && (
        <PaymentActionDialog payment={acting.payment} action={acting.action} onClose={() => setActing(null)} />
      )}
      {resolving && <ResolveDiscrepancyDialog discrepancy={resolving} onClose={() => setResolving(null)} />}
    </Stack>
  );
}
