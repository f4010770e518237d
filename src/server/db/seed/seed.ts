import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { count, eq } from 'drizzle-orm';
import { STATES } from '../../../shared/lists/states.ts';
import { randomSecret } from '../../config.ts';
import { invoiceNumber } from '../../modules/invoices/create-invoice.ts';
import { checkIrsFile } from '../../modules/irs-data/irs-files.ts';
import { importBmf } from '../../modules/subordinates/import-bmf.ts';
import { hashPassword } from '../../passwords.ts';
import { vacuumAnalyze } from '../maintenance.ts';
import {
  accounts,
  banners,
  companies,
  groups,
  irsReleases,
  levels,
  renewals,
  stateRequirements,
  users,
} from '../schema.ts';
import { seedDemoDiscounts } from './demo-discounts.ts';
import { createInvoice } from './factories.ts';
import { COMPANY, DEMO_BANNERS, LEVELS, STATE_REQUIREMENTS, UPGRADES } from './reference-data.ts';
import { SUBMISSION_ALERT, WIZARD_SCHEMAS, WIZARD_TITLES, type WizardLevelSlug } from './wizard-schemas.ts';
import type { LevelWizard } from '../../../shared/forms/field-definition.ts';
import type { Db, DbOrTx } from '../client.ts';

/** The IRS release the GEN 5271 extract was taken from (April 2026; recorded as its 1st day). */
const GEN_5271_EXTRACT_RELEASED_ON = '2026-04-01';
export const GEN_5271_EXTRACT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'irs-eo-bmf-gen-5271.csv');
/** The provider's IRS group exemption whose subordinates the demo lists. */
export const DEMO_GEN = '5271';

export interface SeedCredentials {
  admin: { email: string; password: string; generated: boolean };
  demo: { email: string; password: string; generated: boolean };
}

/** A seeded level's wizard as stored in levels.schema. */
const wizardOf = (slug: WizardLevelSlug): LevelWizard => ({
  title: WIZARD_TITLES[slug],
  submission_alert: SUBMISSION_ALERT,
  pages: WIZARD_SCHEMAS[slug],
});

/** Writes company, levels with their wizards and upgrade targets, and the 51 state requirements. Idempotent. */
export async function seedReference(db: DbOrTx): Promise<void> {
  const [{ n }] = await db.select({ n: count() }).from(companies);
  if (n === 0) await db.insert(companies).values(COMPANY);
  await db
    .insert(levels)
    .values(LEVELS.map((l) => ({ ...l, renewalFeatures: [...l.renewalFeatures], schema: wizardOf(l.slug) })))
    .onConflictDoNothing();
  const all = await db.select({ id: levels.id, slug: levels.slug }).from(levels);
  const idOf = new Map(all.map((l) => [l.slug, l.id]));
  for (const [slug, u] of Object.entries(UPGRADES)) {
    await db
      .update(levels)
      .set({
        upgradeToId: idOf.get(u.to),
        upgradeCents: u.upgradeCents,
        upgradeDiscountCents: u.upgradeDiscountCents,
        incPackageCents: u.incPackageCents,
        incPackageDiscountCents: u.incPackageDiscountCents,
      })
      .where(eq(levels.slug, slug));
  }
  await db
    .insert(stateRequirements)
    .values(
      STATE_REQUIREMENTS.map(([code, maintain, aoi, notes]) => ({
        code,
        stateName: STATES[code],
        maintainEstimateCents: maintain * 100,
        aoiEstimateCents: aoi * 100,
        notes,
      })),
    )
    .onConflictDoNothing();
}

/**
 * Brings the seeded levels' wizards up to date with the questions in code (wizard-schemas.ts), so
 * a new question reaches installations seeded by an earlier version. Drafts keep their saved answers.
 * Writes: levels.schema of the seeded slugs whose wizard differs. @returns the slugs updated
 */
export async function refreshLevelWizards(db: Db): Promise<string[]> {
  const rows = await db.select({ slug: levels.slug, schema: levels.schema }).from(levels);
  const updated: string[] = [];
  for (const row of rows) {
    const level = LEVELS.find((l) => l.slug === row.slug);
    if (!level) continue;
    const wizard = wizardOf(level.slug);
    // jsonb keeps its own key order: compare values, not text.
    if (isDeepStrictEqual(row.schema, JSON.parse(JSON.stringify(wizard)))) continue;
    await db.update(levels).set({ schema: wizard }).where(eq(levels.slug, row.slug));
    updated.push(row.slug);
  }
  return updated;
}

/** true when no user exists yet: the first start of an installation. */
export async function isFirstStart(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(users);
  return n === 0;
}

/** true when at least one staff user (users.is_admin) exists. */
export async function hasStaffUser(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(users).where(eq(users.isAdmin, true));
  return n > 0;
}

/** Renewal price of the demo's renewal invoice when its level is missing: $149.00. */
const DEMO_RENEWAL_FALLBACK_CENTS = 14_900;
/** The demo's state filing service fee: $50.00. */
export const DEMO_SERVICE_FEE_CENTS = 5_000;

/**
 * The demo account's two unpaid invoices, so /app/payments has something to pay and every demo
 * discount code applies (docs/requirements/product.md tool 14; the line types of src/shared/rules/billing.ts): a renewal
 * (one 'renewal' line 'Annual renewal — {level}', which RENEW25 and WELCOME100 reduce) and a
 * service fee (one 'service_fee' line 'State filing service fee', $50.00, which FEES50 and
 * WELCOME100 reduce). The renewal costs the level's early-bird price, as the demo account's
 * renewal is due in 45 days (docs/requirements/behaviour.md "Renewal": the early-bird discount applies while the due date
 * is ahead), or its full price when that is not lower; $149.00 without a level.
 * The renewal invoice is recorded as a renewal without the upgrade (renewals row), so the renewal
 * form shows it waiting for payment and paying it moves the renewal date on.
 * Writes invoices, invoice_lines and renewals. Numbers are 'GS-' and the zero-padded id, like real invoices.
 * @returns the ids of the renewal and the service-fee invoice
 */
async function seedDemoInvoices(
  db: DbOrTx,
  accountId: number,
  level: { id: number; name: string; priceCents: number; priceDiscountCents: number } | undefined,
): Promise<{ renewalId: number; serviceFeeId: number }> {
  const number = invoiceNumber;
  const renewalCents = !level
    ? DEMO_RENEWAL_FALLBACK_CENTS
    : level.priceDiscountCents > 0 && level.priceDiscountCents < level.priceCents
      ? level.priceDiscountCents
      : level.priceCents;
  const renewalId = await createInvoice(db, {
    accountId,
    number,
    lines: [{ label: `Annual renewal — ${level?.name ?? 'membership'}`, type: 'renewal', cents: renewalCents }],
    publicNotes: 'Your yearly renewal: one more year of compliance help and reminders.',
  });
  // A renewal submitted without the upgrade: the renewal form shows it waiting for payment, and
  // paying it renews the account, as for a renewal made through the form.
  if (level) {
    await db.insert(renewals).values({
      accountId,
      invoiceId: renewalId,
      currentLevelId: level.id,
      newLevelId: level.id,
      isUpgradeSelected: false,
      isIncorporationSelected: false,
    });
  }
  const serviceFeeId = await createInvoice(db, {
    accountId,
    number,
    lines: [{ label: 'State filing service fee', type: 'service_fee', cents: DEMO_SERVICE_FEE_CENTS }],
    publicNotes: 'We file your state annual report for you.',
  });
  return { renewalId, serviceFeeId };
}

/**
 * Demo data for a first start: reference rows, banners, the demo discount codes, an admin, an
 * account holder with a demo account and its two unpaid invoices (seedDemoInvoices), and the 806 real subordinates of GEN 5271 from the shipped IRS extract. Passwords are
 * random unless given. Writes: every table named above, in one transaction (docs/requirements/platform.md §5.10): a first
 * start killed midway leaves no user behind, so the next start finds a new installation and seeds
 * it whole, instead of an admin whose password was never shown and an account without invoices.
 * @returns the sign-ins to print (passwords are not stored anywhere else)
 */
export async function seedDemo(
  db: Db,
  opts: { adminEmail?: string; adminPassword?: string; demoEmail?: string; demoPassword?: string } = {},
): Promise<SeedCredentials> {
  const credentials = await db.transaction((tx) => seedDemoRows(tx, opts));
  // VACUUM cannot run inside a transaction.
  await vacuumAnalyze(db, 'accounts');
  return credentials;
}

async function seedDemoRows(
  db: DbOrTx,
  opts: { adminEmail?: string; adminPassword?: string; demoEmail?: string; demoPassword?: string },
): Promise<SeedCredentials> {
  await seedReference(db);
  await db.insert(banners).values(DEMO_BANNERS.map((b) => ({ ...b })));
  await seedDemoDiscounts(db);
  const [group] = await db
    .insert(groups)
    .values({ label: 'GoodStanding national booster club group exemption', gen: DEMO_GEN })
    .onConflictDoNothing()
    .returning();
  // The extract's rows come from the IRS's April 2026 BMF release (docs/irs-data.md); the day of
  // the month is not known, so the release is recorded by its month (the 1st, never shown): no
  // return due later counts as missed.
  const extract = await checkIrsFile(GEN_5271_EXTRACT, 'bmf');
  const [release] = await db
    .insert(irsReleases)
    .values({
      dataset: 'bmf',
      fileName: path.basename(GEN_5271_EXTRACT),
      releasedOn: GEN_5271_EXTRACT_RELEASED_ON,
      releasedPrecision: 'month',
      rowCount: extract.rows,
      loadedCount: extract.rows,
      sha256: extract.sha256,
    })
    .returning({ id: irsReleases.id });
  await importBmf(db, GEN_5271_EXTRACT, { gen: DEMO_GEN, releaseId: release.id });
  if (group) await db.update(accounts).set({ groupId: group.id }).where(eq(accounts.gen, DEMO_GEN));

  const admin = {
    email: opts.adminEmail ?? 'admin@goodstanding.local',
    password: opts.adminPassword ?? randomSecret(12),
    generated: !opts.adminPassword,
  };
  const demo = {
    email: opts.demoEmail ?? 'demo@goodstanding.local',
    password: opts.demoPassword ?? randomSecret(12),
    generated: !opts.demoPassword,
  };
  const [maintain] = await db
    .select({
      id: levels.id,
      name: levels.name,
      priceCents: levels.priceCents,
      priceDiscountCents: levels.priceDiscountCents,
    })
    .from(levels)
    .where(eq(levels.slug, 'maintain'));
  const [account] = await db
    .insert(accounts)
    .values({
      name: 'Lincoln High School Athletic Boosters',
      legalName: 'Lincoln High School Athletic Boosters Inc',
      city: 'Cheyenne',
      state: 'WY',
      zip: '82001',
      street: '2200 Lincoln Way',
      levelId: maintain.id,
      fiscalYearEndMonth: 6,
      renewalDueAt: new Date(Date.now() + 45 * 86_400_000),
      searchText: 'lincoln high school athletic boosters cheyenne',
    })
    .returning({ id: accounts.id });
  await db.insert(users).values({
    email: admin.email,
    firstName: 'Avery',
    lastName: 'Admin',
    passwordHash: await hashPassword(admin.password),
    isAdmin: true,
  });
  const [holder] = await db
    .insert(users)
    .values({
      email: demo.email,
      firstName: 'Dana',
      lastName: 'Demo',
      passwordHash: await hashPassword(demo.password),
      accountId: account.id,
      isPrimary: true,
      phone: '(307) 555-0101',
    })
    .returning({ id: users.id });
  await db.update(accounts).set({ primaryUserId: holder.id }).where(eq(accounts.id, account.id));
  await seedDemoInvoices(db, account.id, maintain);
  return { admin, demo };
}
