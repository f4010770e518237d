import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, asc, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import {
  IRS_BULK_CHECKS_LISTED,
  type IrsBulkCheck,
  type IrsBulkCheckCounts,
  type IrsBulkCheckList,
} from '../../../shared/schemas/irs-bulk-check.ts';
import { irsBulkChecks } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { addCounts, checkEins, readEinList } from './bulk-check.ts';
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
 * Which checks a caller sees (docs/roles.md "Central organizations"): staff every check
 * (`groupId` null), a central organization's users only their group's.
 */
export interface BulkCheckScope {
  groupId: number | null;
}

/** The condition of a check's id within `scope`. */
const withinScope = (id: number, scope: BulkCheckScope) =>
  scope.groupId === null
    ? eq(irsBulkChecks.id, id)
    : and(eq(irsBulkChecks.id, id), eq(irsBulkChecks.groupId, scope.groupId));

/** How long a run's claim on a check holds without a new batch written, in ms: a batch takes about a second. */
const BULK_CHECK_LEASE_MS = 60_000;

/**
 * Takeovers in a row, with no batch written between them, after which a check is given up
 * (docs/irs-standing.md "Checking a list of EINs"): a list whose checking brings its server down
 * (out of memory, say) would otherwise bring down every server in turn, for ever.
 */
export const BULK_CHECK_MAX_TAKEOVERS = 3;

/** The message of a check given up after BULK_CHECK_MAX_TAKEOVERS. */
export const BULK_CHECK_GIVEN_UP =
  'The check stopped its server several times at the same place in the list and was given up: upload the file again, or split it.';

/** Where a run reports what went wrong: app.log or a request's log. */
interface RunLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** How a run is stopped. */
export interface BulkCheckRunOptions {
  /** Once aborted (the server is stopping), the run stops after its batch and hands the check back. */
  signal?: AbortSignal;
}

/** What a run did with the check it held. */
interface RunOutcome {
  /** 'done', 'failed' (stored with its message), 'stopped' (handed back) or 'lost' (another run took it over). */
  end: 'done' | 'failed' | 'stopped' | 'lost';
  /** EINs this run checked and stored. */
  checked: number;
}

/** A check held by a run: what it needs to go on with it. */
interface HeldCheck {
  id: number;
  runId: string;
  eins: string[];
  done: number;
  counts: IrsBulkCheckCounts;
  resultCsv: string | null;
  createdAt: Date;
}

const HELD_COLUMNS = {
  id: irsBulkChecks.id,
  eins: irsBulkChecks.eins,
  done: irsBulkChecks.done,
  counts: irsBulkChecks.counts,
  resultCsv: irsBulkChecks.resultCsv,
  createdAt: irsBulkChecks.createdAt,
};

const newRunId = () => `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;

/** The database's clock decides when a lease ends: servers' clocks may differ from it and from each other. */
const leaseEnd = (leaseMs: number) => sql`now() + make_interval(secs => ${leaseMs / 1000})`;

/**
 * Runs a check this run holds to its end, or until it is stopped (docs/irs-standing.md "Checking a
 * list of EINs"): checks its EINs from `done` on (checkEins), and after each batch appends the
 * batch's lines to `result_csv`, adds its counts to `counts`, moves `done` and pushes the lease on,
 * in one UPDATE made only while the row is still this run's (`leased_by`) at the `done` it read, so
 * a run that lost its lease writes nothing more and stops. At the end: status 'done' (the EINs
 * dropped, the lease cleared). Stopped by the signal: the lease is cleared so any server takes the
 * check up at once. A check whose result was never written (stored before runs were resumable)
 * starts again from its first EIN.
 * Writes: irs_bulk_checks. Never throws: an error is logged and stored as status 'failed', except
 * while the server stops, when the check is left to be taken up again.
 */
async function runHeldCheck(db: Db, held: HeldCheck, log: RunLog, opts: BulkCheckRunOptions): Promise<RunOutcome> {
  const ours = (done: number) =>
    and(
      eq(irsBulkChecks.id, held.id),
      eq(irsBulkChecks.status, 'running'),
      eq(irsBulkChecks.leasedBy, held.runId),
      eq(irsBulkChecks.done, done),
    );
  let rowDone = held.done;
  const from = held.resultCsv === null ? 0 : held.done;
  let counts = from === 0 ? {} : held.counts;
  let checked = 0;
  let lost = false;
  const release = () =>
    db
      .update(irsBulkChecks)
      .set({ leasedBy: null, leaseUntil: null })
      .where(ours(rowDone))
      .catch((err: unknown) => log.error({ err, bulkCheck: held.id }, 'handing back a check of EINs failed'));
  try {
    const end = await checkEins(
      db,
      held.eins,
      calendarDate(held.createdAt),
      async (batch) => {
        const next = addCounts(counts, batch.counts);
        const written = await db
          .update(irsBulkChecks)
          .set({
            done: batch.done,
            counts: next,
            // The list's first batch carries the header and replaces whatever an old run left.
            resultCsv: from === 0 && checked === 0 ? batch.csv : sql`${irsBulkChecks.resultCsv} || ${batch.csv}`,
            leaseUntil: leaseEnd(BULK_CHECK_LEASE_MS),
            stalledTakeovers: 0,
          })
          .where(ours(rowDone))
          .returning({ id: irsBulkChecks.id });
        if (!written.length) {
          lost = true;
          return false;
        }
        checked += batch.done - rowDone;
        rowDone = batch.done;
        counts = next;
        return true;
      },
      { from, signal: opts.signal },
    );
    if (lost) {
      log.warn({ bulkCheck: held.id }, 'a check of EINs was taken over by another run; this one stopped');
      return { end: 'lost', checked };
    }
    if (end === 'stopped') {
      await release();
      return { end: 'stopped', checked };
    }
    const finished = await db
      .update(irsBulkChecks)
      // The EINs are no longer needed once the result holds them.
      .set({ status: 'done', eins: [], finishedAt: new Date(), leasedBy: null, leaseUntil: null })
      .where(ours(rowDone))
      .returning({ id: irsBulkChecks.id });
    return { end: finished.length ? 'done' : 'lost', checked };
  } catch (err) {
    if (opts.signal?.aborted) {
      // The database may be closing under the stopping server: not the check's fault.
      await release();
      return { end: 'stopped', checked };
    }
    log.error({ err, bulkCheck: held.id }, 'checking a list of EINs failed');
    await db
      .update(irsBulkChecks)
      .set({
        status: 'failed',
        error: 'The check stopped on an error: upload the file again.',
        finishedAt: new Date(),
        leasedBy: null,
        leaseUntil: null,
      })
      .where(ours(rowDone))
      .catch((e: unknown) => log.error({ err: e, bulkCheck: held.id }, 'recording a failed EIN check failed'));
    return { end: 'failed', checked };
  }
}

/**
 * Takes one running check no run holds (never claimed, or its lease past) and claims it for a new
 * run, in one short transaction: the row is read with FOR UPDATE SKIP LOCKED, so two servers
 * looking at once never take the same check, and its lease written (`leased_by`, `lease_until`).
 * A claim whose lease had passed (its run's server died) counts as a takeover: after
 * BULK_CHECK_MAX_TAKEOVERS in a row with no batch written, the check is stored as failed with
 * BULK_CHECK_GIVEN_UP instead, and logged. A check handed back by a stopping server is no takeover.
 * Reads through irs_bulk_checks_running_lease_idx. Writes: irs_bulk_checks.leased_by, lease_until,
 * stalled_takeovers, or status, error and finished_at of a check given up.
 * @returns the check claimed, 'given_up' for a check given up, or null when there is none to take
 */
async function claimBulkCheck(db: Db, log: RunLog): Promise<HeldCheck | 'given_up' | null> {
  const runId = newRunId();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        ...HELD_COLUMNS,
        leaseUntil: irsBulkChecks.leaseUntil,
        stalledTakeovers: irsBulkChecks.stalledTakeovers,
      })
      .from(irsBulkChecks)
      .where(
        and(
          eq(irsBulkChecks.status, 'running'),
          or(isNull(irsBulkChecks.leaseUntil), lt(irsBulkChecks.leaseUntil, sql`now()`)),
        ),
      )
      .orderBy(asc(irsBulkChecks.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return null;
    const { leaseUntil, stalledTakeovers, ...held } = row;
    const takeovers = leaseUntil === null ? stalledTakeovers : stalledTakeovers + 1;
    if (takeovers > BULK_CHECK_MAX_TAKEOVERS) {
      log.error({ bulkCheck: row.id, done: row.done, takeovers: stalledTakeovers }, 'a check of EINs was given up');
      await tx
        .update(irsBulkChecks)
        .set({ status: 'failed', error: BULK_CHECK_GIVEN_UP, finishedAt: new Date(), leasedBy: null, leaseUntil: null })
        .where(eq(irsBulkChecks.id, row.id));
      return 'given_up';
    }
    await tx
      .update(irsBulkChecks)
      .set({ leasedBy: runId, leaseUntil: leaseEnd(BULK_CHECK_LEASE_MS), stalledTakeovers: takeovers })
      .where(eq(irsBulkChecks.id, row.id));
    return { ...held, runId };
  });
}

/**
 * The bulk-check job's round (docs/jobs.md, docs/irs-standing.md "Checking a list of EINs"): takes
 * over, one after the other, every running check whose server stopped or died (its lease past or
 * handed back), and runs each to its end from the `done` stored, so its result CSV is the one an
 * uninterrupted run writes. Safe on every server at once: each check is claimed by one run
 * (claimBulkCheck), and a run that loses its lease writes nothing more.
 * Writes: irs_bulk_checks (see runHeldCheck).
 * @param opts the signal stops the round after the batch in progress; the check is handed back
 * @returns checks taken over (those given up included) and EINs checked in this round
 * @throws only when a claim fails (the database cannot be reached); a check's own error is stored
 */
export async function resumeBulkChecks(
  db: Db,
  log: RunLog,
  opts: BulkCheckRunOptions = {},
): Promise<{ checks: number; eins: number }> {
  const result = { checks: 0, eins: 0 };
  while (!opts.signal?.aborted) {
    const held = await claimBulkCheck(db, log);
    if (!held) break;
    if (held === 'given_up') {
      result.checks += 1;
      continue;
    }
    const outcome = await runHeldCheck(db, held, log, opts);
    result.checks += 1;
    result.eins += outcome.checked;
  }
  return result;
}

/**
 * Starts checking an uploaded list of EINs (docs/irs-standing.md "Checking a list of EINs"): reads
 * it (readEinList), stores the check with its EINs and total, already claimed by a new run (its
 * lease), audits 'irs_bulk_check.started' (file name, lines, EINs), and hands that run to
 * `runApart` (app.jobs.runApart: stopped with the server), so the caller answers at once and the
 * page follows the progress. Should this server stop, the bulk-check job of any server takes the
 * check up where it was left (resumeBulkChecks).
 * @param upload the file's name (cleaned) and its text
 * @param actor who uploaded it, from where, and for which central organization's group (null: staff's own)
 * @param runApart runs the check apart from the request, giving it the signal of the server's stop
 * @returns the check as stored: status 'running', done 0
 * @throws ValidationError 422 on `file` (readEinList), before anything is written
 */
export async function startBulkCheck(
  db: Db,
  upload: { fileName: string; text: string },
  actor: { userId: number | null; ip: string; log: RunLog; groupId?: number | null },
  runApart: (work: (signal: AbortSignal) => Promise<unknown>) => void,
): Promise<IrsBulkCheck> {
  const { eins, lines } = readEinList(upload.text);
  const runId = newRunId();
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(irsBulkChecks)
      .values({
        fileName: upload.fileName,
        eins,
        total: eins.length,
        createdBy: actor.userId,
        groupId: actor.groupId ?? null,
        leasedBy: runId,
        leaseUntil: leaseEnd(BULK_CHECK_LEASE_MS),
      })
      .returning(SHOWN);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'irs_bulk_check.started',
      details: {
        bulk_check_id: inserted.id,
        file_name: upload.fileName,
        lines,
        eins: eins.length,
        ...(actor.groupId ? { group_id: actor.groupId } : {}),
      },
      ip: actor.ip,
    });
    return inserted;
  });
  const held: HeldCheck = { id: row.id, runId, eins, done: 0, counts: {}, resultCsv: null, createdAt: row.createdAt };
  runApart((signal) => runHeldCheck(db, held, actor.log, { signal }));
  return view(row);
}

/**
 * One check's progress and counts (docs/irs-standing.md "Checking a list of EINs").
 * @param scope whose checks the caller sees
 * @throws HttpError 404 for an unknown id, or a check outside `scope`
 */
export async function getBulkCheck(db: Db, id: number, scope: BulkCheckScope): Promise<IrsBulkCheck> {
  const [row] = await db.select(SHOWN).from(irsBulkChecks).where(withinScope(id, scope));
  if (!row) throw notFound(CHECK);
  return view(row);
}

/**
 * The latest IRS_BULK_CHECKS_LISTED checks, newest first, and how long a finished one is kept.
 * Reads only.
 * @param keptDays days a check is kept after it finished (RETAIN_BULK_CHECK_DAYS); 0 for for good
 * @param scope whose checks the caller sees
 * @returns the checks, and `kept_days` (null when kept for good)
 */
export async function listBulkChecks(db: Db, keptDays: number, scope: BulkCheckScope): Promise<IrsBulkCheckList> {
  const rows = await db
    .select(SHOWN)
    .from(irsBulkChecks)
    .where(scope.groupId === null ? undefined : eq(irsBulkChecks.groupId, scope.groupId))
    .orderBy(desc(irsBulkChecks.createdAt), desc(irsBulkChecks.id))
    .limit(IRS_BULK_CHECKS_LISTED);
  return { data: rows.map(view), kept_days: keptDays || null };
}

/**
 * A finished check's result CSV and a file name for it, e.g. 'ein-standings-12.csv'.
 * @param scope whose checks the caller sees
 * @throws HttpError 404 for an unknown id or a check outside `scope`, 409 while it runs or when it failed
 */
export async function bulkCheckResult(
  db: Db,
  id: number,
  scope: BulkCheckScope,
): Promise<{ csv: string; fileName: string }> {
  const [row] = await db
    .select({ status: irsBulkChecks.status, csv: irsBulkChecks.resultCsv })
    .from(irsBulkChecks)
    .where(withinScope(id, scope));
  if (!row) throw notFound(CHECK);
  if (row.status !== 'done' || row.csv === null) throw new HttpError(409, 'The check has not finished.');
  return { csv: row.csv, fileName: `ein-standings-${id}.csv` };
}
