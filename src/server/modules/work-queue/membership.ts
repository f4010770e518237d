import { sql, type SQL } from 'drizzle-orm';

/**
 * Who the central staff look after (docs/work-queue.md "Members and the roster"), as SQL over
 * `accounts` (written for the alias `a`):
 * - a **provider GEN** is a group exemption the provider holds (irs-data/provider-gens.ts): a
 *   `groups` row with a GEN that staff named or gave the central organization's EIN. The BMF
 *   import also creates a group for every other GEN it meets, labelled "IRS group exemption NNNN"
 *   with no central EIN: those are other central organizations' and are left out;
 * - a **member** is an account that joined here: it has at least one user (the application makes
 *   its applicant the primary user; staff link the users of an IRS account);
 * - a **paying member** is a member with an invoice of more than $0 paid in full.
 */

export { providerGens } from '../irs-data/provider-gens.ts';

/** `a` has at least one user: a member. */
export const isMember = sql`EXISTS (SELECT 1 FROM users mu WHERE mu.account_id = a.id)`;

/** `a` is a member with an invoice of more than $0 paid in full. */
export const isPayingMember = sql`(${isMember} AND EXISTS (SELECT 1 FROM invoices mi WHERE mi.account_id = a.id AND mi.value_cents > 0 AND mi.balance_cents <= 0))`;

/** `a` is a subordinate of one of `gens` (the BMF's GROUP), whether or not it left the roster since. */
export function ofGens(gens: string[]): SQL {
  return gens.length ? sql`a.gen = ANY(${sql.param(gens)}::text[])` : sql`false`;
}
