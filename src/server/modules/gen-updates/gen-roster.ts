import { and, asc, desc, eq, isNotNull, lt } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { isPrivateFoundation } from '../../../shared/rules/gen-update.ts';
import { accounts, genUpdates, groups } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { isProviderGen } from '../irs-data/provider-gens.ts';
import type { GenItem } from '../../../shared/schemas/gen-updates.ts';
import type { DbOrTx } from '../../db/client.ts';

export type GenGroup = typeof groups.$inferSelect & { gen: string };

/**
 * The group a GEN screen works on (docs/irs-gen-duties.md): `groupId`, or the first group (lowest
 * id) of a GEN the provider holds (irs-data/provider-gens.ts). Reads groups only.
 * @returns the group and every group with a GEN (for the picker); group null when none has a GEN
 * @throws HttpError 404 when `groupId` names no group with a GEN
 */
export async function loadGenGroup(db: DbOrTx, groupId?: number): Promise<{ group: GenGroup | null; all: GenGroup[] }> {
  const all = (await db.select().from(groups).where(isProviderGen).orderBy(asc(groups.id))) as GenGroup[];
  if (groupId === undefined) return { group: all[0] ?? null, all };
  const group = all.find((g) => g.id === groupId);
  if (!group) throw notFound('The group exemption');
  return { group, all };
}

/** The settings an update needs, by label, that `group` lacks. */
export function missingSettings(group: GenGroup): string[] {
  return [
    !group.centralName.trim() && 'central organization name',
    !group.centralEin && 'central organization EIN',
    !group.accountingPeriodEndMonth && 'accounting period end month',
    !group.subsection && '501(c) paragraph',
  ].filter((s): s is string => !!s);
}

/** A subordinate on the roster now, with what the checks need besides its line. */
export interface RosterEntry {
  accountId: number;
  fiscalYearEndMonth: number | null;
  item: GenItem;
}

/**
 * The GEN roster now (docs/irs-gen-duties.md "Roster"): the listed IRS subordinates
 * (source 'irs-bmf', is_listed) whose BMF GROUP is `gen`, by EIN. Confirmed roster imports and
 * BMF releases write these accounts, so the roster is whatever they left.
 */
export async function loadRoster(db: DbOrTx, gen: string): Promise<RosterEntry[]> {
  const rows = await db
    .select({
      id: accounts.id,
      ein: accounts.ein,
      name: accounts.name,
      street: accounts.street,
      city: accounts.city,
      state: accounts.state,
      zip: accounts.zip,
      subsection: accounts.subsection,
      foundation: accounts.foundation,
      fye: accounts.fiscalYearEndMonth,
    })
    .from(accounts)
    .where(
      and(eq(accounts.gen, gen), eq(accounts.source, 'irs-bmf'), eq(accounts.isListed, true), isNotNull(accounts.ein)),
    )
    .orderBy(asc(accounts.ein));
  return rows.map((r) => ({
    accountId: r.id,
    fiscalYearEndMonth: r.fye,
    item: {
      action: 'unchanged',
      ein: must(r.ein, 'the EIN (the query keeps only accounts with one)'),
      name: r.name,
      street: r.street,
      city: r.city,
      state: r.state,
      zip: r.zip,
      subsection: r.subsection,
      foundation: r.foundation,
      private_foundation: isPrivateFoundation(r.foundation),
    },
  }));
}

/** The latest update of `groupId` submitted for a period ending before `periodEnd`, or null (the first update). */
export async function lastSubmittedBefore(db: DbOrTx, groupId: number, periodEnd: string) {
  const [row] = await db
    .select()
    .from(genUpdates)
    .where(
      and(eq(genUpdates.groupId, groupId), eq(genUpdates.status, 'submitted'), lt(genUpdates.periodEnd, periodEnd)),
    )
    .orderBy(desc(genUpdates.periodEnd))
    .limit(1);
  return row ?? null;
}

/** The fields compared between the roster now and the last submitted update, with how staff read them. */
const COMPARED: [keyof GenItem & string, string][] = [
  ['name', 'name'],
  ['street', 'street'],
  ['city', 'city'],
  ['state', 'state'],
  ['zip', 'ZIP'],
  ['subsection', '501(c) paragraph'],
  ['foundation', 'foundation code'],
];

/**
 * The lines of an update (docs/irs-gen-duties.md "Additions, deletions and changes"): with no
 * `baseline` (the first update) every subordinate on the roster, action 'roster'; otherwise the
 * roster now against the roster the baseline froze (its lines other than 'delete'): 'add' for an
 * EIN new since, 'delete' for one gone, 'change' with the fields that differ, 'unchanged' for the
 * rest. Every line is returned, 'unchanged' included, because the submitted update freezes the
 * whole roster as the next one's baseline. Sorted by action (add, change, delete) then EIN.
 */
export function diffRoster(roster: GenItem[], baseline: GenItem[] | null): GenItem[] {
  if (!baseline) return roster.map((r) => ({ ...r, action: 'roster' }));
  const before = new Map(baseline.filter((b) => b.action !== 'delete').map((b) => [b.ein, b]));
  const lines: GenItem[] = [];
  for (const now of roster) {
    const was = before.get(now.ein);
    before.delete(now.ein);
    if (!was) {
      lines.push({ ...now, action: 'add' });
      continue;
    }
    const changes = COMPARED.filter(([f]) => (was[f] ?? '') !== (now[f] ?? '')).map(([f, label]) => ({
      field: label,
      before: (was[f] as string | null) ?? null,
      after: (now[f] as string | null) ?? null,
    }));
    lines.push(changes.length ? { ...now, action: 'change', changes } : { ...now, action: 'unchanged' });
  }
  for (const gone of before.values()) {
    const { changes: _ignored, ...rest } = gone;
    lines.push({ ...rest, action: 'delete' });
  }
  const order = { add: 0, change: 1, delete: 2, roster: 3, unchanged: 4 } as const;
  return lines.sort((a, b) => order[a.action] - order[b.action] || a.ein.localeCompare(b.ein));
}
