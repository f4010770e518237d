import { and, eq, isNotNull } from 'drizzle-orm';
import { valueFields } from '../../../shared/forms/rules.ts';
import {
  derivedAnswers,
  fiscalYearRecordWarning,
  prefillAnswers,
  type IrsFiscalYearRecord,
} from '../../../shared/rules/wizard-answers.ts';
import { accounts, irsReleases } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { LevelForWizard } from './find-application.ts';

/** The names of the value fields a level's wizard asks, on any page. */
export const askedFields = (level: Pick<LevelForWizard, 'pages'>): Set<string> =>
  new Set(level.pages.flatMap((p) => valueFields(p.schema).map((f) => f.name)));

/** An `account___ein` answer as 9 digits, or null. */
const einDigits = (v: unknown) =>
  typeof v === 'string' && /^\d{2}-?\d{7}$/.test(v.trim()) ? v.trim().replace('-', '') : null;

/**
 * The IRS record's fiscal year end for an EIN (BMF ACCT_PD), when the product holds one: an
 * account imported from the IRS data (source `irs-bmf`), whose fiscal_year_end_month is ACCT_PD
 * as loaded (docs/irs-data.md); a customer's own account keeps its own month, so it is not read.
 * Reads accounts and irs_releases. @returns null when the EIN is not in the IRS data held
 */
async function irsFiscalYearRecord(db: DbOrTx, ein: unknown): Promise<IrsFiscalYearRecord | null> {
  const digits = einDigits(ein);
  if (!digits) return null;
  const [row] = await db
    .select({ month: accounts.fiscalYearEndMonth, releasedOn: irsReleases.releasedOn })
    .from(accounts)
    .innerJoin(irsReleases, eq(irsReleases.id, accounts.bmfReleaseId))
    .where(and(eq(accounts.ein, digits), eq(accounts.source, 'irs-bmf'), isNotNull(accounts.fiscalYearEndMonth)));
  return row && row.month !== null ? { ein: digits, month: row.month, releasedOn: row.releasedOn } : null;
}

/**
 * The answers as saved after a page or on Submit (docs/wizard.md "Answers asked once"): blank
 * questions whose answer was already given are prefilled (the bylaws' name and school from the
 * group's), answers that follow from others are set (the bylaws' fiscal year, having applied),
 * and a blank fiscal year end is prefilled from the IRS record of the EIN answered. Reads accounts
 * and irs_releases; writes nothing.
 */
export async function completeAnswers(
  db: DbOrTx,
  level: Pick<LevelForWizard, 'pages'>,
  fields: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const asked = askedFields(level);
  const out = prefillAnswers(fields, asked);
  const blankFye = out.account___fiscal_year_end === undefined || out.account___fiscal_year_end === '';
  if (asked.has('account___fiscal_year_end') && blankFye) {
    const record = await irsFiscalYearRecord(db, out.account___ein);
    if (record) out.account___fiscal_year_end = String(record.month);
  }
  return derivedAnswers(out, asked);
}

/** What the wizard shows about the answers against the IRS data (docs/wizard.md "Fiscal year and the IRS record"). */
export interface WizardIrsCheck {
  /** The IRS record's fiscal year end for the EIN answered, so the form can warn as the month is chosen; null when not held. */
  irs_fiscal_year: IrsFiscalYearRecord | null;
  /** Warnings about the saved answers that do not stop the application: today, a fiscal year end that differs from that record. */
  notices: string[];
}

/** The IRS check of saved answers (WizardIrsCheck). Reads accounts and irs_releases; writes nothing. */
export async function wizardIrsCheck(db: DbOrTx, fields: Record<string, unknown>): Promise<WizardIrsCheck> {
  const record = await irsFiscalYearRecord(db, fields.account___ein);
  const warning = fiscalYearRecordWarning(fields.account___fiscal_year_end, record);
  return { irs_fiscal_year: record, notices: warning ? [warning] : [] };
}
