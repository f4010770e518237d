import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows-of.ts';
import type { SupervisionOverview } from '../../../shared/schemas/supervision.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * GET /api/admin/supervision/overview (docs/supervision.md "Staff"): every GEN group with its
 * member groups (accounts.group_id), how many users the compliance education notice would reach,
 * and whether this year's notice was sent (when, by whom, to how many). Reads only.
 * @param year the calendar year of the notice (this year)
 * @param defaultTaxYear the tax year the status list opens on
 * @param groupId only this group (a central organization's workspace, docs/roles.md "Central
 *   organizations"); every group when absent
 */
export async function supervisionOverview(
  db: DbOrTx,
  year: number,
  defaultTaxYear: number,
  groupId?: number,
): Promise<SupervisionOverview> {
  const rows = await rowsOf<{
    id: number;
    label: string;
    gen: string | null;
    central_name: string;
    members: number | string;
    recipients: number | string;
    sent_ms: number | string | null;
    sent_by: string | null;
    sent_to: number | null;
  }>(
    db,
    sql`
    SELECT g.id, g.label, g.gen, g.central_name,
      (SELECT count(*) FROM accounts a WHERE a.group_id = g.id) AS members,
      (SELECT count(DISTINCT lower(u.email)) FROM users u JOIN accounts a ON a.id = u.account_id WHERE a.group_id = g.id) AS recipients,
      (extract(epoch FROM ce.sent_at) * 1000)::float8 AS sent_ms, su.email AS sent_by, ce.recipients AS sent_to
    FROM groups g
    LEFT JOIN compliance_education ce ON ce.group_id = g.id AND ce.year = ${year}
    LEFT JOIN users su ON su.id = ce.sent_by
    ${groupId === undefined ? sql`` : sql`WHERE g.id = ${groupId}`}
    ORDER BY g.label, g.id`,
  );
  return {
    year,
    default_tax_year: defaultTaxYear,
    groups: rows.map((r) => ({
      id: Number(r.id),
      label: r.label,
      gen: r.gen,
      central_name: r.central_name,
      members: Number(r.members),
      recipients: Number(r.recipients),
      education:
        r.sent_ms === null
          ? null
          : { sent_at: new Date(Number(r.sent_ms)).toISOString(), sent_by: r.sent_by, recipients: Number(r.sent_to) },
    })),
  };
}
