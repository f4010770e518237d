import { and, eq, isNull } from 'drizzle-orm';
import { accounts, invoices, renewals } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

/** docs/requirements/constants.md "Renewal period": one year after the due date (after `now` when there is none). */
function nextRenewalDueAt(dueAt: Date | null, now: Date): Date {
  const next = new Date(dueAt ?? now);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

/**
 * When the renewal billed by `invoiceId` is paid in full (balance 0), applies it once (docs/requirements/product.md "Compliance calendar":
 * "moves renewal_due_at one year on when paid"): the account's renewal date moves one year on and
 * it takes the renewal's new level. Call inside the transaction that settled the invoice (the
 * payment steps and the zero-total renewal do). A no-op for other invoices, unpaid ones, and
 * renewals already applied.
 * Writes: renewals.applied_at, accounts.renewal_due_at and level_id.
 * @returns true when this call applied a renewal
 */
export async function applyPaidRenewal(tx: DbOrTx, invoiceId: number, now: Date = new Date()): Promise<boolean> {
  const [row] = await tx
    .select({
      id: renewals.id,
      accountId: renewals.accountId,
      newLevelId: renewals.newLevelId,
      balanceCents: invoices.balanceCents,
    })
    .from(renewals)
    .innerJoin(invoices, eq(invoices.id, renewals.invoiceId))
    .where(and(eq(renewals.invoiceId, invoiceId), isNull(renewals.appliedAt)));
  if (!row || row.balanceCents > 0) return false;
  const claimed = await tx
    .update(renewals)
    .set({ appliedAt: now })
    .where(and(eq(renewals.id, row.id), isNull(renewals.appliedAt)))
    .returning({ id: renewals.id });
  if (claimed.length === 0) return false;
  const [account] = await tx
    .select({ renewalDueAt: accounts.renewalDueAt })
    .from(accounts)
    .where(eq(accounts.id, row.accountId))
    .for('update');
  await tx
    .update(accounts)
    .set({ renewalDueAt: nextRenewalDueAt(account?.renewalDueAt ?? null, now), levelId: row.newLevelId })
    .where(eq(accounts.id, row.accountId));
  return true;
}
