/**
 * What a payer reads when a card or bank payment is refused (docs/payments.md "Retrying after a
 * decline"): the reason in plain words and the next step, from the gateway's response reason code
 * (Authorize.Net's transaction error codes: 2-4 declined by the bank, 27 address mismatch, 44/45/65
 * card code mismatch, 6/37 bad number, 8 expired, 11 duplicate, 17/28 card type not accepted,
 * 250-254 fraud screening) or its request error (E00114 used or expired card token). Pure and
 * shared, so the billing screen and the server say the same.
 */

/** How the refused payment was made. */
export type RefusedMethod = 'card' | 'bank';

const CARD: Readonly<Record<string, string>> = {
  '2': 'Your bank declined the card. Call the number on the back of the card to ask why, or use another card.',
  '27': 'Your bank declined the card because the billing address or zip code did not match. Check the address and zip code your bank has for the card, or use another card.',
  '44': 'Your bank declined the card because the card code did not match. Check the 3 or 4 digit code on the card, or use another card.',
  '6': 'The card number is not valid. Check the number, or use another card.',
  '8': 'The card has expired. Check the expiry date, or use another card.',
  '17': 'We cannot take this type of card. Use a Visa, Mastercard, American Express or Discover card, or pay by bank account.',
  '11': 'The same payment was sent twice in a short time, so the second one was stopped and nothing more was charged. Check your payments before you try again.',
  '250': 'The payment was stopped by our fraud screening. Use another card or pay by bank account, or call us.',
  E00114: 'The card details expired before they reached us. Enter them again and press Pay.',
};

const BANK: Readonly<Record<string, string>> = {
  '2': 'Your bank declined the payment from this account. Check the account and routing numbers with your bank, use another account, or pay by card.',
  '11': CARD['11'],
  '250': 'The payment was stopped by our fraud screening. Use another account or pay by card, or call us.',
  E00114: 'The bank details expired before they reached us. Enter them again and press Pay.',
};

/** Reason codes that mean the same thing, read as the one the tables above name. */
const SAME_AS: Readonly<Record<string, string>> = {
  '3': '2',
  '4': '2',
  '41': '2',
  '45': '44',
  '65': '44',
  '37': '6',
  '28': '17',
  '251': '250',
  '254': '250',
};

/**
 * The refusal message for a gateway code, naming the reason and what to do next, e.g. code '27'
 * for a card: "Your bank declined the card because the billing address or zip code did not
 * match. Check the address and zip code your bank has for the card, or use another card."
 * @param code the response reason code or request error code the gateway answered (null or
 *   unknown: a general message that still gives the next step, with the code when there is one)
 */
export function refusalMessage(method: RefusedMethod, code: string | null | undefined): string {
  const key = SAME_AS[code ?? ''] ?? code ?? '';
  const known = (method === 'bank' ? BANK : CARD)[key];
  if (known) return known;
  const which = method === 'bank' ? 'account' : 'card';
  return `The payment did not go through${code ? ` (code ${code})` : ''}. Nothing was charged. Try again, use another ${which}, or call us if it keeps happening.`;
}
