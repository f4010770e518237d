import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { formatLocalDateTime } from '../../../shared/rules/formats.ts';
import { batchedHits, type BatchedKey } from '../../db/batched-hits.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { limitCounters, paymentAlerts } from '../../db/schema.ts';
import { TooManyRequests } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { LIMIT_RULES, type LimitName, type LimitSettings } from './limit-rules.ts';
import type { Db } from '../../db/client.ts';

/** Who is acting when a limit is taken: written on the audit row and the staff alert of a refusal. */
export interface LimitActor {
  /** The signed-in user, or null for a visitor. */
  userId: number | null;
  /** The account acted on, when there is one. */
  accountId?: number | null;
  /** The client address (req.ip). */
  ip: string;
}

/** What a limit counts for: an account id, a client IP, or an e-mail address (compared in lower case). */
type Subject = number | string;

/** The counter's key: the limit's name and its subject. */
function counterKey(name: LimitName, subject: Subject): string {
  const rule = LIMIT_RULES[name];
  const value = rule.per === 'email' ? String(subject).trim().toLowerCase() : String(subject);
  return `${name}:${value}`;
}

/** A count of time as the refusals say it: "less than a minute", "1 minute", "42 minutes", "about 3 hours". */
function inWords(seconds: number): string {
  if (seconds < 60) return 'less than a minute';
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `about ${hours} hours`;
}

/**
 * The 429 of limit `name` whose window ends at `resetAt`: the rule's sentence, then when to try
 * again, e.g. "For your security, payments are paused after too many attempts. Please try again
 * after November 28, 2026 4:05 pm UTC (in 42 minutes)."
 */
function refusalOf(name: LimitName, resetAt: Date, now: Date): TooManyRequests {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  const at = formatLocalDateTime(resetAt);
  return new TooManyRequests(
    `${LIMIT_RULES[name].refusal} Please try again after ${at} UTC (in ${inWords(seconds)}).`,
    seconds,
  );
}

/**
 * Records the first refusal of a window (later ones in the same window write nothing): an audit
 * row 'limit.reached' with the rule, its subject, the count and the window's end, and for a
 * payment limit a 'possible_card_testing' staff alert (payment_alerts, one per window).
 */
async function recordFirstRefusal(
  db: Db,
  name: LimitName,
  subject: Subject,
  who: LimitActor,
  count: number,
  max: number,
  resetAt: Date,
): Promise<void> {
  const rule = LIMIT_RULES[name];
  const key = counterKey(name, subject);
  await db.transaction(async (tx) => {
    await recordAudit(tx, {
      actorUserId: who.userId,
      accountId: who.accountId ?? null,
      action: 'limit.reached',
      details: {
        rule: name,
        per: rule.per,
        subject: key.slice(name.length + 1),
        count,
        max,
        until: resetAt.toISOString(),
      },
      ip: who.ip,
    });
    if ('paymentAlert' in rule) {
      await tx
        .insert(paymentAlerts)
        .values({
          kind: 'possible_card_testing',
          rule: name,
          accountId: who.accountId ?? null,
          ip: who.ip,
          count,
          maxCount: max,
          windowKey: `${key}@${resetAt.toISOString()}`,
        })
        .onConflictDoNothing({ target: paymentAlerts.windowKey });
    }
  });
}

/** A key's counter after a batch of its hits: hits within the limit and refused in the window, when it ends, and now. */
interface CounterAfter {
  hits: number;
  refused: number;
  resetMs: number;
  nowMs: number;
}

/**
 * Counts a batch of hits of several limit counters in one atomic upsert (db/batched-hits.ts calls
 * it with the keys sorted). For each key with `n` hits under the limit `max`: a key with no row,
 * or whose window has ended, starts a new window with min(n, max) hits and the rest refused;
 * otherwise as many as fit under `max` are added to its hits and the rest to its refused. The
 * database's clock decides when a window ends.
 * @returns per key its counter after the batch
 */
async function countLimitBatch(
  db: Db,
  batch: BatchedKey<{ max: number; windowSeconds: number }>[],
): Promise<Map<string, CounterAfter>> {
  const json = JSON.stringify(batch.map((b) => ({ k: b.key, n: b.hits, m: b.params.max, w: b.params.windowSeconds })));
  // What fits under the limit of a running window: the same expression for hits and refused.
  const fits = sql`greatest(0, least(t.n, t.m - c.hits))`;
  const rows = await rowsOf<{ key: string; hits: number; refused: number; reset_ms: number; now_ms: number }>(
    db,
    sql`WITH t AS (SELECT * FROM json_to_recordset(${json}::json) AS t(k text, n int, m int, w int))
    INSERT INTO ${limitCounters} AS c (key, hits, refused, reset_at)
    SELECT t.k, least(t.n, t.m), greatest(t.n - t.m, 0), now() + make_interval(secs => t.w) FROM t
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN c.reset_at <= now() THEN excluded.hits
        ELSE c.hits + (SELECT ${fits} FROM t WHERE t.k = excluded.key) END,
      refused = CASE WHEN c.reset_at <= now() THEN excluded.refused
        ELSE c.refused + (SELECT t.n - ${fits} FROM t WHERE t.k = excluded.key) END,
      reset_at = CASE WHEN c.reset_at <= now() THEN excluded.reset_at ELSE c.reset_at END
    RETURNING key, hits, refused, (extract(epoch FROM reset_at) * 1000)::float8 AS reset_ms,
      (extract(epoch FROM now()) * 1000)::float8 AS now_ms`,
  );
  return new Map(
    rows.map((r) => [
      r.key,
      { hits: Number(r.hits), refused: Number(r.refused), resetMs: Number(r.reset_ms), nowMs: Number(r.now_ms) },
    ]),
  );
}

/** Each database's batched counter of limit hits: one upsert in flight, the hits arriving meanwhile in the next. */
const counters = new WeakMap<
  Db,
  ReturnType<typeof batchedHits<{ max: number; windowSeconds: number }, CounterAfter>>
>();

/**
 * Counts one hit of limit `name` for `subject` and refuses it past the limit (docs/security.md
 * "Limits on mail and payments"). Hits are counted by one atomic upsert on the counter rows, the
 * hits that arrive while one runs together in the next (db/batched-hits.ts), so hits arriving at
 * once on one or several servers are each counted once and at most `max` pass in a window; the
 * window starts with the subject's first hit and the database's clock decides when it ends. A
 * refused hit is not counted against the window, only as refused.
 * Call it outside any transaction: the count (and a refusal's audit row) must stay when the
 * request then fails.
 * Writes: limit_counters; on a window's first refusal audit_log 'limit.reached' and, for a payment
 * limit, payment_alerts.
 * @param settings config.limits (the configured maximum of each limit)
 * @throws TooManyRequests (429) past the limit, saying when to try again
 */
export async function takeLimit(
  db: Db,
  settings: LimitSettings,
  name: LimitName,
  subject: Subject,
  who: LimitActor,
): Promise<void> {
  let count = counters.get(db);
  if (!count) {
    count = batchedHits((batch: BatchedKey<{ max: number; windowSeconds: number }>[]) => countLimitBatch(db, batch));
    counters.set(db, count);
  }
  const max = settings[name];
  const { result, index, hits } = await count(counterKey(name, subject), {
    max,
    windowSeconds: LIMIT_RULES[name].windowSeconds,
  });
  // The batch's refused hits are its last ones: refused includes every one of them (and earlier ones).
  const refusedHere = Math.min(hits, result.refused);
  const passed = hits - refusedHere;
  if (index < passed) return;
  const resetAt = new Date(result.resetMs);
  // The window's first refusal is this batch's first refused hit, when no earlier batch refused one.
  if (index === passed && result.refused === refusedHere)
    await recordFirstRefusal(db, name, subject, who, max + 1, max, resetAt);
  throw refusalOf(name, resetAt, new Date(result.nowMs));
}

/**
 * {@link takeLimit} for each of `takes` in turn (limit name, subject), stopping at the first
 * refusal; a subject given as null or undefined is skipped (e.g. the client address of staff, whom
 * the per-address limits do not count).
 * Writes and throws what takeLimit does.
 */
export async function takeLimits(
  db: Db,
  settings: LimitSettings,
  takes: ReadonlyArray<readonly [LimitName, Subject | null | undefined]>,
  who: LimitActor,
): Promise<void> {
  for (const [name, subject] of takes) {
    if (subject !== null && subject !== undefined) await takeLimit(db, settings, name, subject, who);
  }
}

/**
 * Gives back one hit of each of `takes` taken by {@link takeLimits} for a request that turned out
 * not to be what the limit counts: a sign-in that succeeded is neither a failed sign-in nor a probe
 * of an address. A subject given as null or undefined is skipped, as takeLimits skips it.
 * Writes: limit_counters.
 */
export async function releaseLimitHits(
  db: Db,
  takes: ReadonlyArray<readonly [LimitName, Subject | null | undefined]>,
): Promise<void> {
  const keys = takes.flatMap(([name, subject]) =>
    subject === null || subject === undefined ? [] : [counterKey(name, subject)],
  );
  if (!keys.length) return;
  await db
    .update(limitCounters)
    .set({ hits: sql`greatest(${limitCounters.hits} - 1, 0)` })
    .where(and(inArray(limitCounters.key, keys), gt(limitCounters.resetAt, sql`now()`)));
}

/**
 * Refuses when limit `name` already counts `max` hits for `subject` in the current window, without
 * counting this request: for limits whose hits are counted after the outcome is known (payment
 * declines, failed sign-ins; {@link countLimitHit}).
 * Writes: limit_counters.refused; on a window's first refusal what {@link takeLimit} writes.
 * @throws TooManyRequests (429) when the limit is reached, saying when to try again
 */
export async function checkLimit(
  db: Db,
  settings: LimitSettings,
  name: LimitName,
  subject: Subject,
  who: LimitActor,
): Promise<void> {
  const max = settings[name];
  const [row] = await db
    .update(limitCounters)
    .set({ refused: sql`${limitCounters.refused} + 1` })
    .where(
      and(
        eq(limitCounters.key, counterKey(name, subject)),
        gt(limitCounters.resetAt, sql`now()`),
        sql`${limitCounters.hits} >= ${max}`,
      ),
    )
    .returning({ hits: limitCounters.hits, refused: limitCounters.refused, resetAt: limitCounters.resetAt });
  if (!row) return;
  if (row.refused === 1) await recordFirstRefusal(db, name, subject, who, row.hits, max, row.resetAt);
  throw refusalOf(name, row.resetAt, new Date());
}

/**
 * Counts one hit of limit `name` for `subject` without refusing it: a payment declined, a sign-in
 * that failed. The next {@link checkLimit} refuses once `max` are counted.
 * Writes: limit_counters.
 */
export async function countLimitHit(db: Db, name: LimitName, subject: Subject): Promise<void> {
  const windowSeconds = LIMIT_RULES[name].windowSeconds;
  await db.execute(sql`
    INSERT INTO ${limitCounters} AS c (key, hits, refused, reset_at)
    VALUES (${counterKey(name, subject)}, 1, 0, now() + make_interval(secs => ${windowSeconds}))
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN c.reset_at <= now() THEN 1 ELSE c.hits + 1 END,
      refused = CASE WHEN c.reset_at <= now() THEN 0 ELSE c.refused END,
      reset_at = CASE WHEN c.reset_at <= now() THEN excluded.reset_at ELSE c.reset_at END`);
}

/**
 * Deletes the counters whose window has ended (the housekeeping job, docs/jobs.md).
 * @returns how many rows were deleted
 */
export async function sweepLimitCounters(db: Db): Promise<number> {
  const gone = await db
    .delete(limitCounters)
    .where(lt(limitCounters.resetAt, sql`now()`))
    .returning({ key: limitCounters.key });
  return gone.length;
}
