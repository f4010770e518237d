import { z } from 'zod';
import { STATES } from '../../../shared/lists/states.ts';
import { must } from '../../../shared/must.ts';
import { stripControl } from '../../../shared/validation.ts';
import { bmfToAccount, type BmfRecord } from '../subordinates/import-bmf.ts';

/**
 * Reading roster rows for the generic uploader's account import (docs/requirements/product.md tool 5): which layout a
 * header is, and each row as `accounts` columns or the reason it is refused. Pure functions.
 */

/** The 28 columns of the IRS EO BMF extract, in file order. */
export const BMF_COLUMNS = [
  'EIN',
  'NAME',
  'ICO',
  'STREET',
  'CITY',
  'STATE',
  'ZIP',
  'GROUP',
  'SUBSECTION',
  'AFFILIATION',
  'CLASSIFICATION',
  'RULING',
  'DEDUCTIBILITY',
  'FOUNDATION',
  'ACTIVITY',
  'ORGANIZATION',
  'STATUS',
  'TAX_PERIOD',
  'ASSET_CD',
  'INCOME_CD',
  'FILING_REQ_CD',
  'PF_FILING_REQ_CD',
  'ACCT_PD',
  'ASSET_AMT',
  'INCOME_AMT',
  'REVENUE_AMT',
  'NTEE_CD',
  'SORT_NAME',
] as const satisfies readonly (keyof BmfRecord)[];

/** Columns of a simple roster; `e-mail` is read as `email`. Only `name` is required in the header. */
const ROSTER_COLUMNS = ['name', 'email', 'city', 'state', 'ein'] as const;
type RosterColumn = (typeof ROSTER_COLUMNS)[number];

export type RosterLayout =
  | { kind: 'irs-bmf'; index: Record<(typeof BMF_COLUMNS)[number], number>; width: number }
  | { kind: 'roster'; index: Partial<Record<RosterColumn, number>>; width: number };

const headerKey = (h: string) =>
  stripControl(h)
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();

/**
 * Which layout a header row is: the BMF extract (its key columns EIN, NAME, GROUP, AFFILIATION,
 * SORT_NAME present, any order) or a simple roster with at least a `name` column. Names are
 * compared case-insensitively.
 * @returns the layout with each known column's position, or null when neither
 */
export function detectLayout(header: string[]): RosterLayout | null {
  const keys = header.map(headerKey);
  const at = (name: string) => keys.indexOf(name);
  if (['ein', 'name', 'group', 'affiliation', 'sort_name'].every((c) => at(c) >= 0)) {
    const index = Object.fromEntries(BMF_COLUMNS.map((c) => [c, at(c.toLowerCase())])) as Record<
      (typeof BMF_COLUMNS)[number],
      number
    >;
    return { kind: 'irs-bmf', index, width: header.length };
  }
  if (at('name') < 0) return null;
  const index: Partial<Record<RosterColumn, number>> = {};
  for (const c of ROSTER_COLUMNS) {
    const i = c === 'email' && at('email') < 0 ? at('e-mail') : at(c);
    if (i >= 0) index[c] = i;
  }
  return { kind: 'roster', index, width: header.length };
}

/** The message when a file's header is neither layout. */
export const unknownLayoutMessage = (fileName: string) =>
  `${fileName} is not a roster: its first line must name the columns (name, email, city, state, ein) or be the IRS EO BMF header (EIN,NAME,ICO,...).`;

/** An account to create, with what duplicates are checked by. */
export type AccountDraft = Omit<NonNullable<ReturnType<typeof bmfToAccount>>, 'ein'> & {
  ein: string | null;
  email: string | null;
};

export type RowOutcome = { account: AccountDraft } | { reason: string };

const NAME_MAX = 255;
const emailSchema = z.email();
const shown = (value: string) => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

/**
 * One data row as an account (docs/requirements/product.md tool 5): a BMF row through the BMF importer's own mapping
 * (`bmfToAccount`: shown name, IRS codes, search text; listed, source 'irs-bmf'); a roster row as
 * an unlisted account (source 'roster') with its name, e-mail (lower case), city, state and EIN.
 * Both join `groupId`.
 * @param fields the row's values, control characters not yet removed
 * @returns the account columns, or the reason the row is rejected: a wrong number of fields, no
 *   name, an EIN that is not 9 digits, an invalid e-mail, a state that is not a US state code, or
 *   (roster) neither an EIN nor an e-mail to check duplicates by
 */
export function rowToAccount(layout: RosterLayout, fields: string[], groupId: number | null): RowOutcome {
  if (fields.length !== layout.width) {
    return {
      reason: `The row has ${fields.length} ${fields.length === 1 ? 'field' : 'fields'}; the header has ${layout.width}.`,
    };
  }
  const clean = fields.map((f) => stripControl(f));
  if (layout.kind === 'irs-bmf') {
    const record = Object.fromEntries(
      BMF_COLUMNS.map((c) => [c, layout.index[c] >= 0 ? must(clean[layout.index[c]], `the ${c} field`) : '']),
    ) as unknown as BmfRecord;
    const ein = record.EIN.trim();
    if (!/^\d{9}$/.test(ein))
      return { reason: ein ? `The EIN "${shown(ein)}" must be 9 digits.` : 'The EIN is missing.' };
    const account = must(bmfToAccount(record, new Map()), 'the account of a row with a 9-digit EIN');
    if (!account.name) return { reason: 'The name is missing.' };
    if (account.name.length > NAME_MAX) return { reason: `The name must not be longer than ${NAME_MAX} characters.` };
    return { account: { ...account, groupId, email: null } };
  }

  const value = (c: RosterColumn) => {
    const at = layout.index[c];
    return at === undefined ? '' : must(clean[at], `the ${c} field`).trim();
  };
  const name = value('name').replace(/\s+/g, ' ');
  if (!name) return { reason: 'The name is missing.' };
  if (name.length > NAME_MAX) return { reason: `The name must not be longer than ${NAME_MAX} characters.` };
  const einText = value('ein');
  const ein = einText.replace(/[\s-]/g, '');
  if (einText && !/^\d{9}$/.test(ein)) return { reason: `The EIN "${shown(einText)}" must be 9 digits.` };
  const emailText = value('email');
  const email = emailText.toLowerCase();
  if (emailText && (email.length > 255 || !emailSchema.safeParse(email).success))
    return { reason: `The e-mail "${shown(emailText)}" is not a valid address.` };
  const stateText = value('state');
  const state = stateText.toUpperCase();
  if (stateText && !(state in STATES)) return { reason: `The state "${shown(stateText)}" is not a US state code.` };
  if (!ein && !email)
    return { reason: 'The row has neither an EIN nor an e-mail, so it cannot be checked for duplicates.' };
  const city = value('city').slice(0, NAME_MAX);
  return {
    account: {
      name,
      legalName: name,
      careOf: '',
      ein: ein || null,
      email: email || null,
      gen: null,
      groupId,
      street: '',
      city,
      state,
      zip: '',
      subsection: null,
      affiliation: null,
      ruling: null,
      deductibility: null,
      irsStatus: null,
      taxPeriod: null,
      filingRequirement: null,
      pfFilingRequirement: null,
      fiscalYearEndMonth: null,
      nteeCode: null,
      foundation: null,
      isListed: false,
      searchText: [...new Set([name, city].map((s) => s.trim().toLowerCase()).filter(Boolean))].join(' '),
      source: 'roster',
    },
  };
}
