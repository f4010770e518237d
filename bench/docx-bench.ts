import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { renderBylawsDocx } from '../src/server/modules/bylaws/render-docx.ts';
import { buildBylawsDocument, type BylawsDocument } from '../src/shared/bylaws/document.ts';
import {
  BYLAW_SCHEMAS,
  BYLAW_VARIANTS,
  SCHOOL_CLAUSES,
  type BylawAnswers,
  type BylawVariant,
} from '../src/shared/schemas/bylaws.ts';
import { BYLAW_ANSWERS } from '../tests/helpers/bylaws.ts';
import { log, percentile, round } from './lib/load.ts';

/** docs/requirements/platform.md §6: "Bylaws .docx generation: median <= 20 ms per document". */
const DOCX_TARGET_MEDIAN_MS = 20;

const BRANDS = { brand: 'GoodStanding', shortBrand: 'BoosterBasics' };

/** One payload per variant as the forms send it; the school one ticks all ten clauses (the longest document). */
const PAYLOADS: Record<BylawVariant, Record<string, unknown>> = {
  standard: BYLAW_ANSWERS.standard,
  school: { ...BYLAW_ANSWERS.school, is_highlighted: 1, ...Object.fromEntries(SCHOOL_CLAUSES.map((c) => [c, 1])) },
  short: BYLAW_ANSWERS.short,
};

/** Milliseconds, rounded to 0.01. */
interface MsStats {
  median: number;
  p95: number;
  mean: number;
  min: number;
  max: number;
}

interface DocxVariantResult {
  documents: number;
  articles: number;
  /** Size of one generated .docx. */
  bytes: number;
  /** build (document model) + render (.docx bytes), per document. */
  totalMs: MsStats;
  /** The document model alone, per document. */
  buildMs: MsStats;
  pass: boolean;
}

export interface DocxReport {
  iterations: number;
  warmup: number;
  target: { medianMaxMs: number; what: string };
  variants: Record<BylawVariant, DocxVariantResult>;
  /** Every timed document of every variant together. */
  all: { documents: number; totalMs: MsStats };
  /** Every variant's median meets the target. */
  pass: boolean;
}

function stats(values: number[]): MsStats {
  const r = (n: number) => round(n, 2);
  return {
    median: r(percentile(values, 50)),
    p95: r(percentile(values, 95)),
    mean: r(values.reduce((a, b) => a + b, 0) / values.length),
    min: r(Math.min(...values)),
    max: r(Math.max(...values)),
  };
}

/** Builds and renders one document, checking that the result is a zip (.docx). */
async function generate(
  answers: BylawAnswers,
): Promise<{ model: BylawsDocument; bytes: Buffer; buildMs: number; totalMs: number }> {
  const start = performance.now();
  const model = buildBylawsDocument(answers, BRANDS);
  const built = performance.now();
  const bytes = await renderBylawsDocx(model);
  const end = performance.now();
  if (bytes.length < 1000 || bytes[0] !== 0x50 || bytes[1] !== 0x4b)
    throw new Error('renderBylawsDocx did not return a .docx (zip) file');
  return { model, bytes, buildMs: built - start, totalMs: end - start };
}

/**
 * Times bylaws generation (document model + .docx bytes, in this process, no HTTP) for each
 * variant: `warmup` untimed rounds, then `iterations` timed documents per variant, the variants
 * taking turns so that drift of the machine affects them alike.
 * @returns median, p95 and spread per document, per variant and overall, against docs/requirements/platform.md §6
 */
async function runDocxBench(opts: { iterations?: number; warmup?: number } = {}): Promise<DocxReport> {
  const iterations = opts.iterations ?? 200;
  const warmup = opts.warmup ?? 30;
  const answers = Object.fromEntries(
    BYLAW_VARIANTS.map((v) => [v, BYLAW_SCHEMAS[v].parse(PAYLOADS[v]) as BylawAnswers]),
  ) as Record<BylawVariant, BylawAnswers>;

  log(`[docx] warm-up: ${warmup} documents per variant`);
  for (let i = 0; i < warmup; i++) for (const v of BYLAW_VARIANTS) await generate(answers[v]);

  log(`[docx] timing ${iterations} documents per variant`);
  const timings = Object.fromEntries(
    BYLAW_VARIANTS.map((v) => [v, { total: [] as number[], build: [] as number[] }]),
  ) as Record<BylawVariant, { total: number[]; build: number[] }>;
  const shape = {} as Record<BylawVariant, { articles: number; bytes: number }>;
  for (let i = 0; i < iterations; i++) {
    for (const v of BYLAW_VARIANTS) {
      const g = await generate(answers[v]);
      timings[v].total.push(g.totalMs);
      timings[v].build.push(g.buildMs);
      shape[v] ??= { articles: g.model.articles.length, bytes: g.bytes.length };
    }
  }

  const variants = Object.fromEntries(
    BYLAW_VARIANTS.map((v) => {
      const totalMs = stats(timings[v].total);
      const result: DocxVariantResult = {
        documents: iterations,
        ...shape[v],
        totalMs,
        buildMs: stats(timings[v].build),
        pass: totalMs.median <= DOCX_TARGET_MEDIAN_MS,
      };
      log(
        `[docx]   ${v}: median ${totalMs.median} ms, p95 ${totalMs.p95} ms (${result.articles} articles, ${result.bytes} bytes)`,
      );
      return [v, result];
    }),
  ) as Record<BylawVariant, DocxVariantResult>;

  const everything = BYLAW_VARIANTS.flatMap((v) => timings[v].total);
  return {
    iterations,
    warmup,
    target: {
      medianMaxMs: DOCX_TARGET_MEDIAN_MS,
      what: 'median build + render time per document, each variant (docs/requirements/platform.md §6)',
    },
    variants,
    all: { documents: everything.length, totalMs: stats(everything) },
    pass: BYLAW_VARIANTS.every((v) => variants[v].pass),
  };
}

/**
 * Run as a child process by bench/run.ts (`node --import tsx bench/docx-bench.ts ITERATIONS`), so
 * its peak memory is its own: sends `{ report, peakRssMb }` on the IPC channel and exits.
 */
async function runAsChild() {
  const iterations = Number(process.argv[2] ?? 200);
  const report = await runDocxBench({ iterations });
  const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  process.send!({ report, peakRssMb: hwm ? round(Number(hwm[1]) / 1024, 1) : null }, () => process.exit(0));
}

if (process.send && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAsChild().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
