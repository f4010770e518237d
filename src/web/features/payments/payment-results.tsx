import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { paymentContracts } from '../../../shared/contracts/billing.ts';
import { boot } from '../../lib/boot.ts';
import { HttpFailure, refusalOf } from '../../lib/http.ts';
import { whenOverlays } from '../../lib/overlays-ready.ts';

/**
 * What the payment routes answer (docs/requirements/calls.md "Reads messages.resultCode"): `messages.resultCode` Ok
 * means the money was taken (or is being confirmed: status held or pending); `redirect` is where
 * the payer goes next; `unassigned` marks an approved payment that could not be applied.
 */
export interface PaymentAnswer {
  message?: string;
  redirect?: string;
  /** payments.status: 'paid', 'held', 'pending', 'declined', 'failed', 'cancelled' … */
  status?: string;
  payment_id?: number;
  unassigned?: boolean;
  messages?: { resultCode: 'Ok' | 'Error'; message?: { code: string; text: string }[] };
}

/** docs/requirements/errors.md "Payments" texts. */
const RESULT_TEXT = {
  success: 'This transaction has been approved.',
  failed: 'Unable to complete payment.',
} as const;

function dialog(title: string, body: React.ReactNode, color?: string) {
  whenOverlays(() =>
    modals.open({
      title: (
        <Text fw={700} size="lg" c={color}>
          {title}
        </Text>
      ),
      children: body,
      centered: true,
    }),
  );
}

/** docs/requirements/errors.md "Approved but unassigned": do not pay again, call the company. */
function unassignedWarning() {
  const { name, phone } = boot.company;
  dialog(
    'Uh oh!',
    <>
      <Text>Your payment went through, but we could not apply it to your invoices.</Text>
      <Text mt="sm" fw={600}>
        Please do not pay again.
      </Text>
      <Text mt="sm">
        {phone ? `Call ${name} at ${phone} and we will sort it out.` : `Contact ${name} and we will sort it out.`}
      </Text>
    </>,
    'orange',
  );
}

/**
 * Shows the outcome of an answered payment (docs/requirements/errors.md): 'Success!' for a paid one, the review or
 * confirmation notice for a held or unconfirmed one, the unassigned warning when it applies.
 */
export function showPaymentOutcome(answer: PaymentAnswer) {
  if (answer.unassigned) return unassignedWarning();
  if (answer.status === 'paid' || answer.status === undefined) {
    dialog('Success!', <Text>{RESULT_TEXT.success}</Text>, 'green');
    return;
  }
  dialog('Payment received', <Text>{answer.message}</Text>, 'blue.8');
}

/**
 * docs/requirements/errors.md card or bank failure: 'Uh oh!' / 'Unable to complete payment.', then what the server
 * said: what to do next (shared/rules/payment-refusals.ts; never the bank's reason), and the
 * payment's reference in small print for a call to us. A limit's 429 shows its message, which
 * says when to try again. The form keeps what was typed, so the payer can fix a field or change
 * the card and press Pay again at once.
 */
export function showPaymentFailure(failure: HttpFailure | Error) {
  // The card and bank routes refuse with the same body (src/shared/contracts/billing.ts).
  const body = failure instanceof HttpFailure ? refusalOf(paymentContracts.credit, failure) : null;
  const first = body?.messages?.message?.[0];
  const text =
    first?.text ??
    (failure instanceof HttpFailure ? Object.values(failure.errors)[0]?.[0] : undefined) ??
    failure.message;
  dialog(
    'Uh oh!',
    <>
      <Text>{RESULT_TEXT.failed}</Text>
      <Text mt="md">{text}</Text>
      {body?.payment_id !== undefined && (
        <Text mt="md" size="sm" c="gray.7">
          Payment reference {body.payment_id}
        </Text>
      )}
    </>,
    'red',
  );
}
