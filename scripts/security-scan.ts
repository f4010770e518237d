// `npm run test:security` (docs/requirements/platform.md §5.9): sqlmap and wapiti against the real server on
// 127.0.0.1, then the in-process security tests (tests/integration/security-*.test.ts).
// Options: --only sqlmap,wapiti,tests (a comma list), --target TEXT (only the sqlmap targets whose
// name contains TEXT), --keep (keep the work folder).
// Exits non-zero on any finding that scripts/security/accepted-findings.json (explained in
// docs/security.md) does not list, or on a failed test. Writes test-results/security-scan.json, and
// the reports of runs with such a finding under test-results/security-scan/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PAGES } from '../src/shared/routes.ts';
import { judge, loadAccepted, type Finding } from './security/findings.ts';
import { startGuardProxy } from './security/guard-proxy.ts';
import { formatCounts, totalOf } from './security/run-tool.ts';
import {
  SCAN_SERVER_ENV,
  SCAN_USERS,
  clientHeaders,
  signedInSession,
  startScanServer,
  visitorSession,
  type ScanSession,
} from './security/server.ts';
import {
  SQLMAP_OPTIONS,
  checkReachesHandler,
  runSqlmap,
  type SqlmapResult,
  type SqlmapTarget,
} from './security/sqlmap.ts';
import { WAPITI_MODULES, reachFindings, runWapiti, type WapitiResult } from './security/wapiti.ts';

const ALLOWLIST = 'scripts/security/accepted-findings.json';
const DOC = 'docs/security.md';
const SQLMAP_TIME_LIMIT_S = 600;
const SQLMAP_PARALLEL = 3;
const WAPITI_LIMITS = { scanS: 300, attackS: 90 };

const argv = process.argv.slice(2);
const onlyArg = argv.find((a, i) => argv[i - 1] === '--only') ?? argv.find((a) => a.startsWith('--only='))?.slice(7);
const parts = new Set((onlyArg ?? 'sqlmap,wapiti,tests').split(','));
const keep = argv.includes('--keep');
const targetFilter = argv.find((a, i) => argv[i - 1] === '--target');
const log = (msg: string) => console.log(msg);
const seconds = (from: number) => Math.round((performance.now() - from) / 1000);

/** Installs Debian's sqlmap and wapiti when either command is missing (apt-get, as root or through sudo). */
function ensureScanners(): Record<string, string> {
  const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  const missing = ['sqlmap', 'wapiti'].filter((c) => !has(c));
  if (missing.length) {
    log(`Installing ${missing.join(' and ')} from Debian's packages…`);
    const asRoot = process.getuid?.() === 0;
    const run = (args: string[]) =>
      spawnSync(asRoot ? args[0] : 'sudo', asRoot ? args.slice(1) : args, {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    run(['apt-get', 'update']);
    if (run(['apt-get', 'install', '-y', 'sqlmap', 'wapiti']).status !== 0 || missing.some((c) => !has(c))) {
      throw new Error('Could not install sqlmap and wapiti (apt-get install -y sqlmap wapiti)');
    }
  }
  const version = (cmd: string, args: string[]) => {
    const out = spawnSync(cmd, args, { encoding: 'utf8' });
    return `${out.stdout}${out.stderr}`.match(/(\d+\.\d+\.\d+)/)?.[1] ?? 'unknown';
  };
  return { sqlmap: version('sqlmap', ['--version']), wapiti: version('wapiti', ['--version']) };
}

/** JSON body of a GET answered 200, for the ids and hashes the targets need. */
async function getJson<T>(base: string, urlPath: string, session: ScanSession): Promise<T> {
  const res = await fetch(base + urlPath, { headers: clientHeaders(session) });
  if (res.status !== 200) throw new Error(`GET ${urlPath} answered ${res.status}`);
  return (await res.json()) as T;
}

async function postJson<T>(base: string, urlPath: string, session: ScanSession, body: unknown): Promise<T> {
  const res = await fetch(base + urlPath, {
    method: 'POST',
    headers: { ...clientHeaders(session), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`POST ${urlPath} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const STANDARD_BYLAWS = {
  version: 'standard',
  name: 'Lincoln High Boosters',
  purpose: 'To support the students and teams of Lincoln High School.',
  fiscal_year_end: '5',
  is_highlighted: 1,
  facility: 'Lincoln High School',
  meeting_attendee_minimum: '1/10',
  meeting_request_minimum: '1/5',
  nomination_month: '3',
  annual_meeting_month: '4',
  is_school: 0,
};
const SHORT_BYLAWS = {
  version: 'short',
  name: 'Lincoln High Boosters',
  purpose: 'To support the students of Lincoln High School.',
  fiscal_year_end: '5',
  is_highlighted: 1,
};

/**
 * Every public form the web client posts (docs/requirements/permissions.md) with a valid body, the subordinate search, the
 * public reads keyed by id or hash, and the admin accounts search (the other free-text search).
 */
async function sqlmapTargets(base: string, admin: ScanSession): Promise<SqlmapTarget[]> {
  // Each target has a visitor session of its own, so targets running side by side cannot meet.
  const sessions = await Promise.all(Array.from({ length: 15 }, () => visitorSession(base)));
  const visitor = () => sessions.pop()!;
  const { levels } = await getJson<{ levels: { id: number }[] }>(base, '/api/pricing', admin);
  const search = await getJson<{ data: { id: number }[] }>(
    base,
    '/search?search=verify-501c3&keyword=lincoln&page=1',
    admin,
  );
  const bylawOf = async (session: ScanSession) =>
    (await postJson<{ bylaw: { hash: string } }>(base, '/bylaws-generator/short', session, SHORT_BYLAWS)).bylaw.hash;
  const [saver, reader] = [visitor(), visitor()];
  const [savedHash, readHash] = [await bylawOf(saver), await bylawOf(reader)];
  const person = { name: 'Pat Scanner', email: 'pat.scanner@example.com' };
  const received = 'has been received';
  return [
    {
      name: 'POST /contact',
      method: 'POST',
      path: '/contact',
      session: visitor(),
      expect: { status: 201, contains: received },
      json: {
        ...person,
        organization: 'Lincoln High Boosters',
        subject: 'General question',
        message: 'When is our Form 990 due?',
      },
    },
    {
      name: 'POST /compliance-check',
      method: 'POST',
      path: '/compliance-check',
      session: visitor(),
      expect: { status: 201, contains: received },
      json: {
        ...person,
        phone: '(555) 010-2030',
        organization: 'Lincoln High Boosters',
        ein: '12-3456789',
        group_id: '5271',
      },
    },
    {
      name: 'POST /multi-chapter',
      method: 'POST',
      path: '/multi-chapter',
      session: visitor(),
      expect: { status: 201, contains: received },
      json: {
        ...person,
        phone: '(555) 010-2030',
        organization: 'Alpha Chapters',
        affiliates: 12,
        regions: 'regional',
        concerns: 'State registrations',
      },
    },
    {
      name: 'POST /campus-report',
      method: 'POST',
      path: '/campus-report',
      session: visitor(),
      expect: { status: 201, contains: received },
      json: { email: person.email, organization: 'State University' },
    },
    {
      name: 'POST /ratings',
      method: 'POST',
      path: '/ratings',
      session: visitor(),
      expect: { status: 201, contains: 'Thank you' },
      json: { url: '/pricing', rating: 4, reason: 'Clear prices' },
    },
    // The demo holder's address: the service hashes the password, then finds the address taken.
    {
      name: 'POST /application/start',
      method: 'POST',
      path: '/application/start',
      session: visitor(),
      expect: { status: 422, contains: 'already uses this e-mail' },
      json: { email: SCAN_USERS.holder.email, password: 'Scan-pass-2026', level_id: levels[0].id },
    },
    {
      name: 'POST /password/forgot',
      method: 'POST',
      path: '/password/forgot',
      session: visitor(),
      expect: { status: 200, contains: 'If an account exists' },
      json: { email: SCAN_USERS.holder.email },
    },
    {
      name: 'POST /password/reset',
      method: 'POST',
      path: '/password/reset',
      session: visitor(),
      expect: { status: 422, contains: 'link is invalid' },
      json: {
        token: '0123456789abcdef0123456789abcdef',
        email: SCAN_USERS.holder.email,
        password: 'New-pass-2026',
        password_confirmation: 'New-pass-2026',
      },
    },
    {
      name: 'POST /login',
      method: 'POST',
      path: '/login',
      session: visitor(),
      expect: { status: 200, contains: 'redirect' },
      json: { email: SCAN_USERS.holder.email, password: SCAN_USERS.holder.password },
      testHeaders: true,
    },
    {
      name: 'POST /bylaws-generator',
      method: 'POST',
      path: '/bylaws-generator',
      session: visitor(),
      expect: { status: 201, contains: '"hash"' },
      json: STANDARD_BYLAWS,
    },
    {
      name: 'PUT /bylaws-generator/{hash}',
      method: 'PUT',
      path: `/bylaws-generator/${savedHash}*`,
      session: saver,
      expect: { status: 200, contains: savedHash },
      json: SHORT_BYLAWS,
    },
    // The video contest keeps entries past the three that count (the photo contest answers 401).
    {
      name: 'POST /contests/video',
      method: 'POST',
      path: '/contests/video',
      session: visitor(),
      expect: { status: 201, contains: '"id"' },
      multipart: {
        organization: 'Lincoln High Boosters',
        email: person.email,
        type: '',
        message: 'Go team',
        is_member: '1',
      },
    },
    {
      name: 'GET /search',
      method: 'GET',
      path: '/search?search=verify-501c3&keyword=lincoln&page=1',
      session: visitor(),
      expect: { status: 200, contains: '"data"' },
      testCookies: true,
      testHeaders: true,
    },
    {
      name: 'GET /api/accounts/{id}/public',
      method: 'GET',
      path: `/api/accounts/${search.data[0].id}*/public`,
      session: visitor(),
      expect: { status: 200, contains: '"name"' },
    },
    {
      name: 'GET /api/bylaws/{hash}',
      method: 'GET',
      path: `/api/bylaws/${readHash}*`,
      session: reader,
      expect: { status: 200, contains: readHash },
    },
    {
      name: 'GET /api/admin/accounts',
      method: 'GET',
      path: '/api/admin/accounts?search=lincoln&level=&status=&renewal_due=&page=1',
      session: admin,
      expect: { status: 200, contains: '"data"' },
    },
  ];
}

/** Start URLs for wapiti: every page of src/shared/routes.ts for `access`, plus JSON reads with queries. */
function pageUrls(base: string, access: 'visitor' | 'signed-in' | 'staff', ids: Record<string, string>): string[] {
  return PAGES.filter((p) => p.access === access).map(
    (p) => base + p.path.replace(/:(\w+)/g, (_m, name: string) => ids[name] ?? '1'),
  );
}

async function main() {
  const started = performance.now();
  const versions = ensureScanners();
  log(`sqlmap ${versions.sqlmap}, wapiti ${versions.wapiti}`);
  if ((parts.has('sqlmap') || parts.has('wapiti')) && !fs.existsSync('dist/web/index.html')) {
    log('Building the web client (dist/web is missing)…');
    if (spawnSync(process.execPath, ['scripts/build.mjs', '--quiet'], { stdio: 'inherit' }).status !== 0)
      throw new Error('the build failed');
  }

  const accepted = loadAccepted(ALLOWLIST, DOC);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-security-'));
  const findings: Finding[] = [];
  const sqlmapResults: SqlmapResult[] = [];
  const wapitiResults: WapitiResult[] = [];
  let scanSeconds = 0;

  if (parts.has('sqlmap') || parts.has('wapiti')) {
    const scanStarted = performance.now();
    const server = await startScanServer(workDir);
    log(`Server ${server.base} (pid ${server.pid}), data in ${workDir}`);
    try {
      const visitor = await visitorSession(server.base);
      const admin = await signedInSession(server.base, SCAN_USERS.admin.email, SCAN_USERS.admin.password);

      if (parts.has('sqlmap')) {
        const targets = (await sqlmapTargets(server.base, admin)).filter(
          (t) => !targetFilter || t.name.includes(targetFilter),
        );
        for (const target of targets) await checkReachesHandler(server.base, target);
        const sqlmapStarted = performance.now();
        // sqlmap sends its detection requests one at a time, so several targets run side by side.
        const results: SqlmapResult[] = new Array(targets.length);
        let next = 0;
        await Promise.all(
          Array.from({ length: SQLMAP_PARALLEL }, async () => {
            while (next < targets.length) {
              const i = next++;
              const result = await runSqlmap(server.base, targets[i], workDir, i + 1, SQLMAP_TIME_LIMIT_S);
              results[i] = result;
              log(
                `sqlmap  ${result.target.padEnd(32)} ${String(Math.round(result.seconds)).padStart(4)} s  ${String(result.requests).padStart(6)} requests  ${formatCounts(result.statuses)}  ${result.findings.length ? `FINDINGS: ${result.findings.length}` : 'clean'}`,
              );
            }
          }),
        );
        sqlmapResults.push(...results);
        for (const r of results) findings.push(...r.findings);
        const all: Record<string, number> = {};
        for (const r of results) for (const [code, n] of Object.entries(r.statuses)) all[code] = (all[code] ?? 0) + n;
        log(
          `sqlmap  ${`all ${results.length} targets`.padEnd(32)} ${String(seconds(sqlmapStarted)).padStart(4)} s  ${String(totalOf(all)).padStart(6)} requests  ${formatCounts(all)}`,
        );
      }

      if (parts.has('wapiti')) {
        const { levels } = await getJson<{ levels: { id: number }[] }>(server.base, '/api/pricing', visitor);
        const bylaw = await postJson<{ bylaw: { hash: string } }>(
          server.base,
          '/bylaws-generator/short',
          visitor,
          SHORT_BYLAWS,
        );
        const hash = bylaw.bylaw.hash;
        const b = server.base;
        const ids = { hash, token: 'AbCdEfGhIjKlMnOpQrSt', id: '1', accountId: '1' };
        const visitorUrls = [
          ...pageUrls(b, 'visitor', ids),
          `${b}/login?next=%2Faccount`,
          `${b}/password/reset/AbCdEfGhIjKlMnOpQrSt?email=pat.scanner%40example.com`,
          `${b}/search?search=verify-501c3&keyword=lincoln&page=1`,
          `${b}/routing-numbers/data.json?rn=111000025&callback=showBank`,
          `${b}/api/accounts/1/public`,
          `${b}/api/bylaws/${hash}`,
          `${b}/api/bylaws/${hash}/document`,
          `${b}/bylaws-generator/download/${hash}`,
          `${b}/api/pricing`,
          `${b}/api/state-requirements`,
          `${b}/api/session`,
        ];
        const adminUrls = [
          ...pageUrls(b, 'signed-in', ids),
          ...pageUrls(b, 'staff', ids),
          `${b}/api/admin/accounts?search=lincoln&level=${levels[0].id}&status=&renewal_due=&page=1`,
          `${b}/api/admin/accounts/1`,
          `${b}/api/admin/audit?account_id=1&action=auth.&page=1`,
          `${b}/api/admin/inquiries?kind=contact&status=new&page=1`,
          `${b}/api/admin/payments?status=&method=&page=1`,
          `${b}/api/admin/invoices/open?overdue=30&page=1`,
          `${b}/api/admin/discounts?page=1`,
          `${b}/api/admin/outbox?page=1`,
          `${b}/api/admin/compliance/risk?page=1`,
          `${b}/api/admin/contests/photo/entries?page=1&counted=yes`,
          `${b}/api/account/renewal?account_id=1`,
          `${b}/api/account/calendar?account_id=1`,
          `${b}/api/payments/screen?account_id=1`,
          `${b}/api/finances?account_id=1`,
          `${b}/app/account/users/json?account_id=1`,
        ];
        const proxy = await startGuardProxy(b);
        for (const scan of [
          { label: 'visitor', startUrls: visitorUrls },
          { label: 'admin', startUrls: adminUrls, session: admin },
        ]) {
          const mark = server.logMark();
          const result = await runWapiti(b, scan, workDir, WAPITI_LIMITS, proxy.url);
          const byRoute = server.statusesSince(mark);
          for (const counts of byRoute.values()) {
            for (const [code, n] of Object.entries(counts)) result.statuses[code] = (result.statuses[code] ?? 0) + n;
          }
          result.findings.push(...reachFindings(scan.label, byRoute));
          wapitiResults.push(result);
          findings.push(...result.findings);
          log(
            `wapiti  ${scan.label.padEnd(32)} ${String(Math.round(result.seconds)).padStart(4)} s  ${String(totalOf(result.statuses)).padStart(6)} requests  ${formatCounts(result.statuses)}  ${result.resources} URLs  ${result.findings.length ? `findings: ${result.findings.length}` : 'clean'}`,
          );
        }
        await proxy.close();
        for (const host of proxy.refused()) {
          findings.push({
            tool: 'wapiti',
            key: `wapiti outside-traffic ${host}`,
            detail: 'wapiti asked the guard proxy for another host (refused)',
          });
        }
      }

      for (const line of server.errorLines()) {
        const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? 'error';
        findings.push({ tool: 'server', key: `server logged: ${msg}`, detail: line.slice(0, 500) });
      }
    } finally {
      await server.stop();
    }
    scanSeconds = seconds(scanStarted);
  }

  const verdict = judge(findings, accepted);
  log(`\n=== Scanner findings (${seconds(started)} s) ===`);
  for (const f of verdict.accepted) log(`  accepted     ${f.key}\n               ${f.reason}`);
  for (const f of verdict.unexplained) log(`  UNEXPLAINED  ${f.key}\n               ${f.detail}`);
  for (const a of verdict.unused) log(`  (not seen this run: ${a.key})`);
  log(`${verdict.unexplained.length} unexplained, ${verdict.accepted.length} accepted (${DOC})`);

  let testsOk = true;
  let testSeconds = 0;
  if (parts.has('tests')) {
    const testStarted = performance.now();
    log('\n=== In-process security tests (tests/integration/security-*.test.ts) ===');
    const files = fs
      .readdirSync('tests/integration')
      .filter((f) => /^security-.*\.test\.ts$/.test(f))
      .map((f) => `tests/integration/${f}`);
    if (files.length === 0) {
      log('No tests/integration/security-*.test.ts found.');
      testsOk = false;
    } else {
      testsOk =
        spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', 'integration', ...files], {
          stdio: 'inherit',
          env: { ...process.env, TEST_DATABASE_URL: '' },
        }).status === 0;
    }
    testSeconds = seconds(testStarted);
  }

  // The reports of every run with a finding are kept for reading after the work folder is gone.
  const artifacts = 'test-results/security-scan';
  fs.rmSync(artifacts, { recursive: true, force: true });
  for (const run of [
    ...sqlmapResults.map((r) => ({ name: r.target, dir: r.dir, findings: r.findings })),
    ...wapitiResults.map((r) => ({ name: `wapiti ${r.label}`, dir: r.dir, findings: r.findings })),
  ]) {
    if (run.findings.some((f) => !verdict.accepted.some((a) => a.key === f.key)) && fs.existsSync(run.dir)) {
      fs.cpSync(
        run.dir,
        path.join(
          artifacts,
          path.basename(path.dirname(run.dir)) === 'sqlmap'
            ? `sqlmap-${path.basename(run.dir)}`
            : path.basename(run.dir),
        ),
        { recursive: true },
      );
    }
  }
  fs.mkdirSync('test-results', { recursive: true });
  fs.writeFileSync(
    'test-results/security-scan.json',
    JSON.stringify(
      {
        versions,
        server: SCAN_SERVER_ENV,
        sqlmapOptions: SQLMAP_OPTIONS,
        wapitiModules: WAPITI_MODULES,
        wapitiLimits: WAPITI_LIMITS,
        seconds: { total: seconds(started), scanners: scanSeconds, tests: testSeconds },
        sqlmap: sqlmapResults,
        wapiti: wapitiResults,
        accepted: verdict.accepted,
        unexplained: verdict.unexplained,
        testsOk,
      },
      null,
      2,
    ),
  );
  if (keep) log(`Work folder kept: ${workDir}`);
  else fs.rmSync(workDir, { recursive: true, force: true });

  const ok = verdict.unexplained.length === 0 && testsOk;
  log(
    `\nSecurity: ${ok ? 'passed' : 'FAILED'} in ${seconds(started)} s (scanners ${scanSeconds} s, tests ${testSeconds} s); ${verdict.unexplained.length} unexplained findings${parts.has('tests') ? `, tests ${testsOk ? 'passed' : 'failed'}` : ''}`,
  );
  process.exit(ok ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
