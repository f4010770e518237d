/**
 * Answers the application wizard asks once (docs/wizard.md "Answers asked once", "A group waiting
 * for its IRS letter", "Fiscal year and the IRS record"). The server applies these after every
 * saved page and on Submit; the wizard shows the prefilled values.
 */
import { MONTHS } from '../lists/months.ts';
import { longDate } from './compliance-calendar.ts';
import { formatEin } from './formats.ts';

/** `account___has_501c` answers: a letter, none (and never applied), or applied and waiting for the letter. */
const LETTER_AWAITED = '2';

/**
 * Questions whose usual answer is another, earlier answer: [target, source]. The target is
 * prefilled while it is blank, and stays editable ("Usually the same as your organization name").
 */
const PREFILLED_FROM: readonly (readonly [string, string])[] = [
  ['bylaw___name', 'account___name'],
  ['bylaw___facility', 'account___school'],
];

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * The answers with blank targets of PREFILLED_FROM filled from their sources, when the level asks
 * the target (`asked`: the level's field names). Pure; returns a new object.
 */
export function prefillAnswers(fields: Record<string, unknown>, asked: ReadonlySet<string>): Record<string, unknown> {
  const out = { ...fields };
  for (const [target, source] of PREFILLED_FROM) {
    if (asked.has(target) && isBlank(out[target]) && !isBlank(out[source])) out[target] = out[source];
  }
  return out;
}

/**
 * Answers that follow from others and are therefore never asked:
 * - `bylaw___fiscal_year_end` (0-based month, docs/requirements/entities.md bylaw months) from `account___fiscal_year_end`
 *   (1-12) when the level writes bylaws (`asked` has `bylaw___name`): the bylaws must name the month
 *   the IRS has, the same fiscal year the group already gave;
 * - `account___has_requested_exemption` '1' when the group says it applied and awaits its letter.
 * Pure; returns a new object.
 */
export function derivedAnswers(fields: Record<string, unknown>, asked: ReadonlySet<string>): Record<string, unknown> {
  const out = { ...fields };
  const fye = Number(fields.account___fiscal_year_end);
  if (asked.has('bylaw___name') && Number.isInteger(fye) && fye >= 1 && fye <= 12)
    out.bylaw___fiscal_year_end = String(fye - 1);
  if (String(fields.account___has_501c ?? '') === LETTER_AWAITED) out.account___has_requested_exemption = '1';
  return out;
}

/** Whether the answers say the group applied to the IRS and waits for its determination letter. */
export const isLetterAwaited = (fields: Record<string, unknown>) =>
  String(fields.account___has_501c ?? '') === LETTER_AWAITED;

/** The IRS record's fiscal year end for an EIN, as the product holds it (BMF ACCT_PD). */
export interface IrsFiscalYearRecord {
  /** 9 digits. */
  ein: string;
  /** ACCT_PD: the month (1-12) the accounting period ends. */
  month: number;
  /** 'YYYY-MM-DD' of the BMF release it was read from. */
  releasedOn: string;
}

/**
 * The warning shown when the fiscal year answered differs from the IRS record (docs/wizard.md
 * "Fiscal year and the IRS record"), or null when they agree or either is unknown. Not a refusal:
 * the answer may be right and the IRS record out of date, or the group may be changing its year.
 * @param answered the `account___fiscal_year_end` answer (1-12, as text or number)
 */
export function fiscalYearRecordWarning(answered: unknown, record: IrsFiscalYearRecord | null): string | null {
  const month = Number(answered);
  if (!record || !Number.isInteger(month) || month < 1 || month > 12 || record.month < 1 || record.month > 12)
    return null;
  if (month === record.month) return null;
  const irs = MONTHS[record.month];
  const own = MONTHS[month];
  return (
    `The IRS data for EIN ${formatEin(record.ein)} (released ${longDate(record.releasedOn)}) shows your fiscal year ending in ${irs}, ` +
    `but you answered ${own}. Your returns are due by the year the IRS has on file, so the two must agree. ` +
    `If ${own} is a mistake, go back to the fiscal year question and choose ${irs}. ` +
    `If your group has changed its fiscal year, tell the IRS: file a Form 990-EZ or 990 for the short year marked "Change in Accounting Period" ` +
    '(a Form 990-N cannot make the change), or Form 1128 if the year was already changed in the last 10 years.'
  );
}
