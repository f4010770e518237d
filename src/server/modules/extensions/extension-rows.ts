import { and, desc, eq, sql } from 'drizzle-orm';
import { shortPeriodOf } from '../../../shared/rules/extensions.ts';
import { returnOwed, type Obligation } from '../../../shared/rules/standing.ts';
import { accounts, filingExtensions, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { FilingExtensionRow } from '../../../shared/schemas/extensions.ts';
import type { DbOrTx } from '../../db/client.ts';

/** What the extension rules read of an account (docs/irs-standing.md "Extensions"). */
export interface ExtensionAccount {
  id: number;
  /** The return it owes each year, from its BMF codes (returnOwed); null when not known. */
  obligation: Obligation | null;
  /** Fiscal year end month, 1-12, or null when not known. */
  fye: number | null;
  /** Its latest short period 'YYYY-MM' (BMF TAX_PERIOD in another month than the year end), or null. */
  shortPeriod: string | null;
}

/**
 * The account's BMF facts the extension rules read: its return owed (FILING_REQ_CD and
 * PF_FILING_REQ_CD), fiscal year end (ACCT_PD or the group's answer) and latest short period.
 * Reads accounts.
 * @throws HttpError 404 'The account could not be found.'
 */
export async function extensionAccountOf(db: DbOrTx, accountId: number): Promise<ExtensionAccount> {
  const [a] = await db
    .select({
      id: accounts.id,
      filingRequirement: accounts.filingRequirement,
      pfFilingRequirement: accounts.pfFilingRequirement,
      fye: accounts.fiscalYearEndMonth,
      taxPeriod: accounts.taxPeriod,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!a) throw notFound('The account');
  const fye = a.fye !== null && a.fye >= 1 && a.fye <= 12 ? a.fye : null;
  return {
    id: a.id,
    obligation: returnOwed(a.filingRequirement, a.pfFilingRequirement),
    fye,
    shortPeriod: fye ? shortPeriodOf(a.taxPeriod, fye) : null,
  };
}

/**
 * The account's recorded extensions as the list shows them, newest period first (or the one `id`).
 * `recorded_by` is the recorder's name, or e-mail when they gave none; a staff member's only when
 * `viewerIsStaff` (a group sees "staff"). Reads filing_extensions and users.
 */
export async function extensionRows(
  db: DbOrTx,
  accountId: number,
  viewerIsStaff: boolean,
  id?: number,
): Promise<FilingExtensionRow[]> {
  const rows = await db
    .select({
      id: filingExtensions.id,
      period_end: filingExtensions.periodEnd,
      form: filingExtensions.form,
      return_form: filingExtensions.returnForm,
      filed_on: filingExtensions.filedOn,
      extended_due: filingExtensions.extendedDue,
      recorded_as: filingExtensions.recordedAs,
      recorder: sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`,
      recorderEmail: users.email,
      created_at: filingExtensions.createdAt,
    })
    .from(filingExtensions)
    .leftJoin(users, eq(users.id, filingExtensions.recordedBy))
    .where(
      id === undefined
        ? eq(filingExtensions.accountId, accountId)
        : and(eq(filingExtensions.accountId, accountId), eq(filingExtensions.id, id)),
    )
    .orderBy(desc(filingExtensions.periodEnd));
  return rows.map(({ recorder, recorderEmail, ...r }) => ({
    ...r,
    return_form: r.return_form as FilingExtensionRow['return_form'],
    recorded_by: r.recorded_as === 'staff' && !viewerIsStaff ? null : (recorder ?? recorderEmail ?? null),
  }));
}
