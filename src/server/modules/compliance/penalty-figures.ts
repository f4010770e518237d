import { desc, eq, sql } from 'drizzle-orm';
import { lateCostText, type LatePenaltyFigures } from '../../../shared/rules/standing.ts';
import { latePenaltyFigures } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { PenaltyFiguresInput, PenaltyFiguresRow } from '../../../shared/schemas/penalty-figures.ts';
import type { Db, DbOrTx } from '../../db/client.ts';

type FiguresRecord = typeof latePenaltyFigures.$inferSelect;

/** The columns a LatePenaltyFigures carries, named as the table's properties: one list for both readings below. */
const FIGURE_KEYS = [
  'dueYear',
  'dailyCents',
  'maximumCents',
  'largeReceiptsOverCents',
  'largeDailyCents',
  'largeMaximumCents',
  'source',
  'sourceUrl',
] as const satisfies readonly (keyof LatePenaltyFigures & keyof FiguresRecord)[];

const asFigures = (r: FiguresRecord): LatePenaltyFigures =>
  Object.fromEntries(FIGURE_KEYS.map((key) => [key, r[key]])) as unknown as LatePenaltyFigures;

/**
 * Every due year's figures as one JSON array of LatePenaltyFigures, for a statement that reads them
 * beside other things (standingLookupsQuery): '[]' when none are entered.
 */
export const penaltyFiguresJson = sql`(SELECT coalesce(json_agg(json_build_object(${sql.join(
  FIGURE_KEYS.map((key) => sql`${sql.raw(`'${key}'`)}, ${sql.identifier(latePenaltyFigures[key].name)}`),
  sql`, `,
)})), '[]') FROM late_penalty_figures)`;

const asRow = (r: FiguresRecord): PenaltyFiguresRow => ({
  due_year: r.dueYear,
  daily_cents: r.dailyCents,
  maximum_cents: r.maximumCents,
  large_receipts_over_cents: r.largeReceiptsOverCents,
  large_daily_cents: r.largeDailyCents,
  large_maximum_cents: r.largeMaximumCents,
  source: r.source,
  source_url: r.sourceUrl,
  updated_at: r.updatedAt.toISOString(),
  reads: lateCostText(
    { kind: 'return', form: '990-EZ or 990', extension: true, latePenalty: true },
    r.dueYear,
    asFigures(r),
  ),
});

/**
 * Every due year's §6652(c)(1)(A) figures staff entered (docs/irs-standing.md "What being late
 * costs"), by due year. Reads only.
 */
export async function penaltyFiguresByYear(db: DbOrTx): Promise<Map<number, LatePenaltyFigures>> {
  const rows = await db.select().from(latePenaltyFigures);
  return new Map(rows.map((r) => [r.dueYear, asFigures(r)]));
}

/** The figures of every due year, newest first, as staff read them (with how a late Form 990 reads). Reads only. */
export async function listPenaltyFigures(db: DbOrTx): Promise<PenaltyFiguresRow[]> {
  const rows = await db.select().from(latePenaltyFigures).orderBy(desc(latePenaltyFigures.dueYear));
  return rows.map(asRow);
}

/**
 * Staff enter or correct the figures for returns due in `input.due_year` (docs/irs-standing.md "What
 * being late costs"): one row a year, replaced whole. Writes late_penalty_figures and an audit_log
 * row ('irs.penalty_figures_saved' with the figures and the source), in one transaction.
 * @param input as penaltyFiguresSchema gives it: due year 2000–2100, amounts in integer cents
 * @returns the saved row
 */
export async function savePenaltyFigures(
  db: Db,
  input: PenaltyFiguresInput,
  actor: { userId: number; ip: string },
): Promise<PenaltyFiguresRow> {
  const { due_year: dueYear, ...figures } = input;
  return db.transaction(async (tx) => {
    const values = {
      dailyCents: input.daily,
      maximumCents: input.maximum,
      largeReceiptsOverCents: input.large_receipts_over,
      largeDailyCents: input.large_daily,
      largeMaximumCents: input.large_maximum,
      source: input.source,
      sourceUrl: input.source_url,
      enteredBy: actor.userId,
      updatedAt: new Date(),
    };
    const [row] = await tx
      .insert(latePenaltyFigures)
      .values({ dueYear, ...values })
      .onConflictDoUpdate({ target: latePenaltyFigures.dueYear, set: values })
      .returning();
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'irs.penalty_figures_saved',
      details: { dueYear, ...figures },
      ip: actor.ip,
    });
    return asRow(row);
  });
}

/**
 * Staff remove a due year's figures (entered by mistake): the pages then name the instructions to
 * read instead. Writes late_penalty_figures and an audit_log row ('irs.penalty_figures_deleted').
 * @throws HttpError 404 when no figures are kept for that year
 */
export async function deletePenaltyFigures(
  db: Db,
  dueYear: number,
  actor: { userId: number; ip: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(latePenaltyFigures)
      .where(eq(latePenaltyFigures.dueYear, dueYear))
      .returning({ source: latePenaltyFigures.source });
    if (!gone) throw notFound(`The figures for ${dueYear}`);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'irs.penalty_figures_deleted',
      details: { dueYear, source: gone.source },
      ip: actor.ip,
    });
  });
}
