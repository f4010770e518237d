/**
 * Good standing of an organization as read from its IRS EO BMF record (DESIGN §7).
 * STATUS 01 is an unconditional exemption; 12, 25 and others mean the exemption is pending,
 * terminated or otherwise not in force. A group that has filed no return for more than three tax
 * years is at revocation risk (automatic revocation after three consecutive missed filings).
 */
export interface StandingInput {
  /** IRS STATUS code, two digits. */
  irsStatus: string | null;
  /** TAX_PERIOD of the latest return, 'YYYYMM', or null when none is on file. */
  taxPeriod: string | null;
  /** FILING_REQ_CD; '00' or '06' or '13' mean no annual return is required. */
  filingRequirement: string | null;
}

export type Standing = 'good' | 'at_risk' | 'not_exempt' | 'not_listed';

export const STANDING_LABELS: Record<Standing, string> = {
  good: 'In good standing',
  at_risk: 'Filing overdue',
  not_exempt: 'Not currently exempt',
  not_listed: 'Not yet on the IRS list',
};

const NO_RETURN_REQUIRED = new Set(['00', '06', '13', '14']);

/**
 * Classifies an organization's standing on `today`.
 * @returns 'not_listed' when there is no IRS record (a group still applying); 'not_exempt'
 *   unless the IRS status is 01; 'at_risk' when a return is required and the
 *   latest one on file ended more than 3 years (36 months) before `today`; 'good' otherwise.
 *   A status-01 record with no return on file yet is 'good' (new organizations).
 */
export function classifyStanding(input: StandingInput, today: Date): Standing {
  if (input.irsStatus === null || input.irsStatus === '') return 'not_listed';
  if (input.irsStatus !== '01') return 'not_exempt';
  if (!input.taxPeriod || NO_RETURN_REQUIRED.has(input.filingRequirement ?? '')) return 'good';
  const year = Number(input.taxPeriod.slice(0, 4));
  const month = Number(input.taxPeriod.slice(4, 6));
  if (!year || !month) return 'good';
  const monthsSince = (today.getUTCFullYear() - year) * 12 + (today.getUTCMonth() + 1 - month);
  return monthsSince > 36 ? 'at_risk' : 'good';
}

/** SUBSECTION code -> the section name shown on a profile, e.g. '03' -> '501(c)(3)'. */
export function subsectionLabel(code: string | null): string {
  if (!code) return '';
  const n = Number(code);
  return n > 0 ? `501(c)(${n})` : code;
}

/** DEDUCTIBILITY code -> whether gifts to the organization are tax deductible. */
export function isDeductible(code: string | null): boolean {
  return code === '1' || code === '4';
}
