import pg from 'pg';
import { adminDatabase, dropAdminDatabase, STAFF_EMAIL, STAFF_PASSWORD } from './admin-seed.ts';
import { signIn } from './lib/apps.ts';
import { log, percentile, round, runLoad, type LoadSummary } from './lib/load.ts';
import { startServer, withCpu, type ServerProcess, type ServerStats } from './lib/server-process.ts';
import type { ScaleReport } from '../src/server/db/seed/scale.ts';

/** Target of docs/benchmarks.md "Staff lists at scale": p99 of every staff list at 10 connections. */
const ADMIN_TARGET_P99_MS = 100;

/** One list under load: the product's address, and the bare query of the same rows (same filter, order and page size). */
interface AdminCase {
  list: 'accounts' | 'invoices' | 'payments' | 'inbox' | 'audit' | 'outbox';
  url: string;
  bareSql: string;
}

const STATUSES = "('paid', 'held', 'pending', 'declined', 'failed', 'voided', 'refunded')";

/**
 * Each list with a search and a sort other than its default, then browsed with a sort only (the
 * audit log also by actor, by account with a search and by action; accounts by level name). The
 * words are common in seed-scale's data (a mascot, a town, a surname, a mail subject), so each
 * search matches thousands of rows: the page still has to be found among them.
 */
const ADMIN_CASES: AdminCase[] = [
  {
    list: 'accounts',
    url: '/api/admin/accounts?search=eagles&sort=-created_at',
    bareSql: `SELECT a.id, a.name, a.ein, a.city, a.state, a.level_id, a.renewal_due_at FROM accounts a
      WHERE a.is_listed = false AND a.source <> 'irs-bmf' AND a.search_text LIKE '%eagles%' ORDER BY a.created_at DESC, a.id DESC LIMIT 20`,
  },
  {
    list: 'accounts',
    url: '/api/admin/accounts?sort=renewal_due_at&page=3',
    bareSql: `SELECT a.id, a.name, a.ein, a.city, a.state, a.level_id, a.renewal_due_at FROM accounts a
      WHERE a.is_listed = false AND a.source <> 'irs-bmf' ORDER BY a.renewal_due_at, a.id LIMIT 20 OFFSET 40`,
  },
  {
    list: 'invoices',
    url: '/api/admin/invoices/open?search=springfield&sort=-balance_cents',
    bareSql: `SELECT i.id, i.number, i.document_at, i.value_cents, i.balance_cents, a.id AS account_id, a.name FROM invoices i
      JOIN accounts a ON a.id = i.account_id WHERE i.balance_cents > 0 AND a.search_text LIKE '%springfield%' ORDER BY i.balance_cents DESC, i.id DESC LIMIT 25`,
  },
  {
    list: 'invoices',
    url: '/api/admin/invoices/open?sort=-document_at',
    bareSql: `SELECT i.id, i.number, i.document_at, i.value_cents, i.balance_cents, a.id AS account_id, a.name FROM invoices i
      JOIN accounts a ON a.id = i.account_id WHERE i.balance_cents > 0 ORDER BY i.document_at DESC, i.id DESC LIMIT 25`,
  },
  {
    list: 'payments',
    url: '/api/admin/payments?search=tigers&sort=-amount_cents',
    bareSql: `SELECT p.*, a.name AS account_name FROM payments p JOIN accounts a ON a.id = p.account_id
      WHERE p.status IN ${STATUSES} AND a.search_text LIKE '%tigers%' ORDER BY p.amount_cents DESC, p.id DESC LIMIT 25`,
  },
  {
    list: 'payments',
    url: '/api/admin/payments?sort=-created_at&page=2',
    bareSql: `SELECT p.*, a.name AS account_name FROM payments p JOIN accounts a ON a.id = p.account_id
      WHERE p.status IN ${STATUSES} ORDER BY p.created_at DESC, p.id DESC LIMIT 25 OFFSET 25`,
  },
  {
    list: 'inbox',
    url: '/api/admin/inquiries?search=smith&sort=name',
    bareSql: `SELECT id, kind, name, email, organization, is_handled, created_at FROM inquiries
      WHERE lower(name || ' ' || email || ' ' || organization) LIKE '%smith%' ORDER BY name, id LIMIT 25`,
  },
  {
    list: 'inbox',
    url: '/api/admin/inquiries?status=new&sort=-created_at',
    bareSql: `SELECT id, kind, name, email, organization, is_handled, created_at FROM inquiries
      WHERE is_handled = false ORDER BY created_at DESC, id DESC LIMIT 25`,
  },
  {
    list: 'audit',
    url: '/api/admin/audit?search=garcia&sort=-created_at',
    bareSql: `SELECT l.id, l.created_at, l.action, l.actor_user_id, u.email, l.account_id, a.name, l.details, l.ip FROM audit_log l
      LEFT JOIN users u ON u.id = l.actor_user_id LEFT JOIN accounts a ON a.id = l.account_id
      WHERE l.actor_user_id IN (SELECT su.id FROM users su WHERE lower(su.email) LIKE '%garcia%') ORDER BY l.id DESC LIMIT 50`,
  },
  {
    list: 'audit',
    url: '/api/admin/audit?sort=created_at&page=4',
    bareSql: `SELECT l.id, l.created_at, l.action, l.actor_user_id, u.email, l.account_id, a.name, l.details, l.ip FROM audit_log l
      LEFT JOIN users u ON u.id = l.actor_user_id LEFT JOIN accounts a ON a.id = l.account_id ORDER BY l.id LIMIT 50 OFFSET 150`,
  },
  {
    list: 'audit',
    url: '/api/admin/audit?sort=actor&page=3',
    bareSql: `SELECT l.id, l.created_at, l.action, l.actor_user_id, u.email, l.account_id, a.name, l.details, l.ip FROM audit_log l
      JOIN users u ON u.id = l.actor_user_id LEFT JOIN accounts a ON a.id = l.account_id ORDER BY u.email, l.id LIMIT 50 OFFSET 100`,
  },
  {
    list: 'audit',
    url: '/api/admin/audit?search=eagles&sort=-account',
    bareSql: `SELECT l.id, l.created_at, l.action, l.actor_user_id, u.email, l.account_id, a.name, l.details, l.ip FROM audit_log l
      JOIN accounts a ON a.id = l.account_id LEFT JOIN users u ON u.id = l.actor_user_id
      WHERE a.search_text LIKE '%eagles%' ORDER BY a.name DESC, a.id DESC, l.id DESC LIMIT 50`,
  },
  {
    list: 'audit',
    url: '/api/admin/audit?action=payment.&sort=-action&page=2',
    bareSql: `SELECT l.id, l.created_at, l.action, l.actor_user_id, u.email, l.account_id, a.name, l.details, l.ip FROM audit_log l
      LEFT JOIN users u ON u.id = l.actor_user_id LEFT JOIN accounts a ON a.id = l.account_id
      WHERE l.action LIKE 'payment.%' ORDER BY l.action DESC, l.id DESC LIMIT 50 OFFSET 50`,
  },
  {
    list: 'accounts',
    url: '/api/admin/accounts?sort=-level&page=2',
    bareSql: `SELECT a.id, a.name, a.ein, a.city, a.state, a.level_id, a.renewal_due_at FROM accounts a LEFT JOIN levels lv ON lv.id = a.level_id
      WHERE a.is_listed = false AND a.source <> 'irs-bmf' ORDER BY lv.name DESC, a.level_id DESC, a.id DESC LIMIT 20 OFFSET 20`,
  },
  {
    list: 'outbox',
    url: '/api/admin/outbox?search=receipt&sort=-created_at',
    bareSql: `SELECT id, kind, to_address, subject, status, attempts, created_at, sent_at FROM mail_outbox
      WHERE lower(to_address || ' ' || subject) LIKE '%receipt%' ORDER BY id DESC LIMIT 25`,
  },
  {
    list: 'outbox',
    url: '/api/admin/outbox?status=failed&sort=created_at',
    bareSql: `SELECT id, kind, to_address, subject, status, attempts, created_at, sent_at FROM mail_outbox
      WHERE status = 'failed' ORDER BY id LIMIT 25`,
  },
];

interface BareSummary {
  connections: number;
  durationS: number;
  requests: number;
  reqPerSec: number;
  latencyMs: { p50: number; p99: number; max: number };
}

interface AdminCaseResult {
  list: AdminCase['list'];
  url: string;
  /** Rows on the page and the page object's total (with total_is_capped) from one request before the load. */
  rows: number;
  total: number;
  totalIsCapped: boolean;
  full: LoadSummary & { cpu: { serverPct: number; loadGeneratorPct: number; wallS: number } };
  bare: BareSummary & { rows: number };
  /** full p99 / bare p99, and bare req/s / full req/s. */
  ratioP99: number;
  ratioReqPerSec: number;
  targetP99Ms: number;
  pass: boolean;
}

export interface AdminReport {
  skipped?: string;
  accounts?: number;
  schema?: string;
  seed?: ScaleReport & { cached: boolean };
  connections?: number;
  durationS?: number;
  cases?: AdminCaseResult[];
  /** Per list: worst p99 of its cases and whether every case passed. */
  lists?: Record<string, { worstP99Ms: number; pass: boolean }>;
  server?: ServerStats;
}

/**
 * Seconds each side is loaded at full concurrency before it is measured: a new PostgreSQL backend
 * answers its first queries far slower than later ones (it maps the shared page cache and fills
 * its catalog caches; 60 ms against 14 ms for the audit page on the recorded machine), so without
 * it the p99 would measure the pool opening its connections, not the list.
 */
const WARM_UP_S = 1;

/**
 * The bare baseline: `sql` run by `connections` node-postgres clients of `pool` (one pool for every
 * case, as the server keeps its own) in a loop for `durationS` seconds, after WARM_UP_S at the same
 * concurrency (each client waits for its answer before the next, like an autocannon connection).
 */
async function runBare(
  pool: pg.Pool,
  sql: string,
  connections: number,
  durationS: number,
): Promise<BareSummary & { rows: number }> {
  const first = await pool.query(sql);
  // Warm-up at full concurrency first, like the product's side (see WARM_UP_S).
  const warmEnd = performance.now() + WARM_UP_S * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < warmEnd) await pool.query(sql);
    }),
  );
  const latencies: number[] = [];
  const end = performance.now() + durationS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await pool.query(sql);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  return {
    connections,
    durationS: round(wall, 1),
    requests: latencies.length,
    reqPerSec: round(latencies.length / wall),
    latencyMs: {
      p50: round(percentile(latencies, 50), 1),
      p99: round(percentile(latencies, 99), 1),
      max: round(Math.max(...latencies), 1),
    },
    rows: first.rowCount ?? 0,
  };
}

/**
 * The staff lists at scale (docs/benchmarks.md "Staff lists at scale"): a private schema on the
 * PostgreSQL server at `url` seeded by seed-scale's code with `accounts` accounts (kept between
 * runs unless `fresh`; dropped afterwards when `drop`), the real server as a child process, a
 * staff user signed in, and each case of ADMIN_CASES loaded at `connections` connections for
 * `durationS` seconds, side by side with its bare query through node-postgres.
 */
export async function runAdminBench(opts: {
  url?: string;
  accounts: number;
  durationS: number;
  connections?: number;
  fresh?: boolean;
  drop?: boolean;
  profileDir?: string;
}): Promise<AdminReport> {
  if (!opts.url) return { skipped: 'no PostgreSQL URL (BENCH_DATABASE_URL or TEST_DATABASE_URL)' };
  const connections = opts.connections ?? 10;
  const { schema, seed } = await adminDatabase(opts.url, opts.accounts, opts.fresh ?? false);
  log(
    `[admin] schema ${schema}: ${seed.accounts} accounts, ${seed.auditRows} audit rows${seed.cached ? ' (cached)' : `, seeded in ${seed.seconds} s`}`,
  );
  let server: ServerProcess | undefined;
  const barePool = new pg.Pool({
    connectionString: opts.url,
    max: connections,
    options: `-c search_path=${schema},public`,
  });
  try {
    server = await startServer({
      mode: 'full',
      label: 'admin',
      database: { kind: 'postgres', url: opts.url, schema },
      profileDir: opts.profileDir,
    });
    const staff = await signIn(server.base, STAFF_EMAIL, STAFF_PASSWORD);
    const headers = { cookie: staff.cookie, 'x-requested-with': 'XMLHttpRequest' };
    const get = async (url: string) => {
      const res = await fetch(server!.base + url, { headers });
      const body = (await res.json()) as { data?: unknown[]; total?: number; total_is_capped?: boolean };
      if (res.status !== 200)
        throw new Error(`GET ${url} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      return body;
    };
    log('[admin] warm-up');
    for (const c of ADMIN_CASES) await get(c.url);
    const cases: AdminCaseResult[] = [];
    for (const c of ADMIN_CASES) {
      const first = await get(c.url);
      log(
        `[admin] ${c.url}: ${first.data?.length} rows of ${first.total}${first.total_is_capped ? '+' : ''}; ${connections} connections, ${opts.durationS} s`,
      );
      await runLoad({ url: server.base + c.url, connections, duration: WARM_UP_S, headers });
      const { result: load, cpu } = await withCpu(server, () =>
        runLoad({ url: server!.base + c.url, connections, duration: opts.durationS, headers }),
      );
      const bare = await runBare(barePool, c.bareSql, connections, opts.durationS);
      log(
        `[admin]   full ${load.reqPerSec} req/s, p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms; bare ${bare.reqPerSec} req/s, p50 ${bare.latencyMs.p50} ms, p99 ${bare.latencyMs.p99} ms`,
      );
      cases.push({
        list: c.list,
        url: c.url,
        rows: first.data?.length ?? 0,
        total: first.total ?? 0,
        totalIsCapped: first.total_is_capped === true,
        full: { ...load, cpu },
        bare,
        ratioP99: round(load.latencyMs.p99 / Math.max(bare.latencyMs.p99, 0.1), 1),
        ratioReqPerSec: round(bare.reqPerSec / Math.max(load.reqPerSec, 0.1), 1),
        targetP99Ms: ADMIN_TARGET_P99_MS,
        pass:
          load.latencyMs.p99 <= ADMIN_TARGET_P99_MS &&
          load.non2xx === 0 &&
          load.errors === 0 &&
          (first.data?.length ?? 0) > 0,
      });
    }
    const lists: AdminReport['lists'] = {};
    for (const c of cases) {
      const l = (lists[c.list] ??= { worstP99Ms: 0, pass: true });
      l.worstP99Ms = Math.max(l.worstP99Ms, c.full.latencyMs.p99);
      l.pass &&= c.pass;
    }
    const stats = await server.stop();
    server = undefined;
    return {
      accounts: opts.accounts,
      schema,
      seed,
      connections,
      durationS: opts.durationS,
      cases,
      lists,
      server: stats,
    };
  } finally {
    await server?.stop().catch((err) => log(`stop server: ${err}`));
    await barePool.end();
    if (opts.drop) {
      await dropAdminDatabase(opts.url, schema);
      log(`[admin] dropped schema ${schema}`);
    }
  }
}
