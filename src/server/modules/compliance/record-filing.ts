import { and, eq } from 'drizzle-orm';
import { fiscalYearEnd, parseIsoDate } from '../../../shared/rules/compliance-calendar.ts';
import { accounts, filings } from '../../db/schema.ts';
import { notFound, ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { FilingInput, FilingRow } from '../../../shared/schemas/compliance.ts';
import type { Db } from '../../db/client.ts';

/**
 * An admin records that an account filed its annual IRS return for a tax year (docs/requirements/product.md "Compliance calendar"). Rules
 * (422 on the field): `filed_on` not after `today`; `tax_year` not after the year of `filed_on`,
 * and, when the account's fiscal year end is known, `filed_on` after that fiscal year ended; one
 * filing per account and tax year. Writes filings and an audit_log row
 * ('compliance.filing_recorded', the admin and the account).
 * @throws HttpError 404 when the account does not exist or is an IRS subordinate; ValidationError
 */
export async function recordFiling(
  db: Db,
  accountId: number,
  input: FilingInput,
  actor: { userId: number; ip: string },
  today: string,
): Promise<FilingRow> {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({ id: accounts.id, fye: accounts.fiscalYearEndMonth, source: accounts.source })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('update');
    if (!account || account.source === 'irs-bmf') throw notFound('The account');
    if (input.filed_on > today) throw ValidationError.field('filed_on', 'The filed on date must not be in the future.');
    if (input.tax_year > parseIsoDate(input.filed_on).year)
      throw ValidationError.field('tax_year', 'The tax year must not be after the year it was filed in.');
    const fye = account.fye;
    if (fye !== null && fye >= 1 && fye <= 12) {
      const yearEnd = fiscalYearEnd(fye, input.tax_year);
      if (input.filed_on <= yearEnd)
        throw ValidationError.field('filed_on', `The filed on date must be after the fiscal year ended (${yearEnd}).`);
    }
    const [taken] = await tx
      .select({ id: filings.id })
      .from(filings)
      .where(and(eq(filings.accountId, accountId), eq(filings.taxYear, input.tax_year)));
    if (taken) throw ValidationError.field('tax_year', `A filing for tax year ${input.tax_year} is already recorded.`);
    const [row] = await tx
      .insert(filings)
      .values({
        accountId,
        taxYear: input.tax_year,
        form: input.form,
        filedOn: input.filed_on,
        recordedBy: actor.userId,
      })
      .returning({
        id: filings.id,
        tax_year: filings.taxYear,
        form: filings.form,
        filed_on: filings.filedOn,
        created_at: filings.createdAt,
      });
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId,
      action: 'compliance.filing_recorded',
      details: { filingId: row.id, taxYear: input.tax_year, form: input.form, filedOn: input.filed_on },
      ip: actor.ip,
    });
    return row;
  });
}
