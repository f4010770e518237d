import { and, eq } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { extendableForms, extensionRefusal, periodRefusal } from '../../../shared/rules/extensions.ts';
import {
  EXTENSION_MESSAGES,
  type FilingExtensionInput,
  type FilingExtensionRow,
} from '../../../shared/schemas/extensions.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { filingExtensions } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { extensionAccountOf, extensionRows } from './extension-rows.ts';
import type { FieldErrors } from '../../../shared/field-errors.ts';
import type { Actor } from '../../actor.ts';
import type { Db, DbOrTx } from '../../db/client.ts';

/** The extension already recorded for the period, if any. */
async function recordedFor(db: DbOrTx, accountId: number, period: string) {
  const [row] = await db
    .select({ extendedDue: filingExtensions.extendedDue })
    .from(filingExtensions)
    .where(and(eq(filingExtensions.accountId, accountId), eq(filingExtensions.periodEnd, period)))
    .limit(1);
  return row ?? null;
}

/**
 * Records that Form 8868 extended one of the account's returns (docs/irs-standing.md "Extensions";
 * Instructions for Form 8868: an automatic six months for Forms 990, 990-EZ and 990-PF; Rev. Proc.
 * 2014-11 §3: automatic revocation counts the extended due date). `input` has passed
 * filingExtensionSchema (filed by the original due date, the extended due date Form 8868 gives);
 * this adds the rules that need the account and `today`, each a 422 on its field: Form 8868 applies
 * to the return the organization owes (`return_form`: not a 990-N, a church, a group return ...; the
 * form it files), the period is one of its own that has ended, due at most three years ago
 * (`period_end`, periodRefusal), the filing date is not after `today` (`filed_on`), and no extension
 * is recorded for the period yet (`period_end`, also under the unique index when two arrive at once).
 * Writes filing_extensions (recorded_as 'staff' for staff, else 'account'; recorded_by the actor) and
 * an audit_log row 'filing_extension.recorded' with the values and `onBehalf`, in one transaction.
 * @param today 'YYYY-MM-DD'
 * @returns the recorded row as the list shows it
 * @throws HttpError 404 when the account does not exist; ValidationError 422
 */
export async function recordExtension(
  db: Db,
  accountId: number,
  input: FilingExtensionInput,
  actor: Pick<Actor, 'userId' | 'isStaff' | 'onBehalf' | 'ip'>,
  today: string,
): Promise<FilingExtensionRow> {
  const account = await extensionAccountOf(db, accountId);
  const errors: FieldErrors = {};
  const refuse = (field: keyof FilingExtensionInput, message: string) => {
    if (!errors[field]) errors[field] = [message];
  };
  const refusal = extensionRefusal(account.obligation);
  if (refusal) throw new ValidationError({ return_form: [refusal] });
  const forms = extendableForms(account.obligation);
  if (!forms.includes(input.return_form)) refuse('return_form', EXTENSION_MESSAGES.wrongForm(forms));
  if (account.fye === null) {
    refuse('period_end', EXTENSION_MESSAGES.noFiscalYearEnd);
  } else {
    const period = periodRefusal(input.period_end, account.fye, account.shortPeriod, today);
    if (period) refuse('period_end', period);
  }
  if (input.filed_on > today) refuse('filed_on', EXTENSION_MESSAGES.future);
  const taken = await recordedFor(db, accountId, input.period_end);
  if (taken) refuse('period_end', EXTENSION_MESSAGES.taken(input.period_end, taken.extendedDue));
  if (Object.keys(errors).length) throw new ValidationError(errors);

  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(filingExtensions)
        .values({
          accountId,
          periodEnd: input.period_end,
          form: '8868',
          returnForm: input.return_form,
          filedOn: input.filed_on,
          extendedDue: input.extended_due,
          recordedAs: actor.isStaff ? 'staff' : 'account',
          recordedBy: actor.userId,
        })
        .returning({ id: filingExtensions.id });
      await recordAudit(tx, {
        actorUserId: actor.userId,
        accountId,
        action: 'filing_extension.recorded',
        details: {
          extensionId: row.id,
          periodEnd: input.period_end,
          returnForm: input.return_form,
          filedOn: input.filed_on,
          extendedDue: input.extended_due,
          recordedAs: actor.isStaff ? 'staff' : 'account',
          onBehalf: actor.onBehalf,
        },
        ip: actor.ip,
      });
      return row.id;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const other = must(await recordedFor(db, accountId, input.period_end), 'the extension recorded at the same time');
    throw ValidationError.field('period_end', EXTENSION_MESSAGES.taken(input.period_end, other.extendedDue));
  }
  const [row] = await extensionRows(db, accountId, actor.isStaff, id);
  return must(row, `filing extension ${id}`);
}
