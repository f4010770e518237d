import { must } from '../must.ts';
/**
 * The renewal form's rules (docs/requirements/product.md tool 13, docs/requirements/entities.md "Level", "Renewal form payload", docs/requirements/behaviour.md "Renewal", docs/requirements/validation.md
 * "Order total = subtotal minus discounts minus bonus", docs/requirements/constants.md "Renewal period", "Discount extension
 * days"). Pure, shared by the form and the server, which recomputes every total. Money in integer
 * cents. A level's `*_discount` price is its early-bird price (what is charged while the early-bird
 * discount applies), not an amount off; 0 means the item has no early-bird price (as when an
 * account is created).
 */

/** The upgrade a level offers (docs/requirements/entities.md Level `upgrade_to`), prices in cents. */
interface RenewalUpgrade {
  /** The level the account moves to. */
  id: number;
  upgradeCents: number;
  /** Early-bird price of the upgrade. */
  upgradeDiscountCents: number;
  incPackageCents: number;
  /** Early-bird price of the incorporation package. */
  incPackageDiscountCents: number;
}

/** The account's current level (docs/requirements/entities.md Level), prices in cents. */
export interface RenewalLevel {
  id: number;
  name: string;
  priceCents: number;
  /** Early-bird price of the renewal. */
  priceDiscountCents: number;
  upgradeTo: RenewalUpgrade | null;
}

/** What the renewal rules need of the account (docs/requirements/entities.md Account). */
export interface RenewalAccount {
  /** ISO 8601 instant, or null when the account has no renewal date yet. */
  renewalDueAt: string | null;
  bonusBalanceCents: number;
  isSuspendedFromBasicRenewal: boolean;
}

/** The payer's choices (docs/requirements/entities.md Renewal form payload). */
export interface RenewalChoice {
  isUpgradeSelected: boolean;
  isIncorporationSelected: boolean;
  newLevelId: number;
}

/** What the form may change: the upgrade toggle is locked on for a suspended account (docs/requirements/behaviour.md). */
export interface RenewalOptions {
  canUpgrade: boolean;
  isUpgradeLocked: boolean;
  canIncorporate: boolean;
}

/**
 * Which options the form offers (docs/requirements/behaviour.md "Renewal"): an upgrade only when the level has an upgrade
 * target; the incorporation package only with it; the upgrade locked on when the account is
 * suspended from basic renewal.
 */
export function renewalOptions(level: RenewalLevel, account: RenewalAccount): RenewalOptions {
  const canUpgrade = level.upgradeTo !== null;
  return { canUpgrade, isUpgradeLocked: canUpgrade && account.isSuspendedFromBasicRenewal, canIncorporate: canUpgrade };
}

/**
 * The form's first state (docs/renewals.md "What the form offers"): the renewal of the current
 * level alone. The paid add-ons (the upgrade, the incorporation package) start unticked, so a payer
 * only pays for what they chose; the one exception is an account suspended from the basic renewal,
 * which renews with the upgrade only, so its upgrade starts (and stays) ticked.
 * @param account the account, for the suspension; without it the upgrade starts unticked
 */
export function initialRenewalChoice(
  level: RenewalLevel,
  account?: Pick<RenewalAccount, 'isSuspendedFromBasicRenewal'>,
): RenewalChoice {
  const up = level.upgradeTo;
  if (up && account?.isSuspendedFromBasicRenewal)
    return { isUpgradeSelected: true, isIncorporationSelected: false, newLevelId: up.id };
  return { isUpgradeSelected: false, isIncorporationSelected: false, newLevelId: level.id };
}

/** Renewal opens this many days before the due date (docs/renewals.md "When renewal is offered"). */
export const RENEWAL_OPENS_DAYS_BEFORE = 60;

/**
 * The grace period: renewal stays open this many days after the due date, and no longer (the
 * early-bird extension days, when longer, keep it open as long as they last). Past it, an account
 * renews through staff (docs/renewals.md).
 */
export const RENEWAL_GRACE_DAYS = 30;

const DAY_MS = 86_400_000;

/** Whether renewal is offered now, and from when to when (ISO 8601 instants). */
export interface RenewalWindow {
  /** 'open': offered; 'not_yet': before the window opens; 'closed': the grace period is over. */
  state: 'open' | 'not_yet' | 'closed';
  /** When the window opens: the due date minus 60 days; null without a due date. */
  opensAt: string | null;
  /** When it closes: the due date plus the grace period; null without a due date. */
  closesAt: string | null;
}

/**
 * Whether renewal is offered on `now` (docs/renewals.md "When renewal is offered"): from
 * RENEWAL_OPENS_DAYS_BEFORE days before the due date until the grace period after it ends
 * (RENEWAL_GRACE_DAYS, or `extensionDays` when longer, so the early-bird prices never outlast the
 * window). An account without a due date may renew at any time. A year already paid for moves the
 * due date on, so a second renewal is not offered until 60 days before the next one.
 */
export function renewalWindow(renewalDueAt: string | null, now: Date, extensionDays = 0): RenewalWindow {
  if (!renewalDueAt) return { state: 'open', opensAt: null, closesAt: null };
  const due = Date.parse(renewalDueAt);
  if (Number.isNaN(due)) return { state: 'closed', opensAt: null, closesAt: null };
  const opens = due - RENEWAL_OPENS_DAYS_BEFORE * DAY_MS;
  const closes = due + Math.max(RENEWAL_GRACE_DAYS, extensionDays) * DAY_MS;
  const at = now.getTime();
  const state = at < opens ? 'not_yet' : at >= closes ? 'closed' : 'open';
  return { state, opensAt: new Date(opens).toISOString(), closesAt: new Date(closes).toISOString() };
}

/**
 * Turns the upgrade on or off (docs/requirements/behaviour.md): off clears the incorporation package and resets the new
 * level to the current one; a locked upgrade (or a level without target) does not change.
 */
export function setUpgrade(
  choice: RenewalChoice,
  on: boolean,
  level: RenewalLevel,
  account: RenewalAccount,
): RenewalChoice {
  const options = renewalOptions(level, account);
  if (!options.canUpgrade || (options.isUpgradeLocked && !on)) return choice;
  if (on)
    return { ...choice, isUpgradeSelected: true, newLevelId: must(level.upgradeTo, 'the level to upgrade to').id };
  return { isUpgradeSelected: false, isIncorporationSelected: false, newLevelId: level.id };
}

/** Turns the incorporation package on or off (docs/requirements/behaviour.md): on forces the upgrade on. */
export function setIncorporation(
  choice: RenewalChoice,
  on: boolean,
  level: RenewalLevel,
  account: RenewalAccount,
): RenewalChoice {
  if (!renewalOptions(level, account).canIncorporate) return choice;
  if (!on) return { ...choice, isIncorporationSelected: false };
  return { ...setUpgrade(choice, true, level, account), isIncorporationSelected: true };
}

/**
 * Whether the early-bird prices apply on `now` (docs/requirements/behaviour.md): while the renewal due date plus the
 * extension days (docs/requirements/constants.md, default 0) is still in the future. No due date: they apply.
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

/** docs/requirements/entities.md Renewal form payload `totals`, in cents, plus the lines they come from. */
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
 * The renewal's lines and totals (docs/requirements/validation.md "Order total = subtotal minus discounts minus bonus"):
 * the renewal of the current level, the upgrade and the incorporation package when selected, each
 * at its early-bird price while `isEarlyBird`; the account's bonus balance then pays what it can.
 * @throws RangeError when a price is not a non-negative integer number of cents
 */
export function renewalTotals(
  level: RenewalLevel,
  account: RenewalAccount,
  choice: RenewalChoice,
  now: Date,
  extensionDays = 0,
): RenewalTotals {
  const early = isEarlyBird(account.renewalDueAt, now, extensionDays);
  const line = (type: RenewalLine['type'], label: string, price: number, earlyPrice: number): RenewalLine => {
    cents(price);
    cents(earlyPrice);
    // An early-bird price above the full price (a data mistake) never raises the charge.
    return {
      type,
      label,
      priceCents: price,
      valueCents: early && earlyPrice > 0 ? Math.min(price, earlyPrice) : price,
    };
  };
  const lines = [line('renewal', `Annual renewal — ${level.name}`, level.priceCents, level.priceDiscountCents)];
  const up = level.upgradeTo;
  if (up && choice.isUpgradeSelected) {
    lines.push(line('upgrade', 'Upgrade', up.upgradeCents, up.upgradeDiscountCents));
    if (choice.isIncorporationSelected)
      lines.push(line('incorporation', 'Incorporation package', up.incPackageCents, up.incPackageDiscountCents));
  }
  const subtotal = lines.reduce((s, l) => s + l.priceCents, 0);
  const discount_total = lines.reduce((s, l) => s + (l.priceCents - l.valueCents), 0);
  const bonus_total = Math.min(Math.max(0, cents(account.bonusBalanceCents)), subtotal - discount_total);
  return {
    lines,
    subtotal,
    discount_total,
    bonus_total,
    order_total: Math.max(0, subtotal - discount_total - bonus_total),
  };
}

/** One invoice line as it is written (invoice_lines: label, type, value in cents; negative for a reduction). */
export interface PricedInvoiceLine {
  type: string;
  label: string;
  valueCents: number;
}

/** The label of the line that takes the early-bird reduction off an item. */
const EARLY_BIRD_LABEL = 'Early-bird discount';

/**
 * Invoice lines for items charged at `valueCents` whose list price is `priceCents`
 * (docs/renewals.md "Prices that agree"): each item at its list price, followed, when it is charged
 * less, by a named 'Early-bird discount' line taking the difference off, so the invoice shows the
 * same price as /pricing and says why it charges less. The reduction line carries its item's type,
 * so what a discount code may reduce (the sum of a type's lines) is the early-bird price, as before.
 */
export function pricedInvoiceLines(
  items: readonly { type: string; label: string; priceCents: number; valueCents: number }[],
): PricedInvoiceLine[] {
  const out: PricedInvoiceLine[] = [];
  for (const item of items) {
    out.push({ type: item.type, label: item.label, valueCents: cents(item.priceCents) });
    const off = item.priceCents - cents(item.valueCents);
    if (off > 0)
      out.push({
        type: item.type,
        label: items.length > 1 ? `${EARLY_BIRD_LABEL} (${item.label})` : EARLY_BIRD_LABEL,
        valueCents: -off,
      });
  }
  return out;
}

/**
 * What a new account's first invoice charges for its level (docs/renewals.md "Prices that agree"):
 * the early-bird price, since a new account's due date is a year ahead; the list price when the
 * level has no early-bird price (0) or one that is not lower.
 */
export function firstYearCents(level: Pick<RenewalLevel, 'priceCents' | 'priceDiscountCents'>): number {
  return level.priceDiscountCents > 0 && level.priceDiscountCents < level.priceCents
    ? level.priceDiscountCents
    : level.priceCents;
}

function cents(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`Not a non-negative integer number of cents: ${value}`);
  return value;
}
