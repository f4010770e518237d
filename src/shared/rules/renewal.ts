/**
 * The renewal form's rules (SPEC tool 13, §3 "Level", "Renewal form payload", §4 "Renewal", §5
 * "Order total = subtotal minus discounts minus bonus", §9 "Renewal period", "Discount extension
 * days"). Pure, shared by the form and the server, which recomputes every total. Money in integer
 * cents. A level's `*_discount` price is its early-bird price (what is charged while the early-bird
 * discount applies), not an amount off; 0 means the item has no early-bird price (as when an
 * account is created).
 */

/** The upgrade a level offers (SPEC §3 Level `upgrade_to`), prices in cents. */
export interface RenewalUpgrade {
  /** The level the account moves to. */
  id: number;
  upgradeCents: number;
  /** Early-bird price of the upgrade. */
  upgradeDiscountCents: number;
  incPackageCents: number;
  /** Early-bird price of the incorporation package. */
  incPackageDiscountCents: number;
}

/** The account's current level (SPEC §3 Level), prices in cents. */
export interface RenewalLevel {
  id: number;
  name: string;
  priceCents: number;
  /** Early-bird price of the renewal. */
  priceDiscountCents: number;
  upgradeTo: RenewalUpgrade | null;
}

/** What the renewal rules need of the account (SPEC §3 Account). */
export interface RenewalAccount {
  /** ISO 8601 instant, or null when the account has no renewal date yet. */
  renewalDueAt: string | null;
  bonusBalanceCents: number;
  isSuspendedFromBasicRenewal: boolean;
}

/** The payer's choices (SPEC §3 Renewal form payload). */
export interface RenewalChoice {
  isUpgradeSelected: boolean;
  isIncorporationSelected: boolean;
  newLevelId: number;
}

/** What the form may change: the upgrade toggle is locked on for a suspended account (SPEC §4). */
export interface RenewalOptions {
  canUpgrade: boolean;
  isUpgradeLocked: boolean;
  canIncorporate: boolean;
}

/**
 * Which options the form offers (SPEC §4 "Renewal"): an upgrade only when the level has an upgrade
 * target; the incorporation package only with it; the upgrade locked on when the account is
 * suspended from basic renewal.
 */
export function renewalOptions(level: RenewalLevel, account: RenewalAccount): RenewalOptions {
  const canUpgrade = level.upgradeTo !== null;
  return { canUpgrade, isUpgradeLocked: canUpgrade && account.isSuspendedFromBasicRenewal, canIncorporate: canUpgrade };
}

/**
 * The form's first state (SPEC §4 "Renewal"): with an upgrade target the upgrade is preselected
 * and the new level is the target, otherwise the new level is the current one; the incorporation
 * package is preselected when its price equals its early-bird price.
 */
export function initialRenewalChoice(level: RenewalLevel): RenewalChoice {
  const up = level.upgradeTo;
  if (!up) return { isUpgradeSelected: false, isIncorporationSelected: false, newLevelId: level.id };
  return { isUpgradeSelected: true, isIncorporationSelected: up.incPackageCents === up.incPackageDiscountCents, newLevelId: up.id };
}

/**
 * Turns the upgrade on or off (SPEC §4): off clears the incorporation package and resets the new
 * level to the current one; a locked upgrade (or a level without target) does not change.
 */
export function setUpgrade(choice: RenewalChoice, on: boolean, level: RenewalLevel, account: RenewalAccount): RenewalChoice {
  const options = renewalOptions(level, account);
  if (!options.canUpgrade || (options.isUpgradeLocked && !on)) return choice;
  if (on) return { ...choice, isUpgradeSelected: true, newLevelId: level.upgradeTo!.id };
  return { isUpgradeSelected: false, isIncorporationSelected: false, newLevelId: level.id };
}

/** Turns the incorporation package on or off (SPEC §4): on forces the upgrade on. */
export function setIncorporation(choice: RenewalChoice, on: boolean, level: RenewalLevel, account: RenewalAccount): RenewalChoice {
  if (!renewalOptions(level, account).canIncorporate) return choice;
  if (!on) return { ...choice, isIncorporationSelected: false };
  return { ...setUpgrade(choice, true, level, account), isIncorporationSelected: true };
}

/**
 * Whether the early-bird prices apply on `now` (SPEC §4): while the renewal due date plus the
 * extension days (SPEC §9, default 0) is still in the future. No due date: they apply.
 */
export function isEarlyBird(renewalDueAt: string | null, now: Date, extensionDays = 0): boolean {
  if (!renewalDueAt) return true;
  const due = Date.parse(renewalDueAt);
  if (Number.isNaN(due)) return false;
  return due + Math.max(0, extensionDays) * 86_400_000 > now.getTime();
}

/** One line of the renewal invoice; `type` makes discount code flags apply (src/shared/rules/billing.ts). */
export interface RenewalLine {
  type: 'renewal' | 'upgrade' | 'incorporation';
  label: string;
  /** Full price, cents. */
  priceCents: number;
  /** What is charged for it: the early-bird price while it applies, else the full price. */
  valueCents: number;
}

/** SPEC §3 Renewal form payload `totals`, in cents, plus the lines they come from. */
export interface RenewalTotals {
  lines: RenewalLine[];
  /** Sum of the full prices. */
  subtotal: number;
  /** Early-bird reductions. */
  discount_total: number;
  /** Bonus balance used: at most what is left after discounts. */
  bonus_total: number;
  /** subtotal − discount_total − bonus_total, never below 0. */
  order_total: number;
}

/**
 * The renewal's lines and totals (SPEC §5 "Order total = subtotal minus discounts minus bonus"):
 * the renewal of the current level, the upgrade and the incorporation package when selected, each
 * at its early-bird price while `isEarlyBird`; the account's bonus balance then pays what it can.
 * @throws RangeError when a price is not a non-negative integer number of cents
 */
export function renewalTotals(level: RenewalLevel, account: RenewalAccount, choice: RenewalChoice, now: Date, extensionDays = 0): RenewalTotals {
  const early = isEarlyBird(account.renewalDueAt, now, extensionDays);
  const line = (type: RenewalLine['type'], label: string, price: number, earlyPrice: number): RenewalLine => {
    cents(price);
    cents(earlyPrice);
    // An early-bird price above the full price (a data mistake) never raises the charge.
    return { type, label, priceCents: price, valueCents: early && earlyPrice > 0 ? Math.min(price, earlyPrice) : price };
  };
  const lines = [line('renewal', `Annual renewal — ${level.name}`, level.priceCents, level.priceDiscountCents)];
  const up = level.upgradeTo;
  if (up && choice.isUpgradeSelected) {
    lines.push(line('upgrade', 'Upgrade', up.upgradeCents, up.upgradeDiscountCents));
    if (choice.isIncorporationSelected) lines.push(line('incorporation', 'Incorporation package', up.incPackageCents, up.incPackageDiscountCents));
  }
  const subtotal = lines.reduce((s, l) => s + l.priceCents, 0);
  const discount_total = lines.reduce((s, l) => s + (l.priceCents - l.valueCents), 0);
  const bonus_total = Math.min(Math.max(0, cents(account.bonusBalanceCents)), subtotal - discount_total);
  return { lines, subtotal, discount_total, bonus_total, order_total: Math.max(0, subtotal - discount_total - bonus_total) };
}

function cents(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Not a non-negative integer number of cents: ${value}`);
  return value;
}
