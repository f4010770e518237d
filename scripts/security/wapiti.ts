import fs from 'node:fs';
import path from 'node:path';
import { runTool } from './run-tool.ts';
import type { Finding } from './findings.ts';
import type { ScanSession } from './server.ts';

/** The wapiti modules docs/security.md names; none of them calls a host other than the target. */
export const WAPITI_MODULES = [
  'sql',
  'blindsql',
  'xss',
  'permanentxss',
  'exec',
  'file',
  'crlf',
  'redirect',
  'csrf',
  'http_headers',
  'cookieflags',
  'csp',
  'methods',
];

/** Modules that look only at the root page's headers and cookies: run once, in the visitor scan. */
const ROOT_ONLY = new Set(['http_headers', 'cookieflags', 'csp']);

export interface WapitiScan {
  /** 'visitor' or 'admin': names the run's folder and its log lines. */
  label: string;
  /** Pages and JSON reads to start from (absolute URLs on the server). */
  startUrls: string[];
  /** Sent as fixed cookies (wapiti's JSON cookie file) with the matching CSRF header. */
  session?: ScanSession;
}

export interface WapitiResult {
  label: string;
  /** wapiti's report, log and session for this run. */
  dir: string;
  seconds: number;
  /** URLs and forms wapiti found and attacked. */
  resources: number;
  /** Status codes of every request the server answered during the run (from its log). */
  statuses: Record<string, number>;
  findings: Finding[];
}

/**
 * Findings from the server's own record of a run: a route that answered 5xx, or refused requests
 * with 419 or 429 before its handler (those requests tested nothing).
 * @param byRoute status counts by `METHOD path`, from the server's log
 */
export function reachFindings(label: string, byRoute: Map<string, Record<string, number>>): Finding[] {
  const findings: Finding[] = [];
  for (const [route, counts] of byRoute) {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const count = (pred: (code: number) => boolean) =>
      Object.entries(counts)
        .filter(([c]) => pred(Number(c)))
        .reduce((n, [, v]) => n + v, 0);
    const add = (what: string, n: number) =>
      findings.push({
        tool: 'wapiti',
        key: `wapiti ${label} ${what} ${stablePath(route)}`,
        detail: `${n} of ${total} answers`,
      });
    if (count((c) => c >= 500))
      add(
        '5xx',
        count((c) => c >= 500),
      );
    if (counts[429]) add('rate-limited', counts[429]);
    if (counts[419]) add('csrf-refused', counts[419]);
  }
  return findings;
}

/** A path with the run's random bylaws hash replaced, so finding keys repeat from run to run. */
const stablePath = (p: string) => p.replace(/[0-9a-f]{32}/g, '{hash}');

interface WapitiEntry {
  method: string;
  path: string;
  info: string;
  parameter: string;
}

/**
 * Turns wapiti's JSON report into findings keyed `wapiti <category> <METHOD> <path> <parameter>`;
 * entries without a parameter (header, cookie and CSP checks of the root page) add their info
 * text, which names the header or cookie. Anomalies (500 answers, timeouts) count as findings.
 */
function findingsOfReport(report: {
  vulnerabilities?: Record<string, WapitiEntry[]>;
  anomalies?: Record<string, WapitiEntry[]>;
}): Finding[] {
  const findings: Finding[] = [];
  for (const section of [report.vulnerabilities ?? {}, report.anomalies ?? {}]) {
    for (const [category, entries] of Object.entries(section)) {
      for (const e of entries) {
        const tail = e.parameter ? e.parameter : e.info.replace(/\s+/g, ' ').trim();
        findings.push({
          tool: 'wapiti',
          key: `wapiti ${category} ${e.method} ${stablePath(e.path)} ${tail}`,
          detail: e.info.replace(/\s+/g, ' ').slice(0, 300),
        });
      }
    }
  }
  return findings;
}

/**
 * Runs wapiti 3.0.4 against the server with {@link WAPITI_MODULES} (the signed-in scan skips the
 * root-only ones: they judge the cookies it was handed, not the server's), scope `folder` on the
 * server's root, time limits per scan and per module, and no traffic elsewhere: every request
 * goes through `proxyUrl` (the guard proxy, which refuses other hosts), no update, no crash
 * reports, the endpoints pointed at the server itself, and a local empty Wappalyzer database,
 * which wapiti would otherwise download when it loads its modules.
 * Writes its report, log and session under `workDir/wapiti-<label>/`.
 */
export async function runWapiti(
  base: string,
  scan: WapitiScan,
  workDir: string,
  limits: { scanS: number; attackS: number },
  proxyUrl: string,
): Promise<WapitiResult> {
  const dir = path.join(workDir, `wapiti-${scan.label}`);
  const configDir = path.join(dir, 'config');
  fs.mkdirSync(configDir, { recursive: true });
  fs.writeFileSync(path.join(configDir, 'apps.json'), '{}');
  const report = path.join(dir, 'report.json');
  const modules = WAPITI_MODULES.filter((m) => !(scan.session && ROOT_ONLY.has(m)));
  const args = [
    '-u',
    `${base}/`,
    '--scope',
    'folder',
    '-m',
    modules.join(','),
    ...scan.startUrls.flatMap((u) => ['-s', u]),
    '--max-scan-time',
    String(limits.scanS),
    '--max-attack-time',
    String(limits.attackS),
    '-f',
    'json',
    '-o',
    report,
    '--no-bugreport',
    '--external-endpoint',
    `${base}/`,
    '--internal-endpoint',
    `${base}/`,
    '--store-session',
    path.join(dir, 'session'),
    '--store-config',
    configDir,
    '--flush-session',
    '-v',
    '1',
    '-H',
    'X-Requested-With: XMLHttpRequest',
    // wapiti 3.0.4 asks for brotli too, but Debian's requests cannot unpack it without python3-brotli:
    // it would read the compressed pages as noise and crawl almost none of their links.
    '-H',
    'Accept-Encoding: gzip, deflate',
    '-p',
    proxyUrl,
  ];
  if (scan.session) {
    const host = new URL(base).hostname;
    const cookies = Object.fromEntries(
      [...scan.session.cookies].map(([name, value]) => [
        name,
        { value, expires: null, secure: false, port: null, version: 0 },
      ]),
    );
    const cookieFile = path.join(dir, 'cookies.json');
    fs.writeFileSync(cookieFile, JSON.stringify({ [host]: { '/': cookies } }));
    args.push('-c', cookieFile, '-H', `X-CSRF-TOKEN: ${scan.session.csrfToken}`);
  }
  const run = await runTool('wapiti', args, {
    logFile: path.join(dir, 'wapiti.log'),
    timeLimitS: limits.scanS + modules.length * limits.attackS + 120,
  });
  const findings: Finding[] = [];
  if (fs.existsSync(report)) {
    findings.push(...findingsOfReport(JSON.parse(fs.readFileSync(report, 'utf8'))));
  } else {
    findings.push({
      tool: 'wapiti',
      key: `wapiti ${scan.label} no-report`,
      detail: `wapiti wrote no report (exit ${run.code}): ${run.output.slice(-500)}`,
    });
  }
  // The methods module only prints what it finds.
  for (const m of run.output.matchAll(/Interesting methods allowed on (\S+): (.+)/g)) {
    findings.push({
      tool: 'wapiti',
      key: `wapiti methods ${stablePath(new URL(m[1], base).pathname)} ${m[2].trim()}`,
      detail: m[0],
    });
  }
  if (/Downloading from the web|wapiti3\.ovh|raw\.githubusercontent/.test(run.output)) {
    findings.push({
      tool: 'wapiti',
      key: `wapiti ${scan.label} outside-traffic`,
      detail: 'wapiti tried to reach another host',
    });
  }
  if (run.timedOut)
    findings.push({ tool: 'wapiti', key: `wapiti ${scan.label} timed-out`, detail: 'stopped at the time limit' });
  const resources = Number(/Wapiti found (\d+) URLs and forms/.exec(run.output)?.[1] ?? 0);
  return { label: scan.label, dir, seconds: run.seconds, resources, statuses: {}, findings };
}
