import { Alert, Anchor, Button, Card, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { adminInvoicesContracts } from '../../../../shared/contracts/admin-invoices.ts';
import { adminPaymentContracts } from '../../../../shared/contracts/admin-payments.ts';
import { reviewPaymentAlertSchema, type PaymentAlert } from '../../../../shared/schemas/admin-payments.ts';
import { toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { HttpFailure, call } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { keyOf } from '../../../lib/queries.ts';
import { useAdminForm } from '../use-admin-form.ts';

/** "2 alerts", "1 alert". */
const alertsInWords = (n: number) => `${n} ${n === 1 ? 'alert' : 'alerts'}`;

/**
 * The notice at the top of /admin/payments while payment alerts wait for a review
 * (docs/payments.md "Card testing"): how many, what they mean, and a button to the "Needs a
 * decision" tab, where they are listed. Nothing while there are none (or the totals are loading).
 */
export function CardTestingNotice({ open, onReview }: { open: number | undefined; onReview: () => void }) {
  if (!open) return null;
  return (
    <Alert color="red" variant="light" mb="lg" title={`Possible card testing: ${alertsInWords(open)} to review`}>
      <Text size="sm">
        An account or a network passed a payment limit: many payment attempts or declined payments in a short time, as a
        script trying stolen cards would. Its further attempts are refused until the limit’s window ends. Look at the
        attempts, then mark each alert reviewed.
      </Text>
      <Button color="red" size="xs" mt="sm" onClick={onReview}>
        Review the alerts
      </Button>
    </Alert>
  );
}

/** Who an alert is about, for a button's name and the dialog: the account's name, or the client address. */
const subjectOf = (a: PaymentAlert) => a.account?.name ?? (a.ip || 'no account');

/**
 * The dialog that marks a payment alert reviewed: what the alert says and a required note of what
 * staff found (kept in the audit log). On success, or when a colleague reviewed it first (409),
 * the alerts and the totals are read again.
 */
function ReviewAlertDialog({ alert, onClose }: { alert: PaymentAlert; onClose: () => void }) {
  const client = useQueryClient();
  const form = useAdminForm({ note: '' }, reviewPaymentAlertSchema);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: keyOf(adminPaymentContracts.attention) });
    // The payments' list, and the money totals, which carry the count the notice shows.
    void client.invalidateQueries({ queryKey: keyOf(adminPaymentContracts.list) });
    void client.invalidateQueries({ queryKey: keyOf(adminInvoicesContracts.moneyTotals) });
  };
  const send = useMutation({
    mutationFn: () =>
      call(adminPaymentContracts.reviewAlert, { params: { id: String(alert.id) }, body: { note: form.values.note } }),
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      refresh();
      onClose();
    },
    onError: (err) => {
      if (err instanceof HttpFailure && err.status === 409) {
        toastFailure(err.message);
        refresh();
        onClose();
      } else form.fail(err);
    },
  });
  return (
    <Modal opened onClose={onClose} title={<Text fw={700}>Mark the alert reviewed</Text>} centered size="lg">
      <form
        noValidate
        aria-label="Mark the alert reviewed"
        onSubmit={(e) => {
          e.preventDefault();
          if (form.check()) send.mutate();
        }}
      >
        <Stack>
          <Text size="sm">
            {showDateTime(alert.created_at)}: {alert.summary}
            {alert.account ? `, account ${alert.account.name}` : ''}
            {alert.ip ? `, client address ${alert.ip}` : ''}.
          </Text>
          <Text size="sm" c="dimmed">
            Takes the alert off the list. It changes no payment and does not lift the limit: the attempts stay refused
            until its window ends.
          </Text>
          <Textarea
            label="Note"
            withAsterisk
            autosize
            minRows={2}
            maxLength={500}
            value={form.values.note}
            error={form.errors.note}
            description="What you found, e.g. the treasurer retried a card. Kept in the audit log."
            onChange={(e) => form.change({ note: e.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={send.isPending}>
              Mark reviewed
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The "Possible card testing" section of the "Needs a decision" tab (docs/payments.md "Card
 * testing"): each payment alert not reviewed yet, newest first, as a list that reads at any width:
 * what was counted in words, when it was raised, the account (a link to its staff page) or "No
 * account", the client address, and "Mark reviewed". `alerts` is undefined while the list loads.
 */
export function PaymentAlertsCard({ alerts }: { alerts: PaymentAlert[] | undefined }) {
  const [reviewing, setReviewing] = useState<PaymentAlert | null>(null);
  const open = alerts?.length ?? 0;
  return (
    <Card
      withBorder
      padding="md"
      component="section"
      aria-labelledby="attention-alerts"
      style={open > 0 ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
    >
      <Title order={2} size="h4" id="attention-alerts" mb={4}>
        Possible card testing
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        An account or a client address passed a payment limit (attempts per hour, or declined payments per day). Look at
        its payments, and call the account when in doubt.
      </Text>
      {alerts && alerts.length === 0 && (
        <Text c="dimmed" py="md" ta="center">
          No possible card testing.
        </Text>
      )}
      {alerts && alerts.length > 0 && (
        <Stack component="ul" gap={0} m={0} p={0} aria-label="Possible card testing" style={{ listStyle: 'none' }}>
          {alerts.map((a) => (
            <Group
              component="li"
              key={a.id}
              justify="space-between"
              align="center"
              gap="sm"
              py="sm"
              style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
            >
              <Stack gap={4} style={{ flex: '1 1 18rem' }}>
                <Text size="sm" fw={600}>
                  {a.summary}
                </Text>
                <Text size="sm" c="dimmed">
                  {showDateTime(a.created_at)} ·{' '}
                  {a.account ? (
                    <Anchor component={Link} to={`/admin/accounts/show/${a.account.id}`} size="sm">
                      {a.account.name}
                    </Anchor>
                  ) : (
                    'No account'
                  )}{' '}
                  · client address {a.ip || 'unknown'}
                </Text>
              </Stack>
              <Button
                size="xs"
                variant="default"
                onClick={() => setReviewing(a)}
                aria-label={`Mark reviewed: the alert of ${showDateTime(a.created_at)} about ${subjectOf(a)}`}
              >
                Mark reviewed
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      {reviewing && <ReviewAlertDialog alert={reviewing} onClose={() => setReviewing(null)} />}
    </Card>
  );
}
