import { addDays, fiscalYearEnd, longDate } from '../../../shared/rules/compliance-calendar.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import type { SupervisionReportInput } from '../../../shared/schemas/supervision.ts';

const address = (line1: string, line2: string, city: string, state: string, zip: string) =>
  [line1, line2, `${city}, ${state} ${zip}`].filter(Boolean).join(', ');

/**
 * The text an officer copies into the IRS e-Postcard (Form 990-N) for one tax year: its 8 items in
 * the order the IRS system asks them, with the period the IRS names the year by (the year the
 * fiscal year BEGINS, Publication 5248) next to ours (the year it ends). Pure.
 * Requirement: docs/supervision.md "The e-Postcard summary".
 * @param report the saved answers (SupervisionReportInput: cents, EIN digits)
 * @param legalName the organization's legal name on file (the IRS fills it in from the EIN)
 * @returns plain text, one item per line
 */
export function epostcardSummary(report: SupervisionReportInput, legalName: string): string {
  const end = fiscalYearEnd(report.fiscal_year_end_month, report.tax_year);
  const begin = addDays(fiscalYearEnd(report.fiscal_year_end_month, report.tax_year - 1), 1);
  const otherNames = [report.other_name_1, report.other_name_2, report.other_name_3].filter(Boolean);
  return [
    `Form 990-N (e-Postcard): tax year ${longDate(begin)} to ${longDate(end)}`,
    `(the IRS e-Postcard calls it tax year ${begin.slice(0, 4)}, the year it begins)`,
    '',
    `1. EIN: ${formatEin(report.ein)}`,
    `2. Tax year: ${begin.slice(5, 7)}/${begin.slice(8)}/${begin.slice(0, 4)} to ${end.slice(5, 7)}/${end.slice(8)}/${end.slice(0, 4)}`,
    `3. Legal name: ${legalName}`,
    `   Mailing address: ${address(report.mailing_address_line1, report.mailing_address_line2, report.mailing_city, report.mailing_state, report.mailing_zip)}`,
    `4. Other names: ${otherNames.length ? otherNames.join('; ') : 'None'}`,
    `5. Principal officer: ${report.officer_name}`,
    `   Address: ${address(report.officer_address_line1, report.officer_address_line2, report.officer_city, report.officer_state, report.officer_zip)}`,
    `6. Website: ${report.website || 'None'}`,
    '7. Gross receipts normally $50,000 or less: Yes',
    `8. Organization has terminated: ${report.terminated === 'yes' ? 'Yes' : 'No'}`,
  ].join('\n');
}
