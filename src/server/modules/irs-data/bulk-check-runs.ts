import { desc, eq } from 'drizzle-orm';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { IRS_BULK_CHECKS_LISTED, type IrsBulkCheck } from '../../../shared/schemas/irs-bulk-check.ts';
import { irsBulkChecks } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { checkEins, readEinList } from './bulk-check.ts';
import type { Db } from '../../db/client.ts';

const CHECK = 'The check';

/** The columns the page shows: never the EINs or the result, which may run to megabytes. */
const SHOWN = {
  id: irsBulkChecks.id,
  fileName: irsBulkChecks.fileName,
  status: irsBulkChecks.status,
  total: irsBulkChecks.total,
  done: irsBulkChecks.done,
  counts: irsBulkChecks.counts,
  error: irsBulkChecks.error,
  createdAt: irsBulkChecks.createdAt,
  finishedAt: irsBulkChecks.finishedAt,
};

/** One irs_bulk_checks row as the page shows it. */
function view(r: Pick<typeof irsBulkChecks.$inferSelect, keyof typeof SHOWN>): IrsBulkCheck {
  return {
    id: r.id,
    file_name: r.fileName,
    status: r.status,
    total: r.total,
    done: r.done,
    counts: r.counts,
    error: r.error,
    created_at: r.createdAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Runs a stored check to its end (docs/irs-standing.md "Checking a list of EINs"): checks its EINs
 * (checkEins), writing `done` after each batch so any server shows the progress, then the result
 * CSV and counts with status 'done' (the EINs dropped), or status 'failed' with the error's message.
 * Writes: irs_bulk_checks. Never throws (a failure is logged and stored).
 */
async function runBulkCheck(db: Db, id: number, eins: string[], log: { error(obj: object, msg: string): void }) {
  try {
    const { csv, counts } = await checkEins(db, eins, calendarDate(new Date()), async (done) => {
      await db.update(irsBulkChecks).set({ done }).where(eq(irsBulkChecks.id, id));
    });
    await db
      .update(irsBulkChecks)
      // The EINs are no longer needed once the result holds them.
      .set({ status: 'done', done: eins.length, counts, resultCsv: csv, eins: [], finishedAt: new Date() })
      .where(eq(irsBulkChecks.id, id));
  } catch (err) {
    log.error({ err, bulkCheck: id }, 'checking a list of EINs failed');
    await db
      .update(irsBulkChecks)
      .set({ status: 'failed', error: 'The check stopped on an error: upload the file again.', finishedAt: new Date() })
      .where(eq(irsBulkChecks.id, id))
      .catch((e: unknown) => log.error({ err: e, bulkCheck: id }, 'recording a failed EIN check failed'));
  }
}

/**
 * Starts checking an uploaded list of EINs (docs/irs-standing.md "Checking a list of EINs"): reads
 * it (readEinList), stores the check with its EINs and total, audits 'irs_bulk_check.started'
 * (file name, lines, EINs), and runs it apart from the request (runBulkCheck); the caller answers
 * at once and the page follows the progress.
 * @param upload the file's name (cleaned) and its text
 * @param actor who uploaded it, and from where
 * @returns the check as stored: status 'running', done 0
 * @throws ValidationError 422 on `file` (readEinList), before anything is written
 */
export async function startBulkCheck(
  db: Db,
  upload: { fileName: string; text: string },
  actor: { userId: number | null; ip: string; log: { error(obj: object, msg: string): void } },
): Promise<IrsBulkCheck> {
  const { eins, lines } = readEinList(upload.text);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(irsBulkChecks)
      .values({ fileName: upload.fileName, eins, total: eins.length, createdBy: actor.userId })
      .returning(SHOWN);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'irs_bulk_check.started',
      details: { bulk_check_id: inserted.id, file_name: upload.fileName, lines, eins: eins.length },
      ip: actor.ip,
    });
    return inserted;
  });
  void runBulkCheck(db, row.id, eins, actor.log);
  return view(row);
}

/**
 * One check's progress and counts (docs/irs-standing.md "Checking a list of EINs").
 * @throws HttpError 404 for an unknown id
 */
export async function getBulkCheck(db: Db, id: number): Promise<IrsBulkCheck> {
  const [row] = await db.select(SHOWN).from(irsBulkChecks).where(eq(irsBulkChecks.id, id));
  if (!row) throw notFound(CHECK);
  return view(row);
}

/** The latest IRS_BULK_CHECKS_LISTED checks, newest first. Reads only. */
export async function listBulkChecks(db: Db): Promise<{ data: IrsBulkCheck[] }> {
  const rows = await db
    .select(SHOWN)
    .from(irsBulkChecks)
    .orderBy(desc(irsBulkChecks.createdAt), desc(irsBulkChecks.id))
    .limit(IRS_BULK_CHECKS_LISTED);
  return { data: rows.map(view) };
}

/**
 * A finished check's result CSV and a file name for it, e.g. 'ein-standings-12.csv'.
 * @throws HttpError 404 for an unknown id, 409 while it runs or when it failed
 */
export async function bulkCheckResult(db: Db, id: number): Promise<{ csv: string; fileName: string }> {
  const [row] = await db
    .select({ status: irsBulkChecks.status, csv: irsBulkChecks.resultCsv })
    .from(irsBulkChecks)
    .where(eq(irsBulkChecks.id, id));
  if (!row) throw notFound(CHECK);
  if (row.status !== 'done' || row.csv === null) throw new HttpError(409, 'The check has not finished.');
  return { csv: row.csv, fileName: `ein-standings-${id}.csv` };
}
