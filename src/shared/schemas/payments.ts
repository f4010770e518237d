// Longer than 400 lines: every payment form's and route's schema (card, bank account, PayPal, zero payment,
// discount codes) with the limits they share; one schema per payload serves the form, the route and the
// service (docs/payments.md).
import { z } from 'zod';
import { STATE_CODES } from '../lists/states.ts';
import { routingNumberError } from '../rules/aba.ts';
import { isDiscountRemoval, normalizeDiscountCode } from '../rules/billing.ts';
import { checkText, msg, optionalText, requiredChoice, requiredText, stripControl } from '../validation.ts';

/**
 * Billing forms and payment payloads (docs/requirements/product.md tool 14; docs/requirements/entities.md "Payment payloads"; docs/requirements/validation.md "Credit card",
 * "Bank"; docs/requirements/constants.md). The card and bank form schemas run in the browser only: their numbers go to the
 * card payment provider's tokenizer, never to our server (docs/requirements/platform.md §5.8). The server payloads carry
 * the tokenizer's opaque data instead and refuse card or bank numbers.
 */

/** A one-line value as a payload carries it (checkText): numbers as text, absent as ''. */
const asText = (label: string) => (v: unknown, ctx: z.RefinementCtx) =>
  typeof v === 'string' ? checkText(v, ctx, label) : typeof v === 'number' ? String(v) : (v ?? '');

// ---------------------------------------------------------------------------------------------
// Credit card form (browser only)

/** Field max lengths of docs/requirements/constants.md. */
export const CARD_NUMBER_MAX = 20;
export const ZIP_MAX = 10;
/** Expiry years run from the current year through this many years ahead (docs/requirements/constants.md). */
export const CARD_EXPIRY_YEARS_AHEAD = 10;

/** Expiry month values, '01'..'12', as the tokenizer takes them. */
export const EXPIRY_MONTHS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'] as const;

/**
 * The expiry years offered on `now` (docs/requirements/validation.md): the current year through 10 years ahead, 11 entries,
 * as 4-digit strings. The year is the local calendar year of `now` (the payer's browser).
 */
export function cardExpiryYears(now: Date): [string, ...string[]] {
  const first = now.getFullYear();
  return Array.from({ length: CARD_EXPIRY_YEARS_AHEAD + 1 }, (_, i) => String(first + i)) as [string, ...string[]];
}

/** Card number as typed -> digits: dashes and spaces removed (docs/requirements/validation.md "Dashes are stripped"). */
export function stripCardNumber(value: string): string {
  return stripControl(value).replace(/[\s-]/g, '');
}

const cardNumberField = (label = 'card number') =>
  z.preprocess(
    (v) => (typeof v === 'string' ? stripCardNumber(v) : typeof v === 'number' ? String(v) : (v ?? '')),
    z
      .string({ error: msg.required(label) })
      .min(1, msg.required(label))
      .max(CARD_NUMBER_MAX, msg.max(label, CARD_NUMBER_MAX))
      .regex(/^\d*$/, msg.format(label)),
  );

/** '1', 1 and '01' all read as '01'. */
const asMonth = (v: unknown, ctx: z.RefinementCtx) => {
  const s = asText('month')(v, ctx);
  return typeof s === 'string' && /^\d$/.test(s) ? `0${s}` : s;
};

/** The card holder's billing address (docs/requirements/validation.md "Credit card"), in the form and in the payment payload. */
const billingAddress = {
  name: requiredText({ label: 'name on card' }),
  address: requiredText({ label: 'address' }),
  city: requiredText({ label: 'city' }),
  state: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), requiredChoice('state', STATE_CODES)),
  zip: requiredText({ label: 'zip', max: ZIP_MAX }),
  phone: optionalText({ label: 'phone', max: 40 }),
};

/**
 * The credit card form of docs/requirements/validation.md for a payer on `now` (a factory so the expiry years are
 * deterministic in tests). Required: cardNumber, expMonth, expYear, cardCode, name, address, city,
 * state, zip, each with 'The {field} field is required.' (labels: card number, month, year,
 * card code, name on card, address, city, state, zip); phone is optional. The card number loses its dashes
 * and spaces and holds at most 20 digits; zip at most 10 characters; the card code is 3 or 4 digits
 * (3 on the back of the card, 4 on the front of some cards); the expiry month reads as '01'..'12' and
 * the year as 'YYYY' from this year through 10 years ahead.
 */
export function cardFormSchema(now: Date = new Date()) {
  return z.object({
    cardNumber: cardNumberField(),
    expMonth: z.preprocess(asMonth, requiredChoice('month', EXPIRY_MONTHS)),
    expYear: requiredChoice('year', cardExpiryYears(now)),
    cardCode: requiredText({ label: 'card code', max: 4 }).refine(
      (s) => s === '' || /^\d{3,4}$/.test(s),
      msg.format('card code'),
    ),
    ...billingAddress,
  });
}
export type CardFormInput = z.input<ReturnType<typeof cardFormSchema>>;
export type CardForm = z.output<ReturnType<typeof cardFormSchema>>;

// ---------------------------------------------------------------------------------------------
// Bank account form (browser only)

/** docs/requirements/validation.md account types, in display order. */
export const BANK_ACCOUNT_TYPES = ['checking', 'savings', 'businessChecking'] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];
export const BANK_ACCOUNT_TYPE_LABELS: Record<BankAccountType, string> = {
  checking: 'Personal checking',
  savings: 'Personal savings',
  businessChecking: 'Business checking',
};

/** Field max lengths of docs/requirements/validation.md "Bank" / docs/requirements/constants.md. */
export const BANK_LIMITS = {
  nameOnAccount: 255,
  accountNumber: 17,
  accountNumber_confirmation: 40,
  routingNumber: 9,
} as const;

export const BANK_MESSAGES = {
  mismatch: 'The account number fields must match.',
  sameAsRouting: 'The account number cannot be the same as the routing number.',
} as const;

/**
 * The bank account form of docs/requirements/validation.md. All five fields are required. The routing number must pass the
 * local ABA checksum (src/shared/rules/aba.ts; the public lookup follows in the browser). The
 * confirmation must equal the account number ('The account number fields must match.', shown under
 * accountNumber_confirmation) and the routing number must differ from the account number ('The
 * account number cannot be the same as the routing number.', shown under routingNumber).
 */
export const bankFormSchema = z
  .object({
    nameOnAccount: requiredText({ label: 'name on account', max: BANK_LIMITS.nameOnAccount }),
    accountType: requiredChoice('account type', BANK_ACCOUNT_TYPES),
    accountNumber: requiredText({ label: 'account number', max: BANK_LIMITS.accountNumber }),
    accountNumber_confirmation: requiredText({
      label: 'account number confirmation',
      max: BANK_LIMITS.accountNumber_confirmation,
    }),
    routingNumber: requiredText({ label: 'routing number', max: BANK_LIMITS.routingNumber }).superRefine((s, ctx) => {
      // Empty and too long already have their message.
      if (s === '' || s.length > BANK_LIMITS.routingNumber) return;
      const error = routingNumberError(s);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
  })
  .superRefine((v, ctx) => {
    const account = typeof v.accountNumber === 'string' ? v.accountNumber : '';
    const confirmation = typeof v.accountNumber_confirmation === 'string' ? v.accountNumber_confirmation : '';
    const routing = typeof v.routingNumber === 'string' ? v.routingNumber : '';
    if (account !== '' && confirmation !== '' && account !== confirmation) {
      ctx.addIssue({ code: 'custom', path: ['accountNumber_confirmation'], message: BANK_MESSAGES.mismatch });
    }
    if (account !== '' && account === routing) {
      ctx.addIssue({ code: 'custom', path: ['routingNumber'], message: BANK_MESSAGES.sameAsRouting });
    }
  });
export type BankFormInput = z.input<typeof bankFormSchema>;
export type BankForm = z.output<typeof bankFormSchema>;

// ---------------------------------------------------------------------------------------------
// Discount code

/**
 * POST /app/discount/reserve body (docs/requirements/calls.md): the code, trimmed and upper-cased. An empty code is
 * "remove the discount" on the client (docs/requirements/validation.md) and never reaches this route.
 */
export const discountReserveSchema = z.object({
  code: z.preprocess(
    (v, ctx) =>
      normalizeDiscountCode(typeof v === 'number' ? String(v) : typeof v === 'string' ? checkText(v, ctx, 'code') : v),
    z.string().min(1, msg.required('code')).max(255, msg.max('code', 255)),
  ),
});
export type DiscountReserveInput = z.infer<typeof discountReserveSchema>;

/**
 * POST /app/discount/reserve as the route takes it (docs/requirements/validation.md): an empty
 * code, or none, removes the discount (`isDiscountRemoval`) and reads as code ''; any other code
 * must pass {@link discountReserveSchema}, with its messages.
 */
export const discountReserveBodySchema = z
  .preprocess(
    (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {}),
    z.object({ code: z.unknown().optional() }),
  )
  .transform((body, ctx): DiscountReserveInput => {
    if (isDiscountRemoval(body.code)) return { code: '' };
    const parsed = discountReserveSchema.safeParse(body);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });

// ---------------------------------------------------------------------------------------------
// Server payment payloads (docs/requirements/entities.md "Payment payloads", docs/requirements/calls.md POST /app/payments/*)

export const PAYMENT_TYPES = ['credit_card', 'bank_account', 'paypal', 'zero_payment'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** docs/requirements/errors.md empty state, used when a payment names no invoice. */
export const NO_INVOICES_SELECTED = 'No invoices selected.';
/** Refusal of a payload carrying a card or bank number (docs/requirements/platform.md §5.8). */
export const NUMBERS_NOT_ACCEPTED = 'Card and bank numbers must not be sent to the server.';
/** At most this many invoices in one payment. */
export const MAX_INVOICES_PER_PAYMENT = 100;
/** Largest payment accepted, decimal dollars. */
export const MAX_PAYMENT_DOLLARS = 1_000_000;

const isWholeCents = (dollars: number) => Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;

/**
 * An amount in decimal dollars as payloads carry it (docs/requirements/platform.md §3): a number or numeric text with at
 * most 2 decimals, from 0 to 1,000,000. Stays in dollars; the server converts with
 * `dollarsToCents` and compares with its own recomputed total.
 */
export const dollarsField = (label = 'value') =>
  z.preprocess(
    (v, ctx) => {
      const s = typeof v === 'string' ? checkText(v, ctx, label) : v;
      if (s === '' || s === null || s === undefined) return undefined;
      return typeof s === 'string' ? (/^\d+(\.\d{1,2})?$/.test(s) ? Number(s) : NaN) : s;
    },
    z
      .number({ error: (iss) => (iss.input === undefined ? msg.required(label) : msg.format(label)) })
      .min(0, msg.between(label, 0, MAX_PAYMENT_DOLLARS))
      .max(MAX_PAYMENT_DOLLARS, msg.between(label, 0, MAX_PAYMENT_DOLLARS))
      .refine(isWholeCents, msg.format(label)),
  );

const positiveId = /^[1-9]\d{0,9}$/;
/** Ids are PostgreSQL integers: a larger number names no row and would fail the query. */
const MAX_ROW_ID = 2_147_483_647;
const asId = (v: unknown) => {
  const id =
    typeof v === 'number' && Number.isSafeInteger(v) && v > 0
      ? v
      : typeof v === 'string' && positiveId.test(v.trim())
        ? Number(v.trim())
        : NaN;
  return id <= MAX_ROW_ID ? id : NaN;
};

/**
 * Selected invoice ids (docs/requirements/entities.md `invoices`): an array of ids, or one comma-separated string
 * (query strings); numbers or numeric text. Repeats are dropped; at least one is needed
 * ('No invoices selected.'), at most 100.
 */
export const invoiceIdsField = z.preprocess(
  (v, ctx) => {
    const list =
      typeof v === 'string'
        ? checkText(v, ctx, 'invoices')
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '')
        : v === null || v === undefined
          ? []
          : Array.isArray(v)
            ? v
            : [v];
    return list.map(asId);
  },
  z
    .array(
      z
        .number({ error: msg.in('invoices') })
        .int()
        .positive({ error: msg.in('invoices') }),
      { error: NO_INVOICES_SELECTED },
    )
    .min(1, NO_INVOICES_SELECTED)
    .max(MAX_INVOICES_PER_PAYMENT, `No more than ${MAX_INVOICES_PER_PAYMENT} invoices can be paid at once.`)
    .transform((ids) => [...new Set(ids)]),
);

/** `discount_id`: null when absent, empty or 0; otherwise a positive id. */
export const discountIdField = z.preprocess(
  (v, ctx) =>
    v === null || v === undefined || v === '' || v === 0 || v === '0'
      ? null
      : asId(typeof v === 'string' ? checkText(v, ctx, 'discount id') : v),
  z
    .number({ error: msg.in('discount id') })
    .int()
    .positive()
    .nullable(),
);

/**
 * One key per payment attempt (docs/requirements/platform.md §5.8), e.g. crypto.randomUUID() made when the payer presses
 * Pay: a retry or double click sends the same key and is charged once.
 */
export const idempotencyKeyField = z.preprocess(
  asText('idempotency key'),
  z
    .string({ error: msg.required('idempotency key') })
    .min(1, msg.required('idempotency key'))
    .refine((s) => s === '' || /^[A-Za-z0-9_-]{16,100}$/.test(s), msg.format('idempotency key')),
);

/**
 * A field that must not carry a value: card and bank numbers go to the tokenizer only. Absent, null
 * or '' is accepted (and dropped); anything else is refused with `NUMBERS_NOT_ACCEPTED`.
 */
const neverSent = z
  .unknown()
  .superRefine((v, ctx) => {
    if (!(v === undefined || v === null || v === '')) ctx.addIssue({ code: 'custom', message: NUMBERS_NOT_ACCEPTED });
  })
  .transform(() => undefined)
  .optional();

const paymentBase = {
  value: dollarsField('value'),
  invoices: invoiceIdsField,
  discount_id: discountIdField,
  idempotency_key: idempotencyKeyField,
};

/** The tokenizer's opaque data (docs/requirements/calls.md: opaqueData dataDescriptor, dataValue). */
const opaqueData = {
  dataDescriptor: requiredText({ label: 'data descriptor', max: 255 }),
  dataValue: requiredText({ label: 'data value', max: 8192 }),
};

const typeField = <T extends PaymentType>(type: T) =>
  z.preprocess(
    (v, ctx) => (v === undefined || v === null || v === '' ? type : asText('type')(v, ctx)),
    z.literal(type, { error: msg.in('type') }),
  );

/**
 * POST /app/payments/credit (docs/requirements/entities.md "Credit card"): billing name and address, the opaque data,
 * value (decimal dollars), invoices, discount_id, idempotency_key, type=credit_card. cardNumber
 * and cardCode are refused when they carry a value; expMonth and expYear are dropped.
 */
export const creditCardPaymentSchema = z.object({
  ...billingAddress,
  ...opaqueData,
  ...paymentBase,
  type: typeField('credit_card'),
  cardNumber: neverSent,
  cardCode: neverSent,
});
export type CreditCardPaymentInput = z.input<typeof creditCardPaymentSchema>;
export type CreditCardPayment = z.output<typeof creditCardPaymentSchema>;

/**
 * POST /app/payments/bank (docs/requirements/entities.md "Bank"): nameOnAccount, accountType, the opaque data, value,
 * invoices, discount_id, idempotency_key, type=bank_account. accountNumber, its confirmation and
 * routingNumber are refused when they carry a value.
 */
export const bankPaymentSchema = z.object({
  nameOnAccount: requiredText({ label: 'name on account', max: BANK_LIMITS.nameOnAccount }),
  accountType: requiredChoice('account type', BANK_ACCOUNT_TYPES),
  ...opaqueData,
  ...paymentBase,
  type: typeField('bank_account'),
  accountNumber: neverSent,
  accountNumber_confirmation: neverSent,
  routingNumber: neverSent,
});
export type BankPaymentInput = z.input<typeof bankPaymentSchema>;
export type BankPayment = z.output<typeof bankPaymentSchema>;

/** POST /app/payments/paypal (docs/requirements/entities.md "Wallet"): tx_id, token, payer_id, value, invoices, discount_id, type=paypal. */
export const walletPaymentSchema = z.object({
  tx_id: requiredText({ label: 'transaction id' }),
  token: requiredText({ label: 'token' }),
  payer_id: requiredText({ label: 'payer id' }),
  ...paymentBase,
  // The PayPal session's payment row (found by tx_id) already carries the attempt's key.
  idempotency_key: z
    .unknown()
    .optional()
    .transform(() => undefined),
  type: typeField('paypal'),
});
/**
 * GET /app/payments/paypal/init query (docs/requirements/calls.md): invoices (comma-separated ids), value (decimal
 * dollars the payer saw), type=paypal, discount_id. No idempotency key: every init opens a new
 * PayPal session and cancels the account's earlier unfinished one; nothing is charged before the
 * payer approves and POST /app/payments/paypal continues it.
 */
export const walletInitSchema = z.object({
  ...paymentBase,
  idempotency_key: z
    .unknown()
    .optional()
    .transform(() => undefined),
  type: typeField('paypal'),
});
export type WalletInit = z.output<typeof walletInitSchema>;

export type WalletPaymentInput = z.input<typeof walletPaymentSchema>;
export type WalletPayment = z.output<typeof walletPaymentSchema>;

/**
 * POST /app/payments/zero-payment (docs/requirements/entities.md "Zero payment"): value 0, invoices, a discount_id, the
 * discount_total (decimal dollars, above 0), idempotency_key, type=zero_payment. The server still
 * recomputes the summary and settles only when `canSettleWithoutPayment` holds.
 */
export const zeroPaymentSchema = z.object({
  ...paymentBase,
  value: dollarsField('value').refine((v) => v === 0, 'The value field must be 0.'),
  discount_id: discountIdField.refine((v) => v !== null, msg.required('discount id')),
  discount_total: dollarsField('discount total').refine(
    (v) => v > 0,
    'The discount total field must be greater than 0.',
  ),
  type: typeField('zero_payment'),
});
export type ZeroPaymentInput = z.input<typeof zeroPaymentSchema>;
export type ZeroPayment = z.output<typeof zeroPaymentSchema>;
