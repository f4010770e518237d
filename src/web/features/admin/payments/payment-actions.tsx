import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminInvoicesContracts } from '../../../../shared/contracts/admin-invoices.ts';
import { adminPaymentContracts } from '../../../../shared/contracts/admin-payments.ts';
import { formatCurrency } from '../../../../shared/rules/formats.ts';
import {
  gatewayRefusalText,
  paymentActionSchema,
  refundSchema,
  type AdminPaymentRow,
  type StaffPaymentAction,
} from '../../../../shared/schemas/admin-payments.ts';
import { paymentMethodLabel } from '../../../../shared/schemas/finances.ts';
import { toastSuccess } from '../../../lib/feedback.tsx';
import { call } from '../../../lib/http.ts';
import { showDate } from '../../../lib/locale.ts';
import { keyOf } from '../../../lib/queries.ts';
import { useAdminForm } from '../use-admin-form.ts';

/** What each staff action is called, what its dialog says it does, and its button (docs/payments.md). */
const ACTIONS: Record<
  StaffPaymentAction,
  { label: string; title: string; explain: string; confirm: string; color: string }
> = {
  approve: {
    label: 'Approve',
    title: 'Approve the held payment',
    confirm: 'Approve payment',
    color: 'green',
    explain:
      'The gateway captures the money and the payment is applied to its invoices. The account is told by e-mail.',
  },
  decline: {
    label: 'Decline',
    title: 'Decline the payment',
    confirm: 'Decline payment',
    color: 'red',
    explain:
      'Nothing is charged, the invoices can be paid again and a discount it used is given back. The account is told by e-mail.',
  },
  void: {
    label: 'Void',
    title: 'Void the payment',
    confirm: 'Void payment',
    color: 'red',
    explain:
      'The charge is cancelled at the gateway before it settles: no money is taken and the invoices it paid are owed again. The account is told by e-mail.',
  },
  refund: {
    label: 'Refund',
    title: 'Refund the payment',
    confirm: 'Refund',
    color: 'red',
    explain:
      'The amount goes back to the card, bank account or PayPal account it came from. The invoices stay settled. The account is told by e-mail.',
  },
  resolve: {
    label: 'Mark dealt with',
    title: 'Mark as dealt with',
    confirm: 'Mark dealt with',
    color: 'blue',
    explain: 'Takes the payment off this list without changing any money, once you have dealt with it another way.',
  },
};

/** The buttons of the actions staff may take on a payment now (from the server's `actions`). */
export function PaymentActionButtons({
  payment,
  onChoose,
}: {
  payment: AdminPaymentRow;
  onChoose: (action: StaffPaymentAction) => void;
}) {
  if (!payment.actions.length) return null;
  return (
    <Group gap={6} wrap="wrap">
      {payment.actions.map((action) => (
        <Button
          key={action}
          size="xs"
          variant={action === 'approve' ? 'filled' : 'default'}
          color={action === 'approve' ? 'green' : undefined}
          onClick={() => onChoose(action)}
          aria-label={`${ACTIONS[action].label} the payment of ${formatCurrency(payment.amount_cents)} by ${payment.account.name}`}
        >
          {ACTIONS[action].label}
        </Button>
      ))}
    </Group>
  );
}

/**
 * The dialog of one staff action: what it does, the reason (kept in the audit log, never mailed)
 * and, for a refund, the amount (what is left of the payment at first). Sends it, shows the
 * server's field errors, and on success toasts the answer and refreshes the payment lists.
 */
export function PaymentActionDialog({
  payment,
  action,
  onClose,
}: {
  payment: AdminPaymentRow;
  action: StaffPaymentAction;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const left = payment.amount_cents - payment.refunded_cents;
  const isRefund = action === 'refund';
  const form = useAdminForm(
    { reason: '', amount: isRefund ? (left / 100).toFixed(2) : '' },
    isRefund ? refundSchema : paymentActionSchema,
  );
  const { values, errors, change } = form;
  const send = useMutation({
    mutationFn: () =>
      action === 'refund'
        ? call(adminPaymentContracts.refund, { params: { id: String(payment.id) }, body: refundSchema.parse(values) })
        : call(adminPaymentContracts[action], { params: { id: String(payment.id) }, body: { reason: values.reason } }),
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      // The payments' list and the money totals.
      void client.invalidateQueries({ queryKey: keyOf(adminPaymentContracts.list) });
      void client.invalidateQueries({ queryKey: keyOf(adminInvoicesContracts.moneyTotals) });
      void client.invalidateQueries({ queryKey: keyOf(adminPaymentContracts.attention) });
      onClose();
    },
    onError: (err) => form.fail(err),
  });
  const spec = ACTIONS[action];
  return (
    <Modal opened onClose={onClose} title={<Text fw={700}>{spec.title}</Text>} centered size="lg">
      <form
        noValidate
        aria-label={spec.title}
        onSubmit={(e) => {
          e.preventDefault();
          if (form.check()) send.mutate();
        }}
      >
        <Stack>
          <Text size="sm">
            {paymentMethodLabel(payment)} payment of <strong>{formatCurrency(payment.amount_cents)}</strong> by{' '}
            {payment.account.name} on {showDate(payment.created_at)}
            {payment.refunded_cents > 0 && <> ({formatCurrency(payment.refunded_cents)} refunded so far)</>}.
          </Text>
          <Text size="sm" c="dimmed">
            {spec.explain}
          </Text>
          {isRefund && (
            <TextInput
              label="Amount to refund (dollars)"
              withAsterisk
              inputMode="decimal"
              leftSection="$"
              value={values.amount}
              error={errors.amount}
              description={`At most ${formatCurrency(left)}.`}
              onChange={(e) => change({ amount: e.currentTarget.value })}
            />
          )}
          <Textarea
            label="Reason"
            withAsterisk
            autosize
            minRows={2}
            maxLength={500}
            value={values.reason}
            error={errors.reason}
            description="Kept in the audit log. Not sent to the account."
            onChange={(e) => change({ reason: e.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color={spec.color} loading={send.isPending}>
              {spec.confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * What the gateway said of a declined or failed payment, in small print under its status badge
 * (staff only; docs/payments.md "Card testing"): nothing for any other payment.
 */
export function GatewayRefusal({ payment }: { payment: AdminPaymentRow }) {
  const text = gatewayRefusalText(payment);
  if (!text) return null;
  return (
    <Text size="xs" c="dimmed" mt={4} maw={260}>
      {text}
    </Text>
  );
}
