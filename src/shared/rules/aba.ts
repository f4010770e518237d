/**
 * Bank account rules of docs/requirements/validation.md "Bank" and docs/requirements/constants.md "Bank truncations": the local ABA routing number
 * checksum (checked before the public routing-number lookup) and the bank data handed to the card
 * payment provider's browser tokenizer. Pure; used by the bank form in the browser.
 */

/** A routing number is 9 digits (docs/requirements/constants.md field max length; ABA format). */
export const ROUTING_NUMBER_LENGTH = 9;

/** Weights of the ABA checksum, repeated over the 9 digits. */
const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

export const ROUTING_NUMBER_MESSAGES = {
  digits: 'The routing number must be 9 digits.',
  checksum: 'The routing number is not a valid bank routing number. Please check it against a check or your bank.',
} as const;

/**
 * Is `routingNumber` a well-formed ABA routing number: exactly 9 digits whose weighted sum
 * (weights 3, 7, 1 repeated) is a multiple of 10, and not all zeros (which passes the sum but
 * names no bank)? 021000021 and 011000015 are valid; 021000022 is not.
 */
export function isValidRoutingNumber(routingNumber: string): boolean {
  return routingNumberError(routingNumber) === null;
}

/**
 * The message to show for an invalid routing number, or null when it passes the local check
 * (docs/requirements/validation.md: the checksum is checked locally before the public lookup):
 * `ROUTING_NUMBER_MESSAGES.digits` unless it is exactly 9 digits, `ROUTING_NUMBER_MESSAGES.checksum`
 * when the ABA checksum fails. Surrounding whitespace is ignored.
 */
export function routingNumberError(routingNumber: string): string | null {
  const digits = typeof routingNumber === 'string' ? routingNumber.trim() : '';
  if (!/^\d{9}$/.test(digits)) return ROUTING_NUMBER_MESSAGES.digits;
  let sum = 0;
  for (let i = 0; i < ROUTING_NUMBER_LENGTH; i++) sum += Number(digits[i]) * ABA_WEIGHTS[i];
  if (sum % 10 !== 0 || /^0+$/.test(digits)) return ROUTING_NUMBER_MESSAGES.checksum;
  return null;
}

/** Lengths the bank data is cut to before it goes to the tokenizer (docs/requirements/validation.md "Bank", docs/requirements/constants.md). */
export const TOKENIZER_BANK_LIMITS = { accountNumber: 17, routingNumber: 9, nameOnAccount: 22 } as const;

/** The bank form's values the tokenizer needs. */
export interface BankFormData<T extends string = string> {
  nameOnAccount: string;
  accountType: T;
  accountNumber: string;
  routingNumber: string;
}

/**
 * The `bankData` given to the card payment provider's tokenizer: account number cut to 17
 * characters, routing number to 9, name on account to 22 (whole characters, so a name is never cut
 * inside a surrogate pair); the account type passes through. Values are trimmed first.
 * Returns a new object; the confirmation field is never included.
 */
export function bankDataForTokenizer<T extends string>(form: BankFormData<T>): BankFormData<T> {
  return {
    accountNumber: cut(form.accountNumber, TOKENIZER_BANK_LIMITS.accountNumber),
    routingNumber: cut(form.routingNumber, TOKENIZER_BANK_LIMITS.routingNumber),
    nameOnAccount: cut(form.nameOnAccount, TOKENIZER_BANK_LIMITS.nameOnAccount),
    accountType: form.accountType,
  };
}

function cut(value: string, max: number): string {
  return Array.from((value ?? '').trim())
    .slice(0, max)
    .join('');
}
