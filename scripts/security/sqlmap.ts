import fs from 'node:fs';
import path from 'node:path';
import { formatCounts, runTool, totalOf, type StatusCounts } from './run-tool.ts';
import { clientHeaders, cookieHeader, type ScanSession } from './server.ts';
import type { Finding } from './findings.ts';

/** One request sqlmap starts from: a form as the web client sends it, or a read with a query. */
export interface SqlmapTarget {
  /** 'POST /contact': the finding key's middle part. */
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Path and query; a `*` marks an injection point inside the path (sqlmap's custom marker). */
  path: string;
  session: ScanSession;
  json?: Record<string, unknown>;
  /** Text fields sent as multipart/form-data (the contest forms). */
  multipart?: Record<string, string>;
  /** What the untouched request must answer, proving it passes rate limit, CSRF and captcha. */
  expect: { status: number; contains: string };
  /** Also inject into the session cookies (only where no CSRF token is bound to them). */
  testCookies?: boolean;
  /**
   * Also inject into User-Agent and Referer (level 3 adds them): only where the server reads one
   * (sign-in stores the User-Agent with the session) and in the search, as the sample GET.
   */
  testHeaders?: boolean;
}

/** sqlmap's settings for every target (docs/security.md: level 3, risk 2). */
export const SQLMAP_OPTIONS = [
  '--level',
  '3',
  '--risk',
  '2',
  '--dbms',
  'PostgreSQL',
  '--threads',
  '4',
  '--batch',
  '--disable-coloring',
  '--parse-errors',
  '--drop-set-cookie',
];

const BOUNDARY = '----GoodStandingScanBoundary7MA4YWxk';

function multipartBody(fields: Record<string, string>): string {
  return (
    Object.entries(fields)
      .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${BOUNDARY}--\r\n`
  );
}

function bodyOf(target: SqlmapTarget): { body?: string; contentType?: string } {
  if (target.json) return { body: JSON.stringify(target.json), contentType: 'application/json' };
  if (target.multipart)
    return { body: multipartBody(target.multipart), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
  return {};
}

/**
 * Sends the target's request once, unchanged, as the web client would.
 * @throws when the answer is not the expected status and text (a 419 or 429 would mean the
 *   scanner's requests stop before the handler and the scan proves nothing)
 */
export async function checkReachesHandler(base: string, target: SqlmapTarget): Promise<void> {
  const { body, contentType } = bodyOf(target);
  const res = await fetch(base + target.path.replace('*', ''), {
    method: target.method,
    headers: { ...clientHeaders(target.session), ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  });
  const text = await res.text();
  if (res.status !== target.expect.status || !text.includes(target.expect.contains)) {
    throw new Error(
      `${target.name}: the sample request answered ${res.status} ${text.slice(0, 300)}; expected ${target.expect.status} with "${target.expect.contains}"`,
    );
  }
}

export interface SqlmapResult {
  target: string;
  /** sqlmap's output, traffic log and results for this target. */
  dir: string;
  seconds: number;
  requests: number;
  statuses: StatusCounts;
  findings: Finding[];
}

/** HTTP status of every response in sqlmap's traffic log (-t). */
function statusesOf(trafficFile: string): StatusCounts {
  const counts: StatusCounts = {};
  if (!fs.existsSync(trafficFile)) return counts;
  for (const m of fs.readFileSync(trafficFile, 'utf8').matchAll(/^HTTP response \[#\d+\] \((\d{3})/gm)) {
    counts[m[1]] = (counts[m[1]] ?? 0) + 1;
  }
  return counts;
}

/** Rows of sqlmap's results CSV (multiple-targets mode): one per injection point found. */
function injectionsOf(outputDir: string): { place: string; parameter: string; techniques: string }[] {
  const rows: { place: string; parameter: string; techniques: string }[] = [];
  for (const file of fs.readdirSync(outputDir).filter((f) => f.startsWith('results-') && f.endsWith('.csv'))) {
    const lines = fs.readFileSync(path.join(outputDir, file), 'utf8').split(/\r?\n/).slice(1).filter(Boolean);
    for (const line of lines) {
      const [, place = '', parameter = '', techniques = ''] = line.split(',');
      rows.push({ place, parameter, techniques });
    }
  }
  return rows;
}

/**
 * What sqlmap counts as the "true" answer: the target's expected answer, or a refusal for length.
 * A length limit decides before any SQL, yet sqlmap's true and false payloads differ in length by
 * a few characters (random letters spelled as CHR(..) of two or three digits), so near a field's
 * limit one of a pair can be refused and the other not, which sqlmap would read as a boolean
 * injection; counting the refusal as "true" takes that noise out without hiding an answer that
 * depends on SQL. Comparing with this pattern also keeps the new id in each answer from reading
 * as instability.
 */
function trueAnswer(target: SqlmapTarget): string {
  const escaped = target.expect.contains.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `${escaped}|(must|may) not be greater than \\d+ characters`;
}

/**
 * Runs sqlmap against one target (level 3, risk 2, PostgreSQL payloads, the session's cookies and
 * CSRF token as fixed headers, Set-Cookie ignored so the token stays valid) and reads its reports.
 * Findings: every injection point in sqlmap's results CSV or output, every 5xx answer, and a run
 * where the handler was not reached (419/429 for more than 1 % of requests) or that timed out.
 * Writes sqlmap's output, traffic log and session under `workDir/sqlmap/<n>`.
 */
export async function runSqlmap(
  base: string,
  target: SqlmapTarget,
  workDir: string,
  index: number,
  timeLimitS: number,
): Promise<SqlmapResult> {
  const dir = path.join(workDir, 'sqlmap', String(index).padStart(2, '0'));
  fs.mkdirSync(dir, { recursive: true });
  const traffic = path.join(dir, 'traffic.txt');
  const { body, contentType } = bodyOf(target);
  const headers = clientHeaders(target.session);
  const skipped = [
    ...(target.testCookies ? [] : target.session.cookies.keys()),
    ...(target.testHeaders ? [] : ['User-Agent', 'Referer']),
  ];
  const args = [
    '-u',
    base + target.path,
    '--method',
    target.method,
    ...(body !== undefined ? ['--data', body] : []),
    '--cookie',
    cookieHeader(target.session),
    '-H',
    `X-CSRF-TOKEN: ${headers['x-csrf-token']}`,
    '-H',
    'X-Requested-With: XMLHttpRequest',
    '-H',
    'Accept: application/json',
    ...(contentType && !target.json ? ['-H', `Content-Type: ${contentType}`] : []),
    ...SQLMAP_OPTIONS,
    '--regexp',
    trueAnswer(target),
    ...(skipped.length ? ['--skip', skipped.join(',')] : []),
    '--output-dir',
    dir,
    '-t',
    traffic,
  ];
  const run = await runTool('sqlmap', args, { logFile: path.join(dir, 'sqlmap.log'), timeLimitS });
  const statuses = statusesOf(traffic);
  const requests = totalOf(statuses);
  const findings: Finding[] = [];
  const add = (what: string, detail: string) =>
    findings.push({ tool: 'sqlmap', key: `sqlmap ${target.name} ${what}`, detail });

  for (const row of injectionsOf(dir)) add(`${row.place} ${row.parameter}`, `injectable (${row.techniques})`);
  for (const m of run.output.matchAll(/parameter '([^']+)' is '([^']+)' injectable/g)) {
    if (!findings.some((f) => f.key.endsWith(` ${m[1]}`))) add(m[1], `injectable (${m[2]})`);
  }
  const serverErrors = Object.entries(statuses)
    .filter(([code]) => code >= '500')
    .reduce((n, [, c]) => n + c, 0);
  if (serverErrors > 0) add('5xx', `${serverErrors} answers with a 5xx status (${formatCounts(statuses)})`);
  const refused = (statuses['419'] ?? 0) + (statuses['429'] ?? 0);
  if (requests === 0 || refused > requests * 0.01)
    add('not-reached', `${refused} of ${requests} requests refused with 419/429: the scan did not reach the handler`);
  if (run.timedOut) add('timed-out', `stopped at the ${timeLimitS} s limit`);
  else if (
    run.code !== 0 &&
    !/all tested parameters do not appear to be injectable|does not seem to be injectable/.test(run.output)
  ) {
    add(
      'failed',
      `sqlmap exited with ${run.code}: ${run.output
        .split('\n')
        .filter((l) => /CRITICAL|ERROR/.test(l))
        .slice(-3)
        .join(' | ')}`,
    );
  }
  return { target: target.name, dir, seconds: run.seconds, requests, statuses, findings };
}
