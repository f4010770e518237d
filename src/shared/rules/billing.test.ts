import { describe, expect, it } from 'vitest';
import {
  billingSummary,
  billingTotalCents,
  canSettleWithoutPayment,
  centsToDollars,
  discountCents,
  discountKind,
  dollarsToCents,
  eligibleCents,
  forfeitedCents,
  fromDiscountPayload,
  isDiscountRemoval,
  isLineEligible,
  LINE_TYPES,
  nominalDiscountCents,
  normalizeDiscountCode,
  orderTotals,
  TAX_CENTS,
  toDiscountPayload,
  type BillingInvoice,
  type Discount,
} from './billing.ts';

const noFlags = { is_new_account: false, is_renewals: false, is_upgrades: false, is_service_fees: false };
const fixed = (cents: number, flags: Partial<Discount> = {}): Discount => ({
  id: 1,
  code: 'FIXED',
  description: '',
  currency_value_cents: cents,
  multiplier: 0,
  ...noFlags,
  ...flags,
});
const times = (multiplier: number, flags: Partial<Discount> = {}): Discount => ({
  id: 2,
  code: 'PCT',
  description: '',
  currency_value_cents: 0,
  multiplier,
  ...noFlags,
  ...flags,
});

/** Invoice 1: renewal $295 + service fee $25. Invoice 2: upgrade $250 + incorporation $200. */
const renewalInvoice: BillingInvoice = {
  id: 1,
  balanceCents: 32000,
  lines: [
    { type: 'renewal', valueCents: 29500 },
    { type: 'service_fee', valueCents: 2500 },
  ],
};
const upgradeInvoice: BillingInvoice = {
  id: 2,
  balanceCents: 45000,
  lines: [
    { type: 'upgrade', valueCents: 25000 },
    { type: 'incorporation', valueCents: 20000 },
  ],
};
const newAccountInvoice: BillingInvoice = {
  id: 3,
  balanceCents: 64500,
  lines: [{ type: 'new_account', valueCents: 64500 }],
};

describe('isLineEligible (docs/requirements/validation.md: lines whose type matches the flags)', () => {
  it('maps each flag to its line type', () => {
    expect(isLineEligible(fixed(1, { is_new_account: true }), 'new_account')).toBe(true);
    expect(isLineEligible(fixed(1, { is_renewals: true }), 'renewal')).toBe(true);
    expect(isLineEligible(fixed(1, { is_upgrades: true }), 'upgrade')).toBe(true);
    expect(isLineEligible(fixed(1, { is_service_fees: true }), 'service_fee')).toBe(true);
  });
  it('refuses a line whose flag is off', () => {
    expect(isLineEligible(fixed(1, { is_renewals: true }), 'new_account')).toBe(false);
    expect(isLineEligible(fixed(1, { is_new_account: true }), 'renewal')).toBe(false);
  });
  it('never discounts the incorporation package or an unknown type, whatever the flags', () => {
    const all = fixed(1, { is_new_account: true, is_renewals: true, is_upgrades: true, is_service_fees: true });
    expect(isLineEligible(all, 'incorporation')).toBe(false);
    expect(isLineEligible(all, 'donation')).toBe(false);
    expect(isLineEligible(all, 'constructor')).toBe(false);
    expect(LINE_TYPES.filter((t) => isLineEligible(all, t))).toEqual([
      'new_account',
      'renewal',
      'upgrade',
      'service_fee',
    ]);
  });
});

describe('eligibleCents', () => {
  it('adds only the matching lines of the selected invoices', () => {
    expect(eligibleCents([renewalInvoice, upgradeInvoice], fixed(1, { is_renewals: true }))).toBe(29500);
    expect(eligibleCents([renewalInvoice, upgradeInvoice], fixed(1, { is_renewals: true, is_upgrades: true }))).toBe(
      54500,
    );
    expect(eligibleCents([renewalInvoice, upgradeInvoice], fixed(1, { is_service_fees: true }))).toBe(2500);
    expect(eligibleCents([renewalInvoice, upgradeInvoice], fixed(1, { is_new_account: true }))).toBe(0);
    expect(eligibleCents([], fixed(1, { is_renewals: true }))).toBe(0);
  });
  it('keeps each invoice between 0 and its balance (a paid part is not discounted again)', () => {
    const partlyPaid = { ...renewalInvoice, balanceCents: 10000 };
    expect(eligibleCents([partlyPaid], fixed(1, { is_renewals: true }))).toBe(10000);
    const credit = {
      id: 9,
      balanceCents: 5000,
      lines: [
        { type: 'renewal', valueCents: 5000 },
        { type: 'renewal', valueCents: -8000 },
      ],
    };
    expect(eligibleCents([credit], fixed(1, { is_renewals: true }))).toBe(0);
  });
  it('counts an invoice listed twice once', () => {
    expect(eligibleCents([renewalInvoice, renewalInvoice], fixed(1, { is_renewals: true }))).toBe(29500);
  });
  it('refuses amounts that are not whole cents', () => {
    expect(() => eligibleCents([{ id: 1, balanceCents: 295.5, lines: [] }], fixed(1))).toThrow(RangeError);
    expect(() =>
      eligibleCents([{ id: 1, balanceCents: 100, lines: [{ type: 'renewal', valueCents: 2.95 }] }], fixed(1)),
    ).toThrow(RangeError);
  });
});

describe('discountKind', () => {
  it('is fixed with a currency value, multiplier otherwise', () => {
    expect(discountKind(fixed(500))).toBe('fixed');
    expect(discountKind(times(0.25))).toBe('multiplier');
    expect(discountKind({ currency_value_cents: 500, multiplier: 0.5 })).toBe('fixed');
  });
});

describe('discountCents (docs/requirements/validation.md: fixed capped at eligible, multiplier × eligible)', () => {
  it('takes a fixed value off in full when the eligible amount covers it', () => {
    expect(discountCents(fixed(5000), 29500)).toBe(5000);
    expect(discountCents(fixed(29500), 29500)).toBe(29500);
  });
  it('caps a fixed value at the eligible amount', () => {
    expect(discountCents(fixed(10000), 6000)).toBe(6000);
    expect(discountCents(fixed(10000), 0)).toBe(0);
  });
  it('multiplies the eligible amount', () => {
    expect(discountCents(times(0.25), 29500)).toBe(7375);
    expect(discountCents(times(0.5), 64500)).toBe(32250);
    expect(discountCents(times(1), 64500)).toBe(64500);
    expect(discountCents(times(0), 64500)).toBe(0);
  });
  it('never takes off more than the eligible amount, even with a multiplier above 1', () => {
    expect(nominalDiscountCents(times(1.5), 1000)).toBe(1500);
    expect(discountCents(times(1.5), 1000)).toBe(1000);
  });
  it('rounds a multiplied discount to the nearest cent, half a cent up', () => {
    expect(discountCents(times(0.25), 1001)).toBe(250); // 250.25
    expect(discountCents(times(0.25), 1003)).toBe(251); // 250.75
    expect(discountCents(times(0.5), 1)).toBe(1); // 0.5
    expect(discountCents(times(0.5), 3)).toBe(2); // 1.5
    expect(discountCents(times(1 / 3), 100)).toBe(33); // 33.3333
    expect(discountCents(times(2 / 3), 100)).toBe(67); // 66.6667
  });
  it('is exact where binary fractions are not', () => {
    expect(0.29 * 100).not.toBe(29);
    expect(discountCents(times(0.29), 100)).toBe(29);
    expect(discountCents(times(0.07), 100)).toBe(7);
    expect(discountCents(times(0.15), 99999999)).toBe(15000000); // 14,999,999.85
  });
  it('treats negative or unreadable values as no discount', () => {
    expect(discountCents(fixed(-500), 1000)).toBe(0);
    expect(discountCents(times(-0.5), 1000)).toBe(0);
    expect(discountCents(times(Number.NaN), 1000)).toBe(0);
  });
  it('refuses a fixed value that is not whole cents', () => {
    expect(() => discountCents(fixed(10.5), 1000)).toThrow(RangeError);
  });
});

describe('billingSummary (docs/requirements/validation.md billing total)', () => {
  it('without a discount: subtotal of balances, tax 0, total = subtotal', () => {
    expect(billingSummary([renewalInvoice, upgradeInvoice], null)).toEqual({
      subtotal: 77000,
      eligible: 0,
      discount_total: 0,
      tax: 0,
      total: 77000,
      forfeited: 0,
    });
    expect(billingSummary([], undefined)).toEqual({
      subtotal: 0,
      eligible: 0,
      discount_total: 0,
      tax: 0,
      total: 0,
      forfeited: 0,
    });
  });
  it('applies a fixed discount only to the flagged lines', () => {
    // $100 off renewals: only the $295 renewal line counts, the $25 service fee and the upgrade invoice do not.
    expect(billingSummary([renewalInvoice, upgradeInvoice], fixed(10000, { is_renewals: true }))).toEqual({
      subtotal: 77000,
      eligible: 29500,
      discount_total: 10000,
      tax: 0,
      total: 67000,
      forfeited: 0,
    });
  });
  it('caps a fixed discount at the eligible lines and forfeits the excess', () => {
    // $100 off service fees with a $25 fee: $25 used, $75 forfeited (no cash value).
    expect(billingSummary([renewalInvoice], fixed(10000, { is_service_fees: true }))).toEqual({
      subtotal: 32000,
      eligible: 2500,
      discount_total: 2500,
      tax: 0,
      total: 29500,
      forfeited: 7500,
    });
  });
  it('forfeits the whole fixed value when no selected line matches', () => {
    expect(billingSummary([upgradeInvoice], fixed(5000, { is_new_account: true }))).toEqual({
      subtotal: 45000,
      eligible: 0,
      discount_total: 0,
      tax: 0,
      total: 45000,
      forfeited: 5000,
    });
  });
  it('multiplies the eligible lines', () => {
    // 25 % off upgrades: 25 % of $250 = $62.50; the $200 incorporation line is not discounted.
    expect(billingSummary([upgradeInvoice], times(0.25, { is_upgrades: true }))).toEqual({
      subtotal: 45000,
      eligible: 25000,
      discount_total: 6250,
      tax: 0,
      total: 38750,
      forfeited: 0,
    });
  });
  it('floors the total at 0 when the discount covers everything', () => {
    const summary = billingSummary([newAccountInvoice], fixed(100000, { is_new_account: true }));
    expect(summary).toEqual({
      subtotal: 64500,
      eligible: 64500,
      discount_total: 64500,
      tax: 0,
      total: 0,
      forfeited: 35500,
    });
    expect(billingSummary([newAccountInvoice], times(1, { is_new_account: true })).total).toBe(0);
    expect(billingSummary([newAccountInvoice], times(3, { is_new_account: true }))).toMatchObject({
      discount_total: 64500,
      total: 0,
      forfeited: 129000,
    });
  });
  it('counts an invoice sent twice once', () => {
    expect(billingSummary([renewalInvoice, renewalInvoice], fixed(1000, { is_renewals: true }))).toMatchObject({
      subtotal: 32000,
      eligible: 29500,
      total: 31000,
    });
  });
  it('never bills a negative balance', () => {
    expect(billingSummary([{ id: 4, balanceCents: -500, lines: [] }], null).total).toBe(0);
  });
});

describe('billingTotalCents and forfeitedCents', () => {
  it('is subtotal − discount + tax, floored at 0', () => {
    expect(TAX_CENTS).toBe(0);
    expect(billingTotalCents(10000, 2500)).toBe(7500);
    expect(billingTotalCents(10000, 2500, 0)).toBe(7500);
    expect(billingTotalCents(10000, 10000)).toBe(0);
    expect(billingTotalCents(10000, 15000)).toBe(0);
    expect(billingTotalCents(10000, 0, 800)).toBe(10800);
    expect(() => billingTotalCents(100.5, 0)).toThrow(RangeError);
  });
  it('forfeits what is not used, never a negative amount', () => {
    expect(forfeitedCents(10000, 6000)).toBe(4000);
    expect(forfeitedCents(10000, 10000)).toBe(0);
    expect(forfeitedCents(5000, 9000)).toBe(0);
    expect(forfeitedCents(5000, -100)).toBe(5000);
  });
});

describe('canSettleWithoutPayment (docs/requirements/validation.md)', () => {
  it('only when the discount is above 0 and the total is 0', () => {
    expect(canSettleWithoutPayment({ discount_total: 64500, total: 0 })).toBe(true);
    expect(canSettleWithoutPayment({ discount_total: 1, total: 0 })).toBe(true);
    expect(canSettleWithoutPayment({ discount_total: 0, total: 0 })).toBe(false);
    expect(canSettleWithoutPayment({ discount_total: 5000, total: 1 })).toBe(false);
    expect(canSettleWithoutPayment({ discount_total: 0, total: 64500 })).toBe(false);
  });
  it('follows the summary', () => {
    expect(canSettleWithoutPayment(billingSummary([newAccountInvoice], times(1, { is_new_account: true })))).toBe(true);
    expect(
      canSettleWithoutPayment(billingSummary([newAccountInvoice, upgradeInvoice], times(1, { is_new_account: true }))),
    ).toBe(false);
    expect(canSettleWithoutPayment(billingSummary([], fixed(5000, { is_new_account: true })))).toBe(false);
  });
});

describe('orderTotals (docs/requirements/entities.md renewal totals, docs/requirements/validation.md order total)', () => {
  it('is subtotal − discounts − bonus', () => {
    expect(orderTotals({ subtotalCents: 80000, discountCents: 10000, bonusBalanceCents: 5000 })).toEqual({
      subtotal: 80000,
      discount_total: 10000,
      bonus_total: 5000,
      order_total: 65000,
    });
    expect(orderTotals({ subtotalCents: 29500, discountCents: 0, bonusBalanceCents: 0 })).toEqual({
      subtotal: 29500,
      discount_total: 0,
      bonus_total: 0,
      order_total: 29500,
    });
  });
  it('uses only the bonus the order needs and floors at 0', () => {
    expect(orderTotals({ subtotalCents: 30000, discountCents: 5000, bonusBalanceCents: 40000 })).toEqual({
      subtotal: 30000,
      discount_total: 5000,
      bonus_total: 25000,
      order_total: 0,
    });
    expect(orderTotals({ subtotalCents: 30000, discountCents: 50000, bonusBalanceCents: 1000 })).toEqual({
      subtotal: 30000,
      discount_total: 30000,
      bonus_total: 0,
      order_total: 0,
    });
  });
  it('ignores negative discounts and bonus balances', () => {
    expect(orderTotals({ subtotalCents: 30000, discountCents: -100, bonusBalanceCents: -100 })).toEqual({
      subtotal: 30000,
      discount_total: 0,
      bonus_total: 0,
      order_total: 30000,
    });
  });
  it('refuses dollars passed as cents', () => {
    expect(() => orderTotals({ subtotalCents: 295.5, discountCents: 0, bonusBalanceCents: 0 })).toThrow(RangeError);
  });
});

describe('discount codes (docs/requirements/validation.md: upper case; empty removes)', () => {
  it('trims and upper-cases', () => {
    expect(normalizeDiscountCode(' spring25 ')).toBe('SPRING25');
    expect(normalizeDiscountCode('Early-Bird\n')).toBe('EARLY-BIRD');
    expect(normalizeDiscountCode('a\u0000b')).toBe('AB');
    expect(normalizeDiscountCode(undefined)).toBe('');
    expect(normalizeDiscountCode(25)).toBe('');
  });
  it('treats an empty or blank code as removal', () => {
    expect(isDiscountRemoval('')).toBe(true);
    expect(isDiscountRemoval('   ')).toBe(true);
    expect(isDiscountRemoval(null)).toBe(true);
    expect(isDiscountRemoval('X')).toBe(false);
  });
});

describe('discount payloads and money conversion (docs/requirements/platform.md §3: dollars on the wire)', () => {
  it('round-trips a discount through its payload', () => {
    const d = fixed(2550, { is_renewals: true, code: 'SAVE' });
    const payload = toDiscountPayload(d);
    expect(payload).toEqual({
      id: 1,
      code: 'SAVE',
      description: '',
      currency_value: 25.5,
      multiplier: 0,
      ...noFlags,
      is_renewals: true,
    });
    expect(fromDiscountPayload(payload)).toEqual(d);
  });
  it('reads numeric text, 1/0 flags and a lower-case code', () => {
    const raw = {
      id: 7,
      code: 'half ',
      description: 'Half off',
      currency_value: '0.00',
      multiplier: '0.5',
      is_new_account: 1,
      is_renewals: 0,
      is_upgrades: '1',
      is_service_fees: false,
    };
    expect(fromDiscountPayload(raw as never)).toEqual({
      id: 7,
      code: 'HALF',
      description: 'Half off',
      currency_value_cents: 0,
      multiplier: 0.5,
      is_new_account: true,
      is_renewals: false,
      is_upgrades: true,
      is_service_fees: false,
    });
  });
  it('converts cents and dollars exactly', () => {
    expect(centsToDollars(1999)).toBe(19.99);
    expect(centsToDollars(0)).toBe(0);
    expect(dollarsToCents(19.99)).toBe(1999);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(1.005)).toBe(101);
    expect(dollarsToCents(-12.5)).toBe(-1250);
    expect(dollarsToCents(0)).toBe(0);
    expect(() => dollarsToCents(Number.NaN)).toThrow(RangeError);
    expect(() => centsToDollars(1.5)).toThrow(RangeError);
  });
});
