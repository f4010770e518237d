import { eq } from 'drizzle-orm';
import { accounts, groups } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { AccountSettings, AccountSettingsInput } from '../../../shared/schemas/admin-accounts.ts';
import type { Db } from '../../db/client.ts';

/**
 * PUT /api/admin/accounts/:id/settings (docs/requirements/behaviour.md "Renewal", docs/requirements/errors.md): sets the account's
 * `is_suspended_from_basic_renewal` and `group_id`, and the chosen group's `is_billed_as_group`
 * (a flag of the group: it applies to every account of that group; left alone when the account
 * gets no group), and, when `renewal_due_on` is given, the renewal due date (that day, 00:00 UTC;
 * renewal opens 60 days before it: docs/renewals.md), in one transaction with the rows locked.
 * Writes: accounts row (flags, group, renewal_due_at), groups row, one audit_log row 'account.settings_updated' with the admin,
 * the account and the changed fields as { field: { from, to } } (none when nothing changed).
 * @throws HttpError 404 'The account could not be found.' / 'The group could not be found.'
 */
export async function updateAccountSettings(
  db: Db,
  id: number,
  input: AccountSettingsInput,
  adminId: number,
  ip: string,
): Promise<AccountSettings> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        suspended: accounts.isSuspendedFromBasicRenewal,
        groupId: accounts.groupId,
        renewalDueAt: accounts.renewalDueAt,
      })
      .from(accounts)
      .where(eq(accounts.id, id))
      .for('update');
    if (!before) throw notFound('The account');
    let group: AccountSettings['group'] = null;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (input.group_id !== null) {
      const [g] = await tx
        .select({ id: groups.id, label: groups.label, billed: groups.isBilledAsGroup })
        .from(groups)
        .where(eq(groups.id, input.group_id))
        .for('update');
      if (!g) throw notFound('The group');
      if (g.billed !== input.is_billed_as_group) {
        await tx.update(groups).set({ isBilledAsGroup: input.is_billed_as_group }).where(eq(groups.id, g.id));
        changes.group_is_billed_as_group = { from: g.billed, to: input.is_billed_as_group };
      }
      group = { id: g.id, label: g.label, is_billed_as_group: input.is_billed_as_group };
    }
    if (before.suspended !== input.is_suspended_from_basic_renewal) {
      changes.is_suspended_from_basic_renewal = { from: before.suspended, to: input.is_suspended_from_basic_renewal };
    }
    if (before.groupId !== input.group_id) changes.group_id = { from: before.groupId, to: input.group_id };
    if (changes.is_suspended_from_basic_renewal || changes.group_id) {
      await tx
        .update(accounts)
        .set({ isSuspendedFromBasicRenewal: input.is_suspended_from_basic_renewal, groupId: input.group_id })
        .where(eq(accounts.id, id));
    }
    const dueBefore = before.renewalDueAt ? before.renewalDueAt.toISOString().slice(0, 10) : null;
    if (input.renewal_due_on !== undefined && input.renewal_due_on !== dueBefore) {
      await tx
        .update(accounts)
        .set({ renewalDueAt: new Date(`${input.renewal_due_on}T00:00:00Z`) })
        .where(eq(accounts.id, id));
      changes.renewal_due_on = { from: dueBefore, to: input.renewal_due_on };
    }
    if (Object.keys(changes).length) {
      await recordAudit(tx, {
        actorUserId: adminId,
        accountId: id,
        action: 'account.settings_updated',
        details: { accountId: id, ...(group ? { groupId: group.id } : {}), changes },
        ip,
      });
    }
    return { is_suspended_from_basic_renewal: input.is_suspended_from_basic_renewal, group };
  });
}
