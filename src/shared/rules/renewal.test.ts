import { describe, expect, it } from 'vitest';
import {
  firstYearCents,
  initialRenewalChoice,
  isEarlyBird,
  pricedInvoiceLines,
  RENEWAL_GRACE_DAYS,
  RENEWAL_OPENS_DAYS_BEFORE,
  renewalOptions,
  renewalTotals,
  renewalWindow,
  setIncorporation,
  setUpgrade,
  type RenewalAccount,
  type RenewalLevel,
} from './renewal.ts';

const FULL_SERVICE_ID = 3;
const MAINTAIN: RenewalLevel = {
  id: 2,
  name: 'Maintain an existing exemption',
  priceCents: 34_500,
  priceDiscountCents: 29_500,
  upgradeTo: {
    id: FULL_SERVICE_ID,
    upgradeCents: 65_000,
    upgradeDiscountCents: 60_000,
    incPackageCents: 25_000,
    incPackageDiscountCents: 25_000,
  },
};
const START_UP: RenewalLevel = {
  id: 1,
  name: 'Start-up',
  priceCents: 69_500,
  priceDiscountCents: 64_500,
  upgradeTo: {
    id: FULL_SERVICE_ID,
    upgradeCents: 30_000,
    upgradeDiscountCents: 25_000,
    incPackageCents: 25_000,
    incPackageDiscountCents: 20_000,
  },
};
const FULL_SERVICE: RenewalLevel = {
  id: FULL_SERVICE_ID,
  name: 'Full service',
  priceCents: 99_500,
  priceDiscountCents: 92_500,
  upgradeTo: null,
};

const NOW = new Date('2026-11-22T12:00:00Z');
const account = (over: Partial<RenewalAccount> = {}): RenewalAccount => ({
  renewalDueAt: '2027-01-15T00:00:00Z',
  bonusBalanceCents: 0,
  isSuspendedFromBasicRenewal: false,
  ...over,
});

describe('renewal choices (docs/requirements/behaviour.md "Renewal")', () => {
  it('starts with the renewal alone: the paid upgrade and incorporation package unticked', () => {
    for (const level of [START_UP, MAINTAIN, FULL_SERVICE]) {
      expect(initialRenewalChoice(level, account())).toEqual({
        isUpgradeSelected: false,
        isIncorporationSelected: false,
        newLevelId: level.id,
      });
    }
    expect(renewalOptions(FULL_SERVICE, account())).toEqual({
      canUpgrade: false,
      isUpgradeLocked: false,
      canIncorporate: false,
    });
  });

  it('starts with the upgrade ticked only when the account renews with the upgrade only', () => {
    expect(initialRenewalChoice(START_UP, account({ isSuspendedFromBasicRenewal: true }))).toEqual({
      isUpgradeSelected: true,
      isIncorporationSelected: false,
      newLevelId: FULL_SERVICE_ID,
    });
    expect(initialRenewalChoice(FULL_SERVICE, account({ isSuspendedFromBasicRenewal: true })).isUpgradeSelected).toBe(
      false,
    );
  });

  it('deselecting the upgrade clears incorporation and resets the new level', () => {
    const chosen = setIncorporation(initialRenewalChoice(START_UP), true, START_UP, account());
    expect(chosen).toEqual({ isUpgradeSelected: true, isIncorporationSelected: true, newLevelId: FULL_SERVICE_ID });
    expect(setUpgrade(chosen, false, START_UP, account())).toEqual({
      isUpgradeSelected: false,
      isIncorporationSelected: false,
      newLevelId: START_UP.id,
    });
  });

  it('selecting incorporation forces the upgrade on', () => {
    const plain = initialRenewalChoice(START_UP, account());
    expect(setIncorporation(plain, true, START_UP, account())).toEqual({
      isUpgradeSelected: true,
      isIncorporationSelected: true,
      newLevelId: FULL_SERVICE_ID,
    });
    expect(
      setIncorporation(initialRenewalChoice(FULL_SERVICE), true, FULL_SERVICE, account()).isIncorporationSelected,
    ).toBe(false);
  });

  it('locks the upgrade on for an account suspended from basic renewal', () => {
    const suspended = account({ isSuspendedFromBasicRenewal: true });
    expect(renewalOptions(START_UP, suspended).isUpgradeLocked).toBe(true);
    const chosen = initialRenewalChoice(START_UP, suspended);
    expect(setUpgrade(chosen, false, START_UP, suspended)).toEqual(chosen);
    expect(setIncorporation(chosen, false, START_UP, suspended).isUpgradeSelected).toBe(true);
  });
});

describe('when renewal is offered (docs/renewals.md)', () => {
  const due = '2027-01-15T00:00:00.000Z';
  const at = (iso: string) => new Date(iso);

  it('opens 60 days before the due date and closes when the grace period after it ends', () => {
    expect(RENEWAL_OPENS_DAYS_BEFORE).toBe(60);
    expect(RENEWAL_GRACE_DAYS).toBe(30);
    expect(renewalWindow(due, at('2026-11-16T00:00:00Z'))).toEqual({
      state: 'open',
      opensAt: '2026-11-16T00:00:00.000Z',
      closesAt: '2027-02-14T00:00:00.000Z',
    });
    expect(renewalWindow(due, at('2026-11-15T23:59:59Z')).state).toBe('not_yet');
    expect(renewalWindow(due, at('2027-01-15T00:00:00Z')).state).toBe('open');
    expect(renewalWindow(due, at('2027-02-13T23:59:59Z')).state).toBe('open');
    expect(renewalWindow(due, at('2027-02-14T00:00:00Z')).state).toBe('closed');
  });

  it('is not offered a year early: a renewal paid moves the due date a year on, out of the window', () => {
    expect(renewalWindow('2028-01-15T00:00:00Z', at('2026-12-01T00:00:00Z')).state).toBe('not_yet');
  });

  it('stays open while longer early-bird extension days last; any time without a due date', () => {
    expect(renewalWindow(due, at('2027-02-28T00:00:00Z'), 45).state).toBe('open');
    expect(renewalWindow(due, at('2027-02-28T00:00:00Z'), 10).state).toBe('closed');
    expect(renewalWindow(null, NOW)).toEqual({ state: 'open', opensAt: null, closesAt: null });
  });
});

describe('named early-bird lines (docs/renewals.md "Prices that agree")', () => {
  it('writes the list price and the early-bird reduction as its own line of the same type', () => {
    expect(
      pricedInvoiceLines([
        { type: 'new_account', label: 'Start-up (new account)', priceCents: 69_500, valueCents: 64_500 },
      ]),
    ).toEqual([
      { type: 'new_account', label: 'Start-up (new account)', valueCents: 69_500 },
      { type: 'new_account', label: 'Early-bird discount', valueCents: -5_000 },
    ]);
    const lines = pricedInvoiceLines([
      { type: 'renewal', label: 'Annual renewal — Start-up', priceCents: 69_500, valueCents: 64_500 },
      { type: 'incorporation', label: 'Incorporation package', priceCents: 25_000, valueCents: 25_000 },
    ]);
    expect(lines.map((l) => [l.label, l.valueCents])).toEqual([
      ['Annual renewal — Start-up', 69_500],
      ['Early-bird discount (Annual renewal — Start-up)', -5_000],
      ['Incorporation package', 25_000],
    ]);
  });

  it('charges a new account the early-bird price for its first year, the list price without one', () => {
    expect(firstYearCents(START_UP)).toBe(64_500);
    expect(firstYearCents({ priceCents: 69_500, priceDiscountCents: 0 })).toBe(69_500);
    expect(firstYearCents({ priceCents: 69_500, priceDiscountCents: 80_000 })).toBe(69_500);
  });
});

describe('early bird (docs/requirements/behaviour.md, docs/requirements/constants.md "Discount extension days")', () => {
  it('applies while the due date plus the extension days is in the future', () => {
    expect(isEarlyBird('2026-11-23T00:00:00Z', NOW)).toBe(true);
    expect(isEarlyBird('2026-11-22T12:00:00Z', NOW)).toBe(false);
    expect(isEarlyBird('2026-11-20T00:00:00Z', NOW)).toBe(false);
    expect(isEarlyBird('2026-11-20T00:00:00Z', NOW, 3)).toBe(true);
    expect(isEarlyBird('2026-11-20T00:00:00Z', NOW, 2)).toBe(false);
    expect(isEarlyBird(null, NOW)).toBe(true);
  });
});

describe('renewal totals (docs/requirements/entities.md payload totals, docs/requirements/validation.md order total)', () => {
  it('renewal only, early bird: the discount is the difference to the early-bird price', () => {
    const totals = renewalTotals(FULL_SERVICE, account(), initialRenewalChoice(FULL_SERVICE), NOW);
    expect(totals).toMatchObject({ subtotal: 99_500, discount_total: 7_000, bonus_total: 0, order_total: 92_500 });
    expect(totals.lines).toEqual([
      { type: 'renewal', label: 'Annual renewal — Full service', priceCents: 99_500, valueCents: 92_500 },
    ]);
  });

  it('with upgrade and incorporation, typed lines so discount code flags apply', () => {
    const choice = setIncorporation(initialRenewalChoice(START_UP), true, START_UP, account());
    const totals = renewalTotals(START_UP, account(), choice, NOW);
    expect(totals.lines.map((l) => [l.type, l.valueCents])).toEqual([
      ['renewal', 64_500],
      ['upgrade', 25_000],
      ['incorporation', 20_000],
    ]);
    expect(totals).toMatchObject({ subtotal: 124_500, discount_total: 15_000, order_total: 109_500 });
  });

  it('after the due date (and its extension) the full prices apply', () => {
    const late = account({ renewalDueAt: '2026-11-01T00:00:00Z' });
    const choice = setUpgrade(initialRenewalChoice(START_UP), true, START_UP, late);
    expect(renewalTotals(START_UP, late, choice, NOW)).toMatchObject({
      subtotal: 99_500,
      discount_total: 0,
      order_total: 99_500,
    });
    expect(renewalTotals(START_UP, late, choice, NOW, 30)).toMatchObject({
      subtotal: 99_500,
      discount_total: 10_000,
      order_total: 89_500,
    });
  });

  it('uses the bonus balance up to what is left after discounts, never below 0', () => {
    const some = renewalTotals(
      FULL_SERVICE,
      account({ bonusBalanceCents: 10_000 }),
      initialRenewalChoice(FULL_SERVICE),
      NOW,
    );
    expect(some).toMatchObject({ subtotal: 99_500, discount_total: 7_000, bonus_total: 10_000, order_total: 82_500 });
    const plenty = renewalTotals(
      FULL_SERVICE,
      account({ bonusBalanceCents: 500_000 }),
      initialRenewalChoice(FULL_SERVICE),
      NOW,
    );
    expect(plenty).toMatchObject({ bonus_total: 92_500, order_total: 0 });
  });

  it('reads an early-bird price of 0 as none, never as free', () => {
    const none: RenewalLevel = { ...FULL_SERVICE, priceDiscountCents: 0 };
    expect(renewalTotals(none, account(), initialRenewalChoice(none), NOW)).toMatchObject({
      subtotal: 99_500,
      discount_total: 0,
      order_total: 99_500,
    });
  });

  it('never raises a price when the early-bird price is set above it, and refuses non-cent amounts', () => {
    const odd: RenewalLevel = { ...FULL_SERVICE, priceDiscountCents: 120_000 };
    expect(renewalTotals(odd, account(), initialRenewalChoice(odd), NOW)).toMatchObject({
      discount_total: 0,
      order_total: 99_500,
    });
    expect(() =>
      renewalTotals({ ...FULL_SERVICE, priceCents: 10.5 }, account(), initialRenewalChoice(FULL_SERVICE), NOW),
    ).toThrow(RangeError);
  });
});
