import { daysInMonth, longDate, parseIsoDate } from './compliance-calendar.ts';
import type { Obligation } from './standing.ts';

/**
 * The ways back for an organization whose exemption was automatically revoked (docs/irs-standing.md
 * "Reinstatement"; IRS Rev. Proc. 2014-11, 2014-3 I.R.B. 411, sections 4 to 7). Pure and
 * browser-safe: the server lists the paths and checks the items a group ticks with these rules, and
 * the standing card shows what they return. Dates are 'YYYY-MM-DD'.
 *
 * Until the IRS reinstates it the organization is not exempt: no text here calls it exempt, or gifts
 * to it deductible.
 */

/** The sections of Rev. Proc. 2014-11 that give a way back, in the order they are offered. */
export const REINSTATEMENT_SECTIONS = ['4', '5', '6', '7'] as const;
type ReinstatementSection = (typeof REINSTATEMENT_SECTIONS)[number];

/** Whether a path fits: it does, it may (a fact the engine does not know decides), or it does not. */
type ReinstatementFit = 'fits' | 'may_fit' | 'does_not_fit';

/**
 * What a group ticks on its way back, by stable key (stored in reinstatement_checklist.item_key;
 * never renamed: a renamed key loses the ticks made under it). Each path lists some of them.
 */
export const REINSTATEMENT_ITEMS = {
  s4_application:
    'Complete Form 1023 (Form 1023-EZ where the organization is eligible to use it) for a 501(c)(3), or Form 1024 for another 501(c), and pay its user fee.',
  s4_heading: 'Write "Revenue Procedure 2014-11, Streamlined Retroactive Reinstatement" at the top of the application.',
  s4_late_990ez:
    'File a late Form 990-EZ for each of the three years it was required to file one (not for a year a Form 990-N was enough).',
  s4_submit: 'Submit the application by the deadline.',
  s5_application: 'Complete Form 1023 for a 501(c)(3), or Form 1024 for another 501(c), and pay its user fee.',
  s5_reasonable_cause: 'Write a statement of reasonable cause for not filing for at least one of the three years.',
  s5_late_returns:
    'Prepare the late annual return of every year it was missed, on paper (Form 990-EZ, 990 or 990-PF), and file it.',
  s5_returns_filed_statement: 'Add to the application a statement that the late returns have been filed.',
  s5_submit: 'Submit the application by the deadline.',
  s6_application: 'Complete Form 1023 for a 501(c)(3), or Form 1024 for another 501(c), and pay its user fee.',
  s6_reasonable_cause: 'Write a statement of reasonable cause for not filing for each of the three years.',
  s6_late_returns:
    'Prepare the late annual return of every year it was missed, on paper (Form 990-EZ, 990 or 990-PF), file it, and state in the application that it was filed.',
  s7_application:
    'Complete Form 1023 (Form 1023-EZ where the organization is eligible to use it) for a 501(c)(3), or Form 1024 for another 501(c), and pay its user fee.',
  s7_submit: 'Mail or submit the application: the exemption is recognized from its postmark date.',
} as const;
export type ReinstatementItemKey = keyof typeof REINSTATEMENT_ITEMS;
export const REINSTATEMENT_ITEM_KEYS = Object.keys(REINSTATEMENT_ITEMS) as [
  ReinstatementItemKey,
  ...ReinstatementItemKey[],
];

/** What the paths are judged from. */
export interface ReinstatementFacts {
  /** The return the organization owes each year (returnOwed of its BMF codes), null when not known. */
  obligation: Obligation | null;
  /**
   * Whether it could have filed Form 990-EZ (or 990-N) for each of the three missed years: gross
   * receipts under $200,000 and total assets under $500,000 (Instructions for Form 990-EZ).
   * 'under_ez_limits', 'over_ez_limits', or null when not known. A 990-N filer is under them.
   */
  grossReceipts: 'under_ez_limits' | 'over_ez_limits' | null;
  /** How many times the IRS revoked it automatically before this revocation (revocation list rows). */
  earlierRevocations: number;
  /** The revocation date on the Automatic Revocation List, 'YYYY-MM-DD'. */
  revokedOn: string;
  /** The date the IRS posted it on the Automatic Revocation List, 'YYYY-MM-DD', or null when the list gives none. */
  postedOn: string | null;
}

/** One way back: a section of Rev. Proc. 2014-11 and what it takes. */
export interface ReinstatementPath {
  section: ReinstatementSection;
  title: string;
  fit: ReinstatementFit;
  /** Why it fits, may fit or does not, in a sentence. */
  reason: string;
  /** The last day to apply under it, 'YYYY-MM-DD' ({@link reinstatementDeadline}); null when it has none or the posting date is not known. */
  deadline: string | null;
  /** What the group works through, in order. */
  items: { key: ReinstatementItemKey; text: string }[];
}

/** Months from the posting date in which the retroactive paths of sections 4 and 5 are open. */
const WINDOW_MONTHS = 15;

/**
 * The last day of the 15 months in which an organization may apply for retroactive reinstatement
 * under Rev. Proc. 2014-11 §4 or §5 (docs/irs-standing.md "Reinstatement"): the same day of the
 * month 15 months after `postedOn`. When that month has no such day (posted on 30 November 2025:
 * there is no 30 February 2027), the deadline is the last day of that month (28 February 2027): the
 * earlier date, so that a group never counts on a day that may not be given.
 *
 * The 15 months run from the later of the revocation letter's date and the posting date; the
 * product knows only the posting date, so a letter dated later moves the deadline later by as many
 * days. The date counted here is never later than the true one.
 * @param postedOn 'YYYY-MM-DD', the Automatic Revocation List's posting date
 * @returns 'YYYY-MM-DD'
 * @throws RangeError when `postedOn` is not a calendar date
 */
export function reinstatementDeadline(postedOn: string): string {
  const { year, month, day } = parseIsoDate(postedOn);
  const months = month - 1 + WINDOW_MONTHS;
  const y = year + Math.floor(months / 12);
  const m = (months % 12) + 1;
  const d = Math.min(day, daysInMonth(y, m));
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const itemsOf = (keys: ReinstatementItemKey[]) => keys.map((key) => ({ key, text: REINSTATEMENT_ITEMS[key] }));

/**
 * Whether the organization can use Form 990-EZ or 990-N for each missed year, from the return it
 * owes and its gross receipts: 'yes', 'no', or null when the engine cannot tell.
 */
function smallFiler(facts: ReinstatementFacts): 'yes' | 'no' | null {
  const o = facts.obligation;
  if (o?.kind === 'return' && (o.form === '990-PF' || o.form === '990-BL')) return 'no';
  if (o?.kind === 'return' && o.form === '990-N') return 'yes';
  if (facts.grossReceipts === 'under_ez_limits') return 'yes';
  if (facts.grossReceipts === 'over_ez_limits') return 'no';
  return null;
}

/**
 * The ways back under Rev. Proc. 2014-11 for an organization on the Automatic Revocation List, in
 * the order they are offered (docs/irs-standing.md "Reinstatement"), each with whether it fits, why,
 * its deadline and the documents it needs:
 * - §4 streamlined retroactive reinstatement: fits an organization that could file Form 990-EZ or
 *   990-N for each of the three missed years, was never automatically revoked before, and applies
 *   within the 15 months ({@link reinstatementDeadline}); a late Form 990-EZ for each year one was
 *   required (not for a 990-N filer). May fit when its gross receipts are not known.
 * - §5 retroactive reinstatement within the 15 months, when §4 does not fit: reasonable cause for
 *   at least one year, late paper returns for every missed year and a statement they were filed.
 *   May fit while §4 may: it is the path when §4 turns out not to fit.
 * - §6 retroactive reinstatement after the 15 months: reasonable cause for all three years, and the
 *   returns.
 * - §7 otherwise, at any time: the exemption runs from the application's postmark date.
 * Without a posting date the 15 months cannot be counted: §4 to §6 may fit.
 * @param today 'YYYY-MM-DD'
 * @throws RangeError when `today`, `revokedOn` or `postedOn` is not a calendar date
 */
export function reinstatementPaths(facts: ReinstatementFacts, today: string): ReinstatementPath[] {
  parseIsoDate(today);
  parseIsoDate(facts.revokedOn);
  const deadline = facts.postedOn ? reinstatementDeadline(facts.postedOn) : null;
  const within: boolean | null = deadline ? today <= deadline : null;
  const small = smallFiler(facts);
  const owesEz =
    facts.obligation?.kind !== 'return' || facts.obligation.form !== '990-N' ? (['s4_late_990ez'] as const) : [];

  let s4: Pick<ReinstatementPath, 'fit' | 'reason'>;
  if (facts.earlierRevocations > 0) {
    s4 = {
      fit: 'does_not_fit',
      reason:
        'The IRS revoked the organization automatically before: the streamlined process is for a first revocation.',
    };
  } else if (within === false && deadline) {
    s4 = { fit: 'does_not_fit', reason: `The 15 months ended on ${longDate(deadline)}.` };
  } else if (small === 'no') {
    s4 = {
      fit: 'does_not_fit',
      reason:
        facts.obligation?.kind === 'return' && facts.obligation.form === '990-PF'
          ? 'A private foundation files Form 990-PF: the streamlined process is for organizations that could file Form 990-EZ or 990-N each year.'
          : 'It could not file Form 990-EZ or 990-N for each of the three years: the streamlined process is for organizations that could.',
    };
  } else if (small === null) {
    s4 = {
      fit: 'may_fit',
      reason:
        'It fits if the organization could file Form 990-EZ or 990-N for each of the three years (gross receipts under $200,000 and total assets under $500,000), which the IRS data does not show.',
    };
  } else if (within === null) {
    s4 = {
      fit: 'may_fit',
      reason:
        'It fits if the application is made within 15 months of the revocation letter or the posting on the revocation list, whichever is later; the list gives no posting date.',
    };
  } else {
    s4 = {
      fit: 'fits',
      reason:
        'It could file Form 990-EZ or 990-N for each of the three years, was not revoked before, and is within the 15 months.',
    };
  }

  let s5: Pick<ReinstatementPath, 'fit' | 'reason'>;
  if (within === false && deadline) {
    s5 = { fit: 'does_not_fit', reason: `The 15 months ended on ${longDate(deadline)}.` };
  } else if (s4.fit === 'fits') {
    s5 = { fit: 'does_not_fit', reason: 'The streamlined process fits, and asks for less.' };
  } else if (s4.fit === 'may_fit' || within === null) {
    s5 = {
      fit: 'may_fit',
      reason:
        within === null
          ? 'It fits within 15 months of the revocation letter or the posting, whichever is later, when the streamlined process does not; the list gives no posting date.'
          : 'It fits within the 15 months if the streamlined process does not.',
    };
  } else {
    s5 = { fit: 'fits', reason: 'The streamlined process does not fit, and it is within the 15 months.' };
  }

  const s6: Pick<ReinstatementPath, 'fit' | 'reason'> =
    within === false
      ? {
          fit: 'fits',
          reason: 'The 15 months have passed: retroactive reinstatement takes reasonable cause for all three years.',
        }
      : within === null
        ? {
            fit: 'may_fit',
            reason: 'It fits once the 15 months have passed; the list gives no posting date to count them from.',
          }
        : {
            fit: 'does_not_fit',
            reason: `It is for applications after the 15 months; until ${longDate(deadline ?? today)} the paths above ask for less.`,
          };

  return [
    {
      section: '4',
      title: 'Streamlined retroactive reinstatement',
      ...s4,
      deadline,
      items: itemsOf(['s4_application', 's4_heading', ...owesEz, 's4_submit']),
    },
    {
      section: '5',
      title: 'Retroactive reinstatement within 15 months',
      ...s5,
      deadline,
      items: itemsOf([
        's5_application',
        's5_reasonable_cause',
        's5_late_returns',
        's5_returns_filed_statement',
        's5_submit',
      ]),
    },
    {
      section: '6',
      title: 'Retroactive reinstatement after 15 months',
      ...s6,
      deadline: null,
      items: itemsOf(['s6_application', 's6_reasonable_cause', 's6_late_returns']),
    },
    {
      section: '7',
      title: "Reinstatement from the application's postmark date",
      fit: 'fits',
      reason:
        'Open at any time: the IRS recognizes the organization from the date the application is postmarked, not before.',
      deadline: null,
      items: itemsOf(['s7_application', 's7_submit']),
    },
  ];
}

/**
 * The way back in one line, for staff's work item of a revoked account (docs/work-queue.md "Kinds",
 * docs/irs-standing.md "Reinstatement"): the path that fits within the 15 months (§4 streamlined,
 * or §5; "§4 if …, else §5" when the gross receipts decide) and its deadline ('YYYY-MM-DD', as the
 * work queue writes dates), then §6 or §7 after it. Does not depend on the day it is read.
 * @returns null when the list gives no posting date to count the 15 months from
 */
export function reinstatementWorkText(facts: ReinstatementFacts): string | null {
  if (!facts.postedOn) return null;
  const [s4] = reinstatementPaths(facts, facts.postedOn);
  const within =
    s4.fit === 'fits'
      ? '§4 streamlined'
      : s4.fit === 'may_fit'
        ? '§4 streamlined if it could file Form 990-EZ or 990-N each year, else §5'
        : '§5';
  return `Way back (Rev. Proc. 2014-11): ${within} by ${reinstatementDeadline(facts.postedOn)}; after that §6, or §7 from the postmark date.`;
}
