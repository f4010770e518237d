import { and, eq } from 'drizzle-orm';
import { REINSTATEMENT_ITEMS } from '../../../shared/rules/reinstatement.ts';
import { REINSTATEMENT_MESSAGES, type ReinstatementItemInput } from '../../../shared/schemas/reinstatement.ts';
import { reinstatementChecklist } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { accountRevocation } from './reinstatement-account.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';

/**
 * Ticks (`checked` true) or unticks an item of the account's reinstatement checklist
 * (docs/irs-standing.md "Reinstatement"). `input` has passed reinstatementItemSchema (a known item
 * key); the account must be revoked on `today` (a 422 on `item` otherwise). The tick belongs to the
 * account's current revocation (its list date), so a later revocation starts a clean list. Ticking
 * an item already ticked, or unticking one that is not, changes nothing and audits nothing.
 * Writes reinstatement_checklist (insert or delete) and an audit_log row
 * 'reinstatement_item.checked' / 'reinstatement_item.unchecked' with the item, the revocation date
 * and `onBehalf`, in one transaction.
 * @param today 'YYYY-MM-DD'
 * @returns the message to show
 * @throws HttpError 404 when the account does not exist; ValidationError 422
 */
export async function checkReinstatementItem(
  db: Db,
  accountId: number,
  input: ReinstatementItemInput,
  actor: Pick<Actor, 'userId' | 'ip' | 'onBehalf'>,
  today: string,
): Promise<string> {
  const revocation = await accountRevocation(db, accountId, today);
  if (!revocation) throw ValidationError.field('item', REINSTATEMENT_MESSAGES.notRevoked);
  const text = REINSTATEMENT_ITEMS[input.item];
  await db.transaction(async (tx) => {
    const key = {
      accountId,
      revokedOn: revocation.revokedOn,
      itemKey: input.item,
    };
    const changed = input.checked
      ? await tx
          .insert(reinstatementChecklist)
          .values({ ...key, checkedBy: actor.userId })
          .onConflictDoNothing()
          .returning({ key: reinstatementChecklist.itemKey })
      : await tx
          .delete(reinstatementChecklist)
          .where(
            and(
              eq(reinstatementChecklist.accountId, accountId),
              eq(reinstatementChecklist.revokedOn, revocation.revokedOn),
              eq(reinstatementChecklist.itemKey, input.item),
            ),
          )
          .returning({ key: reinstatementChecklist.itemKey });
    if (!changed.length) return;
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId,
      action: input.checked ? 'reinstatement_item.checked' : 'reinstatement_item.unchecked',
      details: { itemKey: input.item, revokedOn: revocation.revokedOn, onBehalf: actor.onBehalf },
      ip: actor.ip,
    });
  });
  return input.checked ? REINSTATEMENT_MESSAGES.checked(text) : REINSTATEMENT_MESSAGES.unchecked(text);
}
