import { and, eq, isNull } from 'drizzle-orm';
import { accounts, groups, invoices, levels, renewals } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { RenewalAccount, RenewalLevel } from '../../../shared/rules/renewal.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Level slugs whose renewal needs a copy of the latest 990-series return (docs/requirements/errors.md "Renewal": "for
 * accounts at two specific levels"): the levels for groups that already hold an exemption.
 */
export const LEVELS_NEEDING_990_COPY = ['maintain', 'greek-chapter'] as const;

/** The renewal action's address (docs/requirements/calls.md "POST renewal action URL (page-supplied)"). */
export const RENEWAL_ACTION = '/app/account/renewal';

/** What the renewal form shows and the server recomputes with (docs/requirements/product.md tool 13, docs/requirements/entities.md Account, Level). */
export interface RenewalContext {
  account: RenewalAccount & {
    id: number;
    name: string;
    levelSlug: string;
    isBilledAsGroup: boolean;
    groupLabel: string | null;
  };
  level: RenewalLevel & { slug: string; renewalFeatures: string[] };
  /** The upgrade target's name, when the level has one. */
  upgradeLevelName: string | null;
  /** The open renewal's invoice (docs/renewals.md "One open renewal"), if any. */
  openInvoice: { id: number; number: string; balanceCents: number } | null;
}

/**
 * Loads the account's renewal context: the account, its level and the level's upgrade target, and
 * the unpaid invoice of a renewal submitted earlier. `lock` takes the account row FOR UPDATE (call
 * inside the submitting transaction).
 * @throws HttpError 404 when the account does not exist or has no level
 */
export async function loadRenewalContext(
  db: DbOrTx,
  accountId: number,
  opts: { lock?: boolean } = {},
): Promise<RenewalContext> {
  const query = db
    .select({
      id: accounts.id,
      name: accounts.name,
      levelId: accounts.levelId,
      renewalDueAt: accounts.renewalDueAt,
      bonusBalanceCents: accounts.bonusBalanceCents,
      isSuspendedFromBasicRenewal: accounts.isSuspendedFromBasicRenewal,
      groupId: accounts.groupId,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  const [account] = opts.lock ? await query.for('update') : await query;
  if (!account || account.levelId === null) throw notFound('The account');
  const [level] = await db.select().from(levels).where(eq(levels.id, account.levelId));
  if (!level) throw notFound('The account');
  const [target] =
    level.upgradeToId === null
      ? []
      : await db.select({ id: levels.id, name: levels.name }).from(levels).where(eq(levels.id, level.upgradeToId));
  const [group] =
    account.groupId === null
      ? []
      : await db
          .select({ label: groups.label, isBilledAsGroup: groups.isBilledAsGroup })
          .from(groups)
          .where(eq(groups.id, account.groupId));
  // Open: not applied yet, which is what the unique index renewals_one_open_per_account counts.
  const [open] = await db
    .select({ id: invoices.id, number: invoices.number, balanceCents: invoices.balanceCents })
    .from(renewals)
    .innerJoin(invoices, eq(invoices.id, renewals.invoiceId))
    .where(and(eq(renewals.accountId, accountId), isNull(renewals.appliedAt)))
    .limit(1);
  return {
    account: {
      id: account.id,
      name: account.name,
      levelSlug: level.slug,
      renewalDueAt: account.renewalDueAt ? account.renewalDueAt.toISOString() : null,
      bonusBalanceCents: Math.max(0, account.bonusBalanceCents),
      isSuspendedFromBasicRenewal: account.isSuspendedFromBasicRenewal,
      isBilledAsGroup: group?.isBilledAsGroup ?? false,
      groupLabel: group?.label ?? null,
    },
    level: {
      id: level.id,
      slug: level.slug,
      name: level.name,
      priceCents: level.priceCents,
      priceDiscountCents: level.priceDiscountCents,
      renewalFeatures: level.renewalFeatures,
      upgradeTo: target
        ? {
            id: target.id,
            upgradeCents: level.upgradeCents,
            upgradeDiscountCents: level.upgradeDiscountCents,
            incPackageCents: level.incPackageCents,
            incPackageDiscountCents: level.incPackageDiscountCents,
          }
        : null,
    },
    upgradeLevelName: target?.name ?? null,
    openInvoice: open ?? null,
  };
}
