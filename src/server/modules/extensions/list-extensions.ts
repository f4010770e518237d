import { extendableForms, extendablePeriods, extensionRefusal } from '../../../shared/rules/extensions.ts';
import { extendedDueDate, periodDueDate } from '../../../shared/rules/standing.ts';
import { EXTENSION_MESSAGES, type FilingExtensionsView } from '../../../shared/schemas/extensions.ts';
import { extensionAccountOf, extensionRows } from './extension-rows.ts';
import type { Actor } from '../../actor.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * GET /api/account/extensions (docs/irs-standing.md "Extensions"): the account's recorded Form 8868
 * extensions, newest period first, and what the form may offer on `today`: the periods an extension
 * can be recorded for and has none yet (extendablePeriods: the organization's periods that have
 * ended, with an original due date at most three years ago), each with its original and extended
 * due date ('YYYY-MM-DD'); the returns it files (990-EZ and 990, or 990-PF); `refusal`, why none can
 * be recorded (Form 8868 does not apply, no fiscal year end), null when one can; `can_remove` for
 * staff. Reads only.
 * @param viewer whether the reader is staff (who see staff recorders' names and may remove)
 * @param today 'YYYY-MM-DD'
 * @throws HttpError 404 when the account does not exist
 */
export async function listExtensions(
  db: DbOrTx,
  accountId: number,
  viewer: Pick<Actor, 'isStaff'>,
  today: string,
): Promise<FilingExtensionsView> {
  const account = await extensionAccountOf(db, accountId);
  const extensions = await extensionRows(db, accountId, viewer.isStaff);
  const refusal =
    extensionRefusal(account.obligation) ?? (account.fye === null ? EXTENSION_MESSAGES.noFiscalYearEnd : null);
  const recorded = new Set(extensions.map((e) => e.period_end));
  const periods =
    refusal || account.fye === null
      ? []
      : extendablePeriods(account.fye, account.shortPeriod, today)
          .filter((p) => !recorded.has(p))
          .map((p) => ({ period_end: p, due: periodDueDate(p), extended_due: extendedDueDate(p) }));
  return {
    today,
    extensions,
    refusal,
    return_forms: refusal ? [] : extendableForms(account.obligation),
    periods,
    can_remove: viewer.isStaff,
  };
}
