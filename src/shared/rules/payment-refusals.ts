/**
 * What a payer reads when a card or bank payment is refused (docs/payments.md "Retrying after a
 * decline", docs/security.md "Limits on mail and payments"): what to do next, never why the bank
 * said no. Each reason a bank or the fraud screening gives (declined, address or zip mismatch, card
 * code mismatch, bad number, expired card: Authorize.Net's response reason codes 2-4, 6, 8, 27,
 * 37, 41, 44, 45, 65, 250-254, or a code we do not know) reads as one message per method, so a
 * stolen card cannot be tested field by field through this site; staff keep the reason and the
 * gateway's code on the payment. Three refusals say nothing about the card and keep their own
 * words: the same payment sent twice (11), a card type we do not take (17, 28) and card details
 * that expired on their way to us (request error E00114). Pure and shared, so the billing screen,
 * the server and the failed-payment mail say the same.
 */

/** How the refused payment was made. */
export type RefusedMethod = 'card' | 'bank';

/** The one message for a declined card, whatever the bank's reason. */
export const CARD_DECLINED =
  'The card was declined and nothing was charged. Check the card number, expiry date, card code and billing address you entered, or use another card or pay by bank account. If it keeps happening, call the bank that issued the card.';

/** The one message for a declined bank account, whatever the bank's reason. */
export const BANK_DECLINED =
  'The bank account was declined and nothing was charged. Check the routing number, account number and name on the account you entered, or use another account or pay by card. If it keeps happening, call your bank.';

const DUPLICATE =
  'The same payment was sent twice in a short time, so the second one was stopped and nothing more was charged. Check your payments before you try again.';

const CARD: Readonly<Record<string, string>> = {
  '11': DUPLICATE,
  '17': 'We cannot take this type of card. Use a Visa, Mastercard, American Express or Discover card, or pay by bank account.',
  '28': 'We cannot take this type of card. Use a Visa, Mastercard, American Express or Discover card, or pay by bank account.',
  E00114: 'The card details expired before they reached us. Enter them again and press Pay.',
};

const BANK: Readonly<Record<string, string>> = {
  '11': DUPLICATE,
  E00114: 'The bank details expired before they reached us. Enter them again and press Pay.',
};

/**
 * The refusal message for a gateway code: one of the three that keep their own words, otherwise
 * {@link CARD_DECLINED} or {@link BANK_DECLINED}.
 * @param code the response reason code or request error code the gateway answered (null or unknown:
 *   the decline message)
 */
export function refusalMessage(method: RefusedMethod, code: string | null | undefined): string {
  const own = (method === 'bank' ? BANK : CARD)[code ?? ''];
  return own ?? (method === 'bank' ? BANK_DECLINED : CARD_DECLINED);
}

/**
 * What the payer reads of a refused payment (the 422 and the failed-payment mail): for a card or
 * bank payment {@link refusalMessage}, what to do next and never the bank's reason; for PayPal the
 * text stored with the payment (PayPal's own words to its payer).
 * @param payment the payment's method and the gateway's code and text as stored
 */
export function payerRefusalText(payment: {
  method: string;
  gatewayCode: string | null;
  gatewayMessage: string | null;
}): string {
  return payment.method === 'card' || payment.method === 'bank'
    ? refusalMessage(payment.method, payment.gatewayCode)
    : payment.gatewayMessage || 'The payment was not accepted.';
}
