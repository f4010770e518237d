import { describe, expect, it } from 'vitest';
import {
  discountAvailability,
  DISCOUNT_CODE_FORMAT,
  reservationExpiry,
  RESERVATION_MINUTES,
  toDiscount,
} from './discount-row.ts';

const now = new Date('2026-05-01T12:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('toDiscount', () => {
  const row = {
    id: 3,
    code: 'FEES50',
    description: 'Half off',
    currencyValueCents: 0,
    isNewAccount: false,
    isRenewals: false,
    isUpgrades: false,
    isServiceFees: true,
  };
  it('maps a row to the field names of docs/requirements/entities.md "Discount" with cents and the multiplier as a fraction', () => {
    expect(toDiscount({ ...row, multiplier: 0.5 })).toEqual({
      id: 3,
      code: 'FEES50',
      description: 'Half off',
      currency_value_cents: 0,
      multiplier: 0.5,
      is_new_account: false,
      is_renewals: false,
      is_upgrades: false,
      is_service_fees: true,
    });
  });
  it('reads numeric text to its 6 decimals and anything unreadable as 0', () => {
    expect(toDiscount({ ...row, multiplier: '0.333333' as unknown as number }).multiplier).toBe(0.333333);
    expect(toDiscount({ ...row, multiplier: '1.000000' as unknown as number }).multiplier).toBe(1);
    expect(toDiscount({ ...row, multiplier: 'x' as unknown as number }).multiplier).toBe(0);
  });
});

describe('discountAvailability', () => {
  const open = { isActive: true, startsAt: null, expiresAt: null };
  it('is null for an active discount inside its dates', () => {
    expect(discountAvailability(open, now)).toBeNull();
    expect(discountAvailability({ ...open, startsAt: now, expiresAt: at(1) }, now)).toBeNull();
  });
  it('names why a discount cannot be reserved', () => {
    expect(discountAvailability({ ...open, isActive: false }, now)).toBe('inactive');
    expect(discountAvailability({ ...open, startsAt: at(1) }, now)).toBe('not_started');
    expect(discountAvailability({ ...open, expiresAt: now }, now)).toBe('expired');
    expect(discountAvailability({ ...open, expiresAt: at(-1) }, now)).toBe('expired');
  });
});

describe('reservationExpiry', () => {
  it('holds for 30 minutes, or until the discount expires if sooner', () => {
    expect(RESERVATION_MINUTES).toBe(30);
    expect(reservationExpiry(now, null)).toEqual(at(30 * 60_000));
    expect(reservationExpiry(now, at(60 * 60_000))).toEqual(at(30 * 60_000));
    expect(reservationExpiry(now, at(5 * 60_000))).toEqual(at(5 * 60_000));
  });
});

describe('DISCOUNT_CODE_FORMAT', () => {
  it('matches the stored code format: A-Z, 0-9, - and _, 1 to 64 characters', () => {
    for (const ok of ['RENEW25', 'A', 'SPRING-2026_X', 'X'.repeat(64)])
      expect(DISCOUNT_CODE_FORMAT.test(ok), ok).toBe(true);
    for (const bad of ['', 'renew25', 'TWO WORDS', 'ÜBER', 'X'.repeat(65), "A'B"])
      expect(DISCOUNT_CODE_FORMAT.test(bad), bad).toBe(false);
  });
});
