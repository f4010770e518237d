import { and, eq } from 'drizzle-orm';
import { addDays, fiscalYearEnd, form990DueDate, longDate } from '../../../shared/rules/compliance-calendar.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import {
  centsToDollarsText,
  receiptsTestOf,
  type SupervisionFormValues,
  type SupervisionFormView,
  type SupervisionReportInput,
} from '../../../shared/schemas/supervision.ts';
import { accounts, groups, irsEpostcards, irsReleases, supervisionReports, users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { epostcardSummary } from './epostcard-summary.ts';
import { latestEndedTaxYear } from './tax-years.ts';
import type { DbOrTx } from '../../db/client.ts';

/** How many ended tax years the form offers besides those already reported. */
const YEARS_OFFERED = 4;

/** A saved report's answers as the form's text values (cents back to dollars). */
function valuesOf(a: SupervisionReportInput): SupervisionFormValues {
  const text = (v: string | number | null) => (v === null ? '' : String(v));
  return {
    tax_year: text(a.tax_year),
    fiscal_year_end_month: text(a.fiscal_year_end_month),
    ein: formatEin(a.ein),
    mailing_address_line1: a.mailing_address_line1,
    mailing_address_line2: a.mailing_address_line2,
    mailing_city: a.mailing_city,
    mailing_state: a.mailing_state,
    mailing_zip: a.mailing_zip,
    other_name_1: a.other_name_1,
    other_name_2: a.other_name_2,
    other_name_3: a.other_name_3,
    officer_name: a.officer_name,
    officer_address_line1: a.officer_address_line1,
    officer_address_line2: a.officer_address_line2,
    officer_city: a.officer_city,
    officer_state: a.officer_state,
    officer_zip: a.officer_zip,
    website: a.website,
    organization_type: a.organization_type,
    first_tax_year: text(a.first_tax_year),
    gross_receipts: centsToDollarsText(a.gross_receipts),
    prior_year_receipts: centsToDollarsText(a.prior_year_receipts),
    second_prior_year_receipts: centsToDollarsText(a.second_prior_year_receipts),
    first_year_pledges: centsToDollarsText(a.first_year_pledges),
    terminated: a.terminated,
    officers: a.officers,
    total_expenses: centsToDollarsText(a.total_expenses),
    activities: a.activities,
    purpose_confirmed: a.purpose_confirmed,
  };
}

/** The IRS address fields hold only letters, digits, spaces and hyphens: prefilled text is cleaned to fit. */
const irsSafe = (s: string) =>
  s
    .replace(/[^A-Za-z0-9 -]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 35);

/**
 * The supervision and Form 990-N form of one account for one tax year (docs/supervision.md): the
 * facts the product knows (legal name, EIN, fiscal year end month and whether it comes from the
 * IRS data's ACCT_PD, the GEN's central organization and uniform purpose statement), the form's
 * values (the saved report's, or prefilled from the account: its address, the primary user as the
 * principal officer, the receipts of earlier reports for the averaging years), the gross receipts
 * test of the saved report, the 990-N seen in the IRS data for the EIN and year ("filed", computed
 * on every read), and the e-Postcard summary once a report is saved. Reads only.
 * @param taxYear the calendar year the fiscal year ENDS in; default the latest one ended on `today`
 * @param today 'YYYY-MM-DD'
 * @throws ValidationError (tax_year) for a year whose fiscal year has not ended yet
 */
export async function getSupervisionForm(
  db: DbOrTx,
  accountId: number,
  taxYear: number | undefined,
  today: string,
): Promise<SupervisionFormView> {
  const [account] = await db
    .select({
      id: accounts.id,
      name: accounts.name,
      legalName: accounts.legalName,
      ein: accounts.ein,
      fye: accounts.fiscalYearEndMonth,
      bmfReleaseId: accounts.bmfReleaseId,
      street: accounts.street,
      city: accounts.city,
      state: accounts.state,
      zip: accounts.zip,
      gen: accounts.gen,
      groupId: accounts.groupId,
      primaryUserId: accounts.primaryUserId,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  const fye = account.fye !== null && account.fye >= 1 && account.fye <= 12 ? account.fye : null;
  const latest = latestEndedTaxYear(fye, today);
  const year = taxYear ?? latest;
  if (year > latest) {
    const end = fiscalYearEnd(fye ?? 12, year);
    throw ValidationError.field(
      'tax_year',
      `The fiscal year ending ${longDate(end)} has not ended yet: its e-Postcard can be filed from ${longDate(addDays(end, 1))}.`,
    );
  }
  const [group] =
    account.groupId !== null
      ? await db
          .select({ centralName: groups.centralName, gen: groups.gen, purpose: groups.uniformPurposeStatement })
          .from(groups)
          .where(eq(groups.id, account.groupId))
      : [];
  const reports = await db
    .select({
      taxYear: supervisionReports.taxYear,
      answers: supervisionReports.answers,
      gross: supervisionReports.grossReceiptsCents,
      expenses: supervisionReports.expensesCents,
      submittedAt: supervisionReports.submittedAt,
      submittedBy: users.email,
    })
    .from(supervisionReports)
    .leftJoin(users, eq(users.id, supervisionReports.submittedBy))
    .where(eq(supervisionReports.accountId, accountId));
  const saved = reports.find((r) => r.taxYear === year);
  const [filed] = account.ein
    ? await db
        .select({
          releasedOn: irsReleases.releasedOn,
          periodEnd: irsEpostcards.periodEnd,
          terminated: irsEpostcards.terminated,
        })
        .from(irsEpostcards)
        .innerJoin(irsReleases, eq(irsReleases.id, irsEpostcards.releaseId))
        .where(and(eq(irsEpostcards.ein, account.ein), eq(irsEpostcards.taxYear, year)))
    : [];
  const legalName = account.legalName || account.name;

  let values: SupervisionFormValues;
  if (saved) {
    values = valuesOf({ ...(saved.answers as unknown as SupervisionReportInput), tax_year: year });
  } else {
    const [primary] =
      account.primaryUserId !== null
        ? await db
            .select({ firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(eq(users.id, account.primaryUserId))
        : [];
    const earlier = (y: number) => reports.find((r) => r.taxYear === y);
    const anyEarlier = reports.filter((r) => r.taxYear < year).sort((a, b) => b.taxYear - a.taxYear)[0];
    const firstTaxYear = (anyEarlier?.answers as { first_tax_year?: number } | undefined)?.first_tax_year;
    values = {
      tax_year: String(year),
      fiscal_year_end_month: fye ? String(fye) : '',
      ein: formatEin(account.ein),
      mailing_address_line1: irsSafe(account.street),
      mailing_address_line2: '',
      mailing_city: irsSafe(account.city),
      mailing_state: account.state,
      mailing_zip: account.zip.trim(),
      other_name_1: account.name !== legalName ? irsSafe(account.name) : '',
      other_name_2: '',
      other_name_3: '',
      officer_name: primary ? irsSafe(`${primary.firstName} ${primary.lastName}`) : '',
      officer_address_line1: '',
      officer_address_line2: '',
      officer_city: '',
      officer_state: '',
      officer_zip: '',
      website: '',
      organization_type: 'other',
      first_tax_year: firstTaxYear ? String(firstTaxYear) : '',
      gross_receipts: '',
      prior_year_receipts: centsToDollarsText(earlier(year - 1)?.gross ?? null),
      second_prior_year_receipts: centsToDollarsText(earlier(year - 2)?.gross ?? null),
      first_year_pledges: '',
      terminated: 'no',
      officers: '',
      total_expenses: '',
      activities: '',
      purpose_confirmed: false,
    };
  }
  const answers = saved ? { ...(saved.answers as unknown as SupervisionReportInput), tax_year: year } : null;
  const test = answers ? receiptsTestOf(answers) : null;
  const offered = Array.from({ length: YEARS_OFFERED }, (_, i) => latest - i);
  return {
    account: {
      id: account.id,
      name: account.name,
      legal_name: legalName,
      ein: account.ein,
      fiscal_year_end_month: fye,
      fiscal_year_end_source: fye === null ? null : account.bmfReleaseId !== null ? 'irs' : 'account',
      central_name: group?.centralName ?? '',
      gen: group?.gen ?? account.gen,
      uniform_purpose_statement: group?.purpose ?? '',
    },
    tax_year: year,
    tax_years: [...new Set([...offered, ...reports.map((r) => r.taxYear), year])]
      .filter((y) => y <= latest)
      .sort((a, b) => b - a),
    period_end: fye ? fiscalYearEnd(fye, year) : null,
    due_date: fye ? form990DueDate(fye, year) : null,
    values,
    report: saved
      ? {
          submitted_at: new Date(saved.submittedAt).toISOString(),
          submitted_by: saved.submittedBy ?? null,
          gross_receipts_cents: saved.gross,
          expenses_cents: saved.expenses,
        }
      : null,
    receipts_test: test && test.passes !== null ? test : null,
    filed: filed ? { released_on: filed.releasedOn, period_end: filed.periodEnd, terminated: filed.terminated } : null,
    summary: answers ? epostcardSummary(answers, legalName) : null,
  };
}
