import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { serveCommand } from '../scripts/serve-command.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/helpers/chromium.ts';
import { freePort } from '../tests/helpers/local-peers.ts';
import { log, round } from './lib/load.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIST = path.join(REPO_ROOT, 'dist', 'web');

/** The public pages of docs/requirements/platform.md §6 "Public pages": landing, pricing, the forms, search, a content page, tools, sign-in. */
const LIGHTHOUSE_PAGES = [
  '/',
  '/pricing',
  '/contact',
  '/compliance-check',
  '/multi-chapter',
  '/campus-report',
  '/verify-501c3',
  '/irs-form-990',
  '/bylaws-generator',
  '/contests/photo',
  '/login',
] as const;

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
export type FormFactor = 'mobile' | 'desktop';

/** docs/requirements/platform.md §6 targets for the public pages. */
const LIGHTHOUSE_TARGETS = { performance: 95, accessibility: 100, initialJsGzipKb: 120 };

/** One Lighthouse run of one page. Scores 0–100; times in ms; sizes in KB (1,024 bytes) as sent. */
interface LighthousePageResult {
  path: string;
  formFactor: FormFactor;
  scores: Record<Category, number | null>;
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; speedIndexMs: number };
  /** JavaScript and all bytes the page transferred (compressed when the server compressed them). */
  transfer: { scriptKb: number; totalKb: number };
  /** What Lighthouse took as the largest contentful paint. */
  lcpElement: string | null;
  /** Audits of the four categories that scored under 0.9, by id (what to fix). */
  failing: string[];
  /**
   * Lighthouse's measure of the host's CPU speed during the run (higher is faster). Mobile
   * results scale task times by 4 from this host, so a busy machine lowers the performance score.
   */
  benchmarkIndex: number;
  /** Performance score of every run of this page, in the order run; the figures above are of the median run. */
  runScores: number[];
  pass: boolean;
}

/** One page's initial JavaScript: the files it loads before it can run, gzip level 9 as served. */
interface PageJs {
  path: string;
  files: number;
  gzipKb: number;
  pass: boolean;
}

interface InitialJs {
  /**
   * The entry script, index.html's preloads and every chunk they import statically: what every
   * page loads first.
   */
  files: { file: string; bytes: number; gzipBytes: number }[];
  totalKb: number;
  gzipKb: number;
  /**
   * Each public page (the pages of LIGHTHOUSE_PAGES): the above, its own preloads
   * (route-preloads.json) and everything they import statically, each file counted once. What is
   * only imported with import() (prefetched once the page is idle) is not counted.
   */
  pages: PageJs[];
  /** The largest of `pages`. */
  worstPage: PageJs;
  targetGzipKb: number;
  pass: boolean;
}

export interface LighthouseReport {
  lighthouseVersion: string;
  chromium: string;
  initialJs: InitialJs;
  targets: typeof LIGHTHOUSE_TARGETS;
  pages: LighthousePageResult[];
  /** The worst score of each category over all pages, per form factor. */
  worst: Record<FormFactor, Record<Category, number | null>>;
  pass: boolean;
}

const kb = (bytes: number) => round(bytes / 1024, 1);

/**
 * Builds the web client and the server's render of the pages (`npm run build`, as `npm start`
 * does) so the figures are of the current
 * code. @throws when the build fails
 */
function buildClient() {
  log('[lighthouse] building the web client (npm run build)');
  const built = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), '--quiet'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0) throw new Error(`the build failed with status ${built.status}`);
}

/** A built chunk's static imports (`import … from"./x.js"`, `export … from`), as addresses under /assets/. */
function staticImports(distDir: string, file: string): string[] {
  const body = fs.readFileSync(path.join(distDir, file.replace(/^\//, '')), 'utf8');
  // A static import names its chunk right after `from` (or `import` alone); import("./x.js") has a parenthesis.
  return [...body.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)].map(
    (m) => `${path.posix.dirname(file)}/${m[1]}`,
  );
}

/** `roots` and every chunk they import statically, each once, in the order found. */
function withStaticImports(distDir: string, roots: string[]): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of staticImports(distDir, file)) walk(next);
  };
  roots.forEach(walk);
  return [...seen];
}

/**
 * The initial JavaScript of docs/requirements/platform.md §6 from the build: for every public page,
 * the built `index.html`'s module script and `modulepreload`s, the page's own preloads
 * (route-preloads.json) and all they import statically, with their gzip sizes (level 9, as served
 * precompressed). The target holds for each page.
 * @public also run on its own to measure a build: node --import tsx -e "import('./bench/lighthouse-bench.ts').then((m) => console.log(m.measureInitialJs()))"
 */
export function measureInitialJs(distDir = WEB_DIST, pagePaths: readonly string[] = LIGHTHOUSE_PAGES): InitialJs {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const refs = [
    ...html.matchAll(/<(?:script type="module"[^>]*src|link rel="modulepreload"[^>]*href)="([^"]+\.js)"/g),
  ].map((m) => m[1]);
  const gzipBytes = new Map<string, { bytes: number; gzipBytes: number }>();
  const sizeOf = (ref: string) => {
    if (!gzipBytes.has(ref)) {
      const body = fs.readFileSync(path.join(distDir, ref.replace(/^\//, '')));
      gzipBytes.set(ref, { bytes: body.length, gzipBytes: zlib.gzipSync(body, { level: 9 }).length });
    }
    return gzipBytes.get(ref)!;
  };
  const shared = withStaticImports(distDir, [...new Set(refs)]);
  const files = shared.map((file) => ({ file, ...sizeOf(file) }));
  const preloads = JSON.parse(fs.readFileSync(path.join(distDir, 'route-preloads.json'), 'utf8')) as Record<
    string,
    { scripts?: string[] }
  >;
  const pages = pagePaths.map((pagePath) => {
    const all = withStaticImports(distDir, [...shared, ...(preloads[pagePath]?.scripts ?? [])]);
    const gzipKb = kb(all.reduce((n, file) => n + sizeOf(file).gzipBytes, 0));
    return { path: pagePath, files: all.length, gzipKb, pass: gzipKb <= LIGHTHOUSE_TARGETS.initialJsGzipKb };
  });
  const worstPage = pages.reduce((a, b) => (b.gzipKb > a.gzipKb ? b : a));
  return {
    files,
    totalKb: kb(files.reduce((n, f) => n + f.bytes, 0)),
    gzipKb: kb(files.reduce((n, f) => n + f.gzipBytes, 0)),
    pages,
    worstPage,
    targetGzipKb: LIGHTHOUSE_TARGETS.initialJsGzipKb,
    pass: pages.every((p) => p.pass),
  };
}

/**
 * Starts the product as `npm start` serves it (src/server/main.ts in development mode, the built
 * client, the demo seed; production refuses the demo and the local stand-ins) on a free 127.0.0.1
 * port with a fresh data directory.
 * @returns its address and a stop function that ends it and removes the data directory
 * @throws when it exits or does not listen within 120 s
 */
async function startProductServer(): Promise<{ base: string; stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-lighthouse-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const command = serveCommand([], {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    REMINDERS_ENABLED: '0',
  });
  const child = spawn(command.file, command.args, {
    cwd: REPO_ROOT,
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start within 120 s:\n${output}`)), 120_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code}:\n${output}`));
      });
      const check = () => {
        if (output.includes('GoodStanding is running at')) {
          clearTimeout(timer);
          resolve();
        } else if (child.exitCode === null) setTimeout(check, 100);
      };
      check();
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, stop };
}

/**
 * One Lighthouse run of `url`. A run whose trace went wrong (Lighthouse's own NO_NAVSTART and
 * similar runtime errors, which it says to retry) is run again, up to three times in all.
 * @throws when every attempt fails
 */
async function audit(port: number, url: string, formFactor: FormFactor): Promise<Result> {
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] };
  let last = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
    if (result && !result.lhr.runtimeError) return result.lhr;
    last = result?.lhr.runtimeError
      ? `${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`
      : 'no result';
    log(`[lighthouse] ${url} (${formFactor}) attempt ${attempt} failed: ${last}`);
  }
  throw new Error(`Lighthouse failed on ${url} (${formFactor}): ${last}`);
}

/** A short description of the LCP element from its audit, e.g. `h1 "Pricing"`. */
function lcpElementOf(lhr: Result): string | null {
  const details = lhr.audits['largest-contentful-paint-element']?.details as
    { items?: { items?: { node?: { nodeLabel?: string; selector?: string } }[] }[] } | undefined;
  const node = details?.items?.[0]?.items?.[0]?.node;
  return node ? `${node.selector ?? ''} "${(node.nodeLabel ?? '').slice(0, 60)}"` : null;
}

function summarize(pagePath: string, formFactor: FormFactor, lhr: Result): LighthousePageResult {
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score! * 100)]),
  ) as Record<Category, number | null>;
  const num = (id: string) => round(lhr.audits[id]?.numericValue ?? NaN, 0);
  const summary =
    (
      lhr.audits['resource-summary']?.details as
        { items?: { resourceType: string; transferSize: number }[] } | undefined
    )?.items ?? [];
  const size = (type: string) => kb(summary.find((i) => i.resourceType === type)?.transferSize ?? 0);
  const failing = [
    ...new Set(
      CATEGORIES.flatMap((c) =>
        (lhr.categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 || c === 'performance')
          .map((ref) => lhr.audits[ref.id])
          .filter(
            (a) =>
              a &&
              a.score !== null &&
              a.score < 0.9 &&
              a.scoreDisplayMode !== 'informative' &&
              a.scoreDisplayMode !== 'manual' &&
              a.scoreDisplayMode !== 'notApplicable',
          )
          .map((a) => a.id),
      ),
    ),
  ];
  return {
    path: pagePath,
    formFactor,
    scores,
    metrics: {
      fcpMs: num('first-contentful-paint'),
      lcpMs: num('largest-contentful-paint'),
      tbtMs: num('total-blocking-time'),
      cls: round(lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN, 3),
      speedIndexMs: num('speed-index'),
    },
    transfer: { scriptKb: size('script'), totalKb: size('total') },
    lcpElement: lcpElementOf(lhr),
    failing,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    runScores: [],
    pass:
      (scores.performance ?? 0) >= LIGHTHOUSE_TARGETS.performance &&
      (scores.accessibility ?? 0) >= LIGHTHOUSE_TARGETS.accessibility,
  };
}

/**
 * Lighthouse 12 (Node 20) with the system Chromium and the docs/requirements/platform.md §8 flags on each public page,
 * with the default mobile settings (simulated slow 4G, 4x CPU slowdown, a phone screen) and the
 * desktop preset, against the product started as `npm start` runs it on 127.0.0.1. Builds the client
 * first and measures its initial JavaScript. Writes nothing but a temporary data directory and
 * Chromium profile, both removed.
 * Each page is audited `opts.runs` times (default 3) and the run with the median performance score
 * is reported, as Lighthouse's guidance on variability advises: on a shared machine single runs
 * vary by ±15 points.
 * @param opts.pages paths to audit (default {@link LIGHTHOUSE_PAGES}); opts.formFactors which settings
 * @returns scores, metrics and what failed, per page and form factor
 * @throws when the build, the server or Chromium cannot start
 */
export async function runLighthouseBench(
  opts: { pages?: readonly string[]; formFactors?: FormFactor[]; build?: boolean; runs?: number } = {},
): Promise<LighthouseReport> {
  if (opts.build !== false) buildClient();
  const initialJs = measureInitialJs();
  log(
    `[lighthouse] initial JS: ${initialJs.gzipKb} KB gzipped before any page's own (${initialJs.files.length} files); the largest page, ${initialJs.worstPage.path}, ${initialJs.worstPage.gzipKb} KB (${initialJs.worstPage.files} files, target ${initialJs.targetGzipKb} KB each)`,
  );
  for (const page of initialJs.pages)
    log(`[lighthouse]   ${page.path.padEnd(18)} ${page.gzipKb} KB in ${page.files} files`);
  const server = await startProductServer();
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  const pages: LighthousePageResult[] = [];
  let lighthouseVersion = '';
  let chromium = '';
  try {
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' });
    for (const formFactor of opts.formFactors ?? ['mobile', 'desktop']) {
      for (const pagePath of opts.pages ?? LIGHTHOUSE_PAGES) {
        const runs: LighthousePageResult[] = [];
        for (let run = 0; run < (opts.runs ?? 3); run++) {
          const lhr = await audit(chrome.port, `${server.base}${pagePath}`, formFactor);
          lighthouseVersion = lhr.lighthouseVersion;
          chromium = lhr.environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? lhr.environment.hostUserAgent;
          runs.push(summarize(pagePath, formFactor, lhr));
        }
        const byScore = [...runs].sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0));
        const page = {
          ...byScore[Math.floor((byScore.length - 1) / 2)],
          runScores: runs.map((r) => r.scores.performance ?? 0),
        };
        pages.push(page);
        log(
          `[lighthouse] ${formFactor.padEnd(7)} ${pagePath.padEnd(18)} perf ${page.scores.performance} a11y ${page.scores.accessibility} bp ${page.scores['best-practices']} seo ${page.scores.seo}  LCP ${page.metrics.lcpMs} ms (runs ${page.runScores.join(', ')})${page.failing.length ? `  [${page.failing.join(', ')}]` : ''}`,
        );
      }
    }
  } finally {
    chrome?.kill();
    await server.stop();
  }
  const worst = Object.fromEntries(
    (['mobile', 'desktop'] as const).map((ff) => [
      ff,
      Object.fromEntries(
        CATEGORIES.map((c) => {
          const values = pages
            .filter((p) => p.formFactor === ff)
            .map((p) => p.scores[c])
            .filter((v): v is number => v !== null);
          return [c, values.length ? Math.min(...values) : null];
        }),
      ),
    ]),
  ) as LighthouseReport['worst'];
  return {
    lighthouseVersion,
    chromium,
    initialJs,
    targets: LIGHTHOUSE_TARGETS,
    pages,
    worst,
    pass: initialJs.pass && pages.every((p) => p.pass),
  };
}

const f = (n: number | null | undefined, w: number) => String(n ?? '-').padStart(w);

/** The summary table of the report for the bench's stderr, one line per page and form factor. */
export function lighthouseTable(report: LighthouseReport): string {
  const lines = [
    '',
    `Lighthouse ${report.lighthouseVersion}, Chromium ${report.chromium}; initial JS ${report.initialJs.gzipKb} KB gzipped before the page's own, at most ${report.initialJs.worstPage.gzipKb} KB with it on ${report.initialJs.worstPage.path} (target ${report.initialJs.targetGzipKb} per page) ${report.initialJs.pass ? 'yes' : 'NO'}`,
    '  page                 form      perf  a11y    bp   seo   FCP ms   LCP ms  TBT ms    CLS  JS KB  host  ok',
  ];
  for (const p of report.pages) {
    lines.push(
      `  ${p.path.padEnd(20)} ${p.formFactor.padEnd(8)}${f(p.scores.performance, 5)}${f(p.scores.accessibility, 6)}${f(p.scores['best-practices'], 6)}${f(p.scores.seo, 6)}${f(p.metrics.fcpMs, 9)}${f(p.metrics.lcpMs, 9)}${f(p.metrics.tbtMs, 8)}${f(p.metrics.cls, 7)}${f(p.transfer.scriptKb, 7)}${f(p.benchmarkIndex, 6)}  ${p.pass ? 'yes' : 'NO'}`,
    );
  }
  return lines.join('\n');
}
