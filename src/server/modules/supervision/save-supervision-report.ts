import { eq, sql } from 'drizzle-orm';
import { MONTH_NAMES } from '../../../shared/lists/months.ts';
import { addDays, fiscalYearEnd, longDate } from '../../../shared/rules/compliance-calendar.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { accounts, irsReleases, supervisionReports } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { SupervisionReportInput } from '../../../shared/schemas/supervision.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';

/**
 * Saves an account's supervision report and Form 990-N answers for one tax year (docs/supervision.md):
 * one row per account and tax year, a later save replaces the answers (the officer corrects them)
 * and records who saved and when. Beyond the schema's checks (field limits, gross receipts test,
 * type of organization) it checks what needs the account, each as a 422 on its field:
 * - `ein`: the EIN on file, when the account has one;
 * - `fiscal_year_end_month`: the month the product knows (accounts.fiscal_year_end_month, from the
 *   IRS data's ACCT_PD when the BMF was loaded, else the group's own data), when it knows one;
 * - `tax_year`: the fiscal year has ended on `today` (no 990-N before the year ends).
 * Money is stored as integer cents (gross_receipts_cents, expenses_cents) recomputed from the
 * parsed answers. Writes supervision_reports and an audit_log row ('supervision.report_saved') in
 * one transaction.
 * @param today 'YYYY-MM-DD'
 * @returns the tax year saved
 * @throws ValidationError as above
 */
export async function saveSupervisionReport(
  db: Db,
  accountId: number,
  input: SupervisionReportInput,
  actor: Pick<Actor, 'userId' | 'ip' | 'onBehalf'>,
  today: string,
): Promise<{ taxYear: number }> {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({ ein: accounts.ein, fye: accounts.fiscalYearEndMonth, bmfReleaseId: accounts.bmfReleaseId })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('update');
    if (account.ein && account.ein !== input.ein) {
      throw ValidationError.field('ein', `The EIN must be your organization's EIN on file, ${formatEin(account.ein)}.`);
    }
    const known = account.fye !== null && account.fye >= 1 && account.fye <= 12 ? account.fye : null;
    if (known !== null && known !== input.fiscal_year_end_month) {
      const [release] =
        account.bmfReleaseId !== null
          ? await tx
              .select({ releasedOn: irsReleases.releasedOn })
              .from(irsReleases)
              .where(eq(irsReleases.id, account.bmfReleaseId))
          : [];
      const source = release
        ? `the IRS data (ACCT_PD, released ${longDate(release.releasedOn)})`
        : "your organization's data here";
      throw ValidationError.field(
        'fiscal_year_end_month',
        `The fiscal year you entered ends in ${MONTH_NAMES[input.fiscal_year_end_month - 1]}, but ${source} says ${MONTH_NAMES[known - 1]}. ` +
          `The e-Postcard is filed for the fiscal year the IRS has on file: choose ${MONTH_NAMES[known - 1]}, or, if your accounting period changed, ` +
          'have it changed with the IRS and tell us before you file.',
      );
    }
    const end = fiscalYearEnd(input.fiscal_year_end_month, input.tax_year);
    if (end >= today) {
      throw ValidationError.field(
        'tax_year',
        `The fiscal year ending ${longDate(end)} has not ended yet: its e-Postcard can be filed from ${longDate(addDays(end, 1))}.`,
      );
    }
    const values = {
      accountId,
      taxYear: input.tax_year,
      answers: input as unknown as Record<string, unknown>,
      grossReceiptsCents: input.gross_receipts ?? 0,
      expensesCents: input.total_expenses ?? 0,
      submittedBy: actor.userId,
    };
    await tx
      .insert(supervisionReports)
      .values(values)
      .onConflictDoUpdate({
        target: [supervisionReports.accountId, supervisionReports.taxYear],
        set: {
          answers: values.answers,
          grossReceiptsCents: values.grossReceiptsCents,
          expensesCents: values.expensesCents,
          submittedBy: actor.userId,
          submittedAt: sql`now()`,
          updatedAt: sql`now()`,
        },
      });
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId,
      action: 'supervision.report_saved',
      ip: actor.ip,
      details: {
        taxYear: input.tax_year,
        grossReceiptsCents: values.grossReceiptsCents,
        expensesCents: values.expensesCents,
        onBehalf: actor.onBehalf,
      },
    });
    return { taxYear: input.tax_year };
  });
}
