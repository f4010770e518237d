import { stripControl } from '../validation.ts';

/**
 * Billing and renewal money rules (docs/requirements/product.md tool 14; docs/requirements/entities.md "Invoice", "Discount", "Renewal form payload";
 * docs/requirements/validation.md "Discounts and totals"; docs/requirements/constants.md "Tax"). Pure functions shared by the billing screen and the server,
 * which recomputes every total and discount from its own rows (docs/requirements/platform.md §5.8).
 *
 * Every amount here is an integer number of cents. Payloads carry decimal dollars (docs/requirements/platform.md §3):
 * convert at the edge with `dollarsToCents` / `centsToDollars`. Functions throw a RangeError when
 * given an amount that is not a whole number of cents, so dollars passed by mistake fail loudly.
 */

/** Order-detail (invoice line) types of this code base (src/server/db/schema.ts `invoice_lines.type`). */
export const LINE_TYPES = ['new_account', 'renewal', 'upgrade', 'incorporation', 'service_fee'] as const;

/** The four discount flags of docs/requirements/entities.md "Discount". */
export type DiscountFlag = 'is_new_account' | 'is_renewals' | 'is_upgrades' | 'is_service_fees';

/**
 * Which flag makes a line type eligible (docs/requirements/validation.md: "A discount applies only to invoice lines whose
 * type matches its flags"). 'incorporation' matches no flag, so no discount code ever reduces the
 * incorporation package; a line of a type not listed here is never eligible either.
 */
const DISCOUNT_FLAG_BY_LINE_TYPE: Readonly<Partial<Record<string, DiscountFlag>>> = {
  new_account: 'is_new_account',
  renewal: 'is_renewals',
  upgrade: 'is_upgrades',
  service_fee: 'is_service_fees',
};

/** Tax is fixed at 0 (docs/requirements/constants.md). */
export const TAX_CENTS = 0;

/**
 * A discount as the rules use it: docs/requirements/entities.md "Discount" (id, code, description, currency_value,
 * multiplier, the four flags) with the fixed value in integer cents.
 */
export interface Discount {
  id: number;
  /** Upper-case code, as normalised by `normalizeDiscountCode`. */
  code: string;
  description: string;
  /** docs/requirements/entities.md "Discount" `currency_value`: fixed amount off, integer cents; 0 for a multiplier discount. */
  currency_value_cents: number;
  /** docs/requirements/entities.md "Discount" `multiplier`: fraction of the eligible amount taken off (0.25 is 25 %); 0 for a fixed discount. */
  multiplier: number;
  is_new_account: boolean;
  is_renewals: boolean;
  is_upgrades: boolean;
  is_service_fees: boolean;
}

/**
 * The discount object as it travels (docs/requirements/entities.md "Discount", answer of POST /app/discount/reserve):
 * the same fields with `currency_value` in decimal dollars (docs/requirements/platform.md §3).
 */
export interface DiscountPayload extends Omit<Discount, 'currency_value_cents'> {
  /** Decimal dollars. */
  currency_value: number;
}

/** Discount -> payload (cents -> dollars). */
export function toDiscountPayload(discount: Discount): DiscountPayload {
  const { currency_value_cents, ...rest } = discount;
  return { ...rest, currency_value: centsToDollars(currency_value_cents) };
}

/**
 * Payload -> discount: dollars -> cents rounded to the nearest cent, the code normalised, numeric
 * text read as numbers (a database numeric may arrive as '10.00'), flags sent as 1/0 read as booleans.
 * A missing or unreadable value or multiplier counts as 0.
 */
export function fromDiscountPayload(payload: DiscountPayload): Discount {
  const flag = (v: unknown) => v === true || v === 1 || v === '1';
  return {
    id: payload.id,
    code: normalizeDiscountCode(payload.code),
    description: payload.description ?? '',
    currency_value_cents: dollarsToCents(Number(payload.currency_value) || 0),
    multiplier: Number(payload.multiplier) || 0,
    is_new_account: flag(payload.is_new_account),
    is_renewals: flag(payload.is_renewals),
    is_upgrades: flag(payload.is_upgrades),
    is_service_fees: flag(payload.is_service_fees),
  };
}

/**
 * 'fixed' when the discount has a fixed value (currency_value above 0), 'multiplier' otherwise.
 * A discount carrying both is treated as fixed: the multiplier is then ignored.
 */
export function discountKind(discount: Pick<Discount, 'currency_value_cents' | 'multiplier'>): 'fixed' | 'multiplier' {
  return discount.currency_value_cents > 0 ? 'fixed' : 'multiplier';
}

/**
 * Discount code as typed -> as stored and looked up: control characters removed, trimmed,
 * upper-cased (docs/requirements/validation.md: "The discount code input is uppercase"). ' spring25 ' -> 'SPRING25'.
 * Non-strings give ''. An empty result means "remove the discount" (see `isDiscountRemoval`).
 */
export function normalizeDiscountCode(code: unknown): string {
  return typeof code === 'string' ? stripControl(code).trim().toUpperCase() : '';
}

/** docs/requirements/validation.md: an empty code removes the discount. */
export function isDiscountRemoval(code: unknown): boolean {
  return normalizeDiscountCode(code) === '';
}

/** One order detail of an invoice (docs/requirements/entities.md "Invoice" order_details: label, type, value), in cents. */
interface BillingLine {
  type: string;
  /** Integer cents; may be negative for a credit line. */
  valueCents: number;
}

/** An unpaid invoice as the billing rules need it (docs/requirements/entities.md "Invoice"), in cents. */
export interface BillingInvoice {
  id: number;
  /** What is still owed, integer cents. */
  balanceCents: number;
  lines: readonly BillingLine[];
}

/** Does `discount` apply to a line of `type`? Only when the line type's flag is set on the discount. */
export function isLineEligible(discount: Pick<Discount, DiscountFlag>, type: string): boolean {
  const flag = DISCOUNT_FLAG_BY_LINE_TYPE[type];
  return flag !== undefined && discount[flag] === true;
}

/**
 * Eligible amount, integer cents: for each selected invoice, the sum of its lines whose type
 * matches the discount's flags, kept between 0 and the invoice's balance (a part already paid
 * cannot be discounted again); summed over the invoices. An invoice listed twice counts once.
 * @throws RangeError when a line value or balance is not an integer number of cents.
 */
export function eligibleCents(invoices: readonly BillingInvoice[], discount: Pick<Discount, DiscountFlag>): number {
  let total = 0;
  for (const invoice of uniqueInvoices(invoices)) {
    const balance = Math.max(0, assertCents(invoice.balanceCents, 'balanceCents'));
    let matching = 0;
    for (const line of invoice.lines) {
      assertCents(line.valueCents, 'valueCents');
      if (isLineEligible(discount, line.type)) matching += line.valueCents;
    }
    total += Math.min(balance, Math.max(0, matching));
  }
  return total;
}

/**
 * Amount before capping, integer cents: the fixed value, or the multiplier times the eligible
 * amount rounded to the nearest cent, half a cent rounding up (25 % of 1,001 cents = 250.25 -> 250;
 * 50 % of 1 cent = 0.5 -> 1). The multiplier is read to 6 decimal places and the product is
 * computed exactly in integers, so 0.29 × 100 cents is 29, not 28.999…
 * A negative or non-finite fixed value or multiplier counts as 0.
 */
export function nominalDiscountCents(
  discount: Pick<Discount, 'currency_value_cents' | 'multiplier'>,
  eligible: number,
): number {
  assertCents(eligible, 'eligible');
  if (discountKind(discount) === 'fixed')
    return Math.max(0, assertCents(discount.currency_value_cents, 'currency_value_cents'));
  return multiplyCents(Math.max(0, eligible), discount.multiplier);
}

/**
 * Discount amount, integer cents (docs/requirements/validation.md): a fixed value capped at the eligible amount, or the
 * multiplier × eligible amount (rounded as in `nominalDiscountCents`), also never above the
 * eligible amount (a multiplier above 1 takes off at most everything eligible). Never negative.
 */
export function discountCents(
  discount: Pick<Discount, 'currency_value_cents' | 'multiplier'>,
  eligible: number,
): number {
  return Math.min(nominalDiscountCents(discount, eligible), Math.max(0, eligible));
}

/** The billing screen's summary (docs/requirements/product.md tool 14 "a summary"); all integer cents. */
export interface BillingSummary {
  /** Sum of the selected invoices' balances. */
  subtotal: number;
  /** Part of the subtotal the discount applies to (`eligibleCents`). */
  eligible: number;
  /** Discount taken off (`discountCents`); 0 without a discount. */
  discount_total: number;
  /** Always 0 (docs/requirements/constants.md). */
  tax: number;
  /** subtotal − discount_total + tax, floored at 0: what the payer is charged (payload `value`). */
  total: number;
  /**
   * Part of the discount that is not used: discounts have no cash value and any excess is
   * forfeited (docs/requirements/validation.md). A $100 code on $60 of eligible lines forfeits $40.
   */
  forfeited: number;
}

/**
 * Summary of the selected invoices with an optional discount (docs/requirements/validation.md "Discounts and totals"):
 * billing total = subtotal − discount + tax (0), floored at 0. The server calls this with its own
 * invoice rows and discount to recompute what the client sent.
 * @throws RangeError on an amount that is not an integer number of cents.
 */
export function billingSummary(
  invoices: readonly BillingInvoice[],
  discount: Discount | null | undefined,
): BillingSummary {
  const selected = uniqueInvoices(invoices);
  const subtotal = selected.reduce((sum, inv) => sum + Math.max(0, assertCents(inv.balanceCents, 'balanceCents')), 0);
  const tax = TAX_CENTS;
  if (!discount)
    return { subtotal, eligible: 0, discount_total: 0, tax, total: billingTotalCents(subtotal, 0, tax), forfeited: 0 };
  const eligible = eligibleCents(selected, discount);
  const nominal = nominalDiscountCents(discount, eligible);
  const discount_total = Math.min(nominal, eligible);
  const total = billingTotalCents(subtotal, discount_total, tax);
  const used = subtotal + tax - total;
  return { subtotal, eligible, discount_total, tax, total, forfeited: forfeitedCents(nominal, used) };
}

/**
 * Billing total, integer cents (docs/requirements/validation.md): subtotal − discount + tax, floored at 0.
 * @throws RangeError on an amount that is not an integer number of cents.
 */
export function billingTotalCents(subtotal: number, discount: number, tax: number = TAX_CENTS): number {
  return Math.max(0, assertCents(subtotal, 'subtotal') - assertCents(discount, 'discount') + assertCents(tax, 'tax'));
}

/**
 * Forfeited excess, integer cents (docs/requirements/validation.md: no cash value, any excess is forfeited): the part of
 * the discount's nominal amount not used against the order; 0 when all of it was used.
 */
export function forfeitedCents(nominal: number, used: number): number {
  return Math.max(0, assertCents(nominal, 'nominal') - Math.max(0, assertCents(used, 'used')));
}

/**
 * docs/requirements/behaviour.md/docs/requirements/validation.md: the zero-payment settle form replaces the payment methods only when the discount is
 * above 0 and the total is 0. Amounts in integer cents.
 */
export function canSettleWithoutPayment(summary: Pick<BillingSummary, 'discount_total' | 'total'>): boolean {
  return summary.discount_total > 0 && summary.total === 0;
}

/** Totals of the renewal form, named as in docs/requirements/entities.md "Renewal form payload" `totals`; integer cents. */
export interface OrderTotals {
  subtotal: number;
  /** Discounts taken off (for example the early-bird price), at most the subtotal. */
  discount_total: number;
  /** Bonus balance used, at most what remains after the discounts; the rest stays on the account. */
  bonus_total: number;
  /** subtotal − discount_total − bonus_total, floored at 0. */
  order_total: number;
}

/**
 * Order totals (docs/requirements/validation.md: order total = subtotal minus discounts minus bonus). Inputs in integer
 * cents; negative discounts or bonus balances count as 0. Only as much bonus is used as the order
 * needs, so `order_total` is never below 0.
 * @throws RangeError on an amount that is not an integer number of cents.
 */
export function orderTotals(input: {
  subtotalCents: number;
  discountCents: number;
  bonusBalanceCents: number;
}): OrderTotals {
  const subtotal = Math.max(0, assertCents(input.subtotalCents, 'subtotalCents'));
  const discount_total = Math.min(subtotal, Math.max(0, assertCents(input.discountCents, 'discountCents')));
  const bonus_total = Math.min(
    subtotal - discount_total,
    Math.max(0, assertCents(input.bonusBalanceCents, 'bonusBalanceCents')),
  );
  return { subtotal, discount_total, bonus_total, order_total: Math.max(0, subtotal - discount_total - bonus_total) };
}

/** Integer cents -> decimal dollars for a payload (docs/requirements/platform.md §3): 1999 -> 19.99. */
export function centsToDollars(cents: number): number {
  return assertCents(cents, 'cents') / 100;
}

/** Integer cents -> decimal dollars as text with two decimals, for a payload or an input: 64500 -> '645.00'. */
export function centsToDollarsText(cents: number): string {
  return centsToDollars(cents).toFixed(2);
}

/**
 * Decimal dollars from a payload -> integer cents, rounded to the nearest cent (19.99 -> 1999;
 * 0.1 + 0.2 -> 30). Works from the decimal text so binary fractions never shift a cent.
 * @throws RangeError when `dollars` is not a finite number.
 */
export function dollarsToCents(dollars: number): number {
  if (typeof dollars !== 'number' || !Number.isFinite(dollars))
    throw new RangeError(`Not an amount of dollars: ${String(dollars)}`);
  const cents = Math.round(Number((Math.abs(dollars) * 100).toFixed(6)));
  return dollars < 0 && cents !== 0 ? -cents : cents;
}

/** Checks that `value` is a whole number of cents; returns it. */
function assertCents(value: number, name: string): number {
  if (!Number.isSafeInteger(value))
    throw new RangeError(`${name} must be an integer number of cents, got ${String(value)}`);
  return value;
}

/** cents × multiplier to the nearest cent, halves up, exactly: the multiplier is taken to 6 decimals. */
function multiplyCents(cents: number, multiplier: number): number {
  if (typeof multiplier !== 'number' || !Number.isFinite(multiplier) || multiplier <= 0) return 0;
  const micro = BigInt(Math.round(Number((multiplier * 1_000_000).toFixed(3))));
  return Number((BigInt(cents) * micro * 2n + 1_000_000n) / 2_000_000n);
}

function uniqueInvoices(invoices: readonly BillingInvoice[]): BillingInvoice[] {
  const seen = new Set<number>();
  return invoices.filter((inv) => (seen.has(inv.id) ? false : (seen.add(inv.id), true)));
}
