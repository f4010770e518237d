import { sql, type SQL } from 'drizzle-orm';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { listCountCap } from '../../../shared/schemas/list-params.ts';
import {
  SUPERVISION_PER_PAGE,
  type AdminSupervisionQuery,
  type SupervisionStatusPage,
  type SupervisionStatusRow,
} from '../../../shared/schemas/supervision.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { cappedCount, markCapped, wordPatterns } from '../admin/list-count.ts';
import type { Db } from '../../db/client.ts';

interface Row {
  id: number;
  name: string;
  ein: string | null;
  city: string;
  state: string;
  users: number | string;
  submitted_ms: number | string | null;
  gross: number | string | null;
  expenses: number | string | null;
  released_on: string | null;
}

/** A page's address: staff's list names the group in its query; a workspace's list (`listPath`) has it in its path. */
function pageUrl(q: AdminSupervisionQuery, groupId: number, taxYear: number, page: number, listPath?: string) {
  const p = new URLSearchParams(
    listPath ? { tax_year: String(taxYear) } : { group_id: String(groupId), tax_year: String(taxYear) },
  );
  if (q.status) p.set('status', q.status);
  if (q.search) p.set('search', q.search);
  p.set('page', String(page));
  return `${listPath ?? '/api/admin/supervision'}?${p}`;
}

/**
 * GET /api/admin/supervision (docs/supervision.md "Staff"): the member groups of one GEN group
 * (accounts.group_id; default the first group) for one tax year (default `defaultTaxYear`), in
 * name order, 25 a page: each with its users, its supervision report (submitted when, receipts and
 * expenses in cents) and the 990-N the IRS data shows for its EIN and year (with the release
 * date). `status` narrows to missing or submitted reports, 990-N seen or not; `search` matches every
 * word of the name or city (accounts.search_text). The total is counted a few pages ahead only
 * (listCountCap). Reads only; reading is not audited.
 * @param listPath the list's own address when it is a central organization's workspace
 *   (`/api/app/groups/{groupId}/supervision`, docs/roles.md "Central organizations"): its page links
 *   go there, without `group_id`; staff's list by default
 */
export async function listSupervisionStatus(
  db: Db,
  q: AdminSupervisionQuery,
  defaultTaxYear: number,
  listPath?: string,
): Promise<SupervisionStatusPage> {
  const taxYear = q.tax_year ?? defaultTaxYear;
  const groupId =
    q.group_id ?? (await rowsOf<{ id: number }>(db, sql`SELECT id FROM groups ORDER BY id LIMIT 1`))[0]?.id ?? null;
  if (groupId === null)
    return {
      ...buildPage<SupervisionStatusRow>([], 1, SUPERVISION_PER_PAGE, 0, () => ''),
      group_id: null,
      tax_year: taxYear,
    };
  const conds: SQL[] = [sql`a.group_id = ${groupId}`];
  if (q.search) for (const p of wordPatterns(q.search)) conds.push(sql`a.search_text LIKE ${p}`);
  if (q.status === 'missing') conds.push(sql`r.id IS NULL`);
  if (q.status === 'submitted') conds.push(sql`r.id IS NOT NULL`);
  if (q.status === 'filed') conds.push(sql`e.ein IS NOT NULL`);
  if (q.status === 'not_filed') conds.push(sql`e.ein IS NULL`);
  const from = sql`FROM accounts a
    LEFT JOIN supervision_reports r ON r.account_id = a.id AND r.tax_year = ${taxYear}
    LEFT JOIN irs_epostcards e ON e.ein = a.ein AND e.tax_year = ${taxYear}
    LEFT JOIN irs_releases rel ON rel.id = e.release_id
    WHERE ${sql.join(conds, sql` AND `)}`;
  const { total, capped } = await cappedCount(db, sql`SELECT 1 ${from}`, listCountCap(q.page, SUPERVISION_PER_PAGE));
  const rows =
    total === 0
      ? []
      : await rowsOf<Row>(
          db,
          sql`
    SELECT a.id, a.name, a.ein, a.city, a.state,
      (SELECT count(*) FROM users u WHERE u.account_id = a.id) AS users,
      (extract(epoch FROM r.submitted_at) * 1000)::float8 AS submitted_ms, r.gross_receipts_cents AS gross, r.expenses_cents AS expenses, rel.released_on::text AS released_on
    ${from}
    ORDER BY a.name, a.id LIMIT ${SUPERVISION_PER_PAGE} OFFSET ${(q.page - 1) * SUPERVISION_PER_PAGE}`,
        );
  const data: SupervisionStatusRow[] = rows.map((r) => ({
    account_id: Number(r.id),
    name: r.name,
    ein: r.ein,
    city: r.city,
    state: r.state,
    users: Number(r.users),
    report:
      r.submitted_ms === null
        ? null
        : {
            submitted_at: new Date(Number(r.submitted_ms)).toISOString(),
            gross_receipts_cents: Number(r.gross),
            expenses_cents: Number(r.expenses),
          },
    filed: r.released_on ? { released_on: r.released_on } : null,
  }));
  return {
    ...markCapped(
      buildPage(data, q.page, SUPERVISION_PER_PAGE, total, (p) => pageUrl(q, groupId, taxYear, p, listPath)),
      capped,
    ),
    group_id: groupId,
    tax_year: taxYear,
  };
}
