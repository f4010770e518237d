/**
 * National-size IRS test files, in the IRS's own layouts, made from the 326,224 real rows of
 * ../shared/data/irs-eo-bmf (docs/irs-data.md "National-size test files"):
 *
 *   npm run irs:national-files -- --out DIR [--bmf-rows 1900000] [--rows 1200000] [--seed 1]
 *     [--as-of 2026-04-30] [--source DIR]
 *
 * writes DIR/bmf/eo1.csv … eo4.csv (the EO BMF extract), DIR/epostcard/data-download-epostcard.txt
 * (Form 990-N data), DIR/revocations/data-download-revocationExemptions.txt (Automatic Revocation
 * List) and DIR/pub78/data-download-pub78.txt (Publication 78 data). The rules are in
 * scripts/national-irs/rules.ts. The same seed gives the same bytes. Every file is streamed with
 * backpressure: memory holds the real rows, not the output, whatever the sizes. Progress goes to
 * stderr; the summary (rows, size, time and peak resident memory after each file) to stdout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { commandArgs } from '../src/server/cli/command-args.ts';
import { BMF_HEADER, irsFileRows, irsMonthDate, IRS_FIELDS, usDate } from '../src/server/modules/irs-data/irs-files.ts';
import { displayName, type BmfRecord } from '../src/server/modules/subordinates/import-bmf.ts';
import {
  BMF_EIN_PREFIXES,
  bmfRegion,
  csvLine,
  drawInt,
  EINS_PER_PREFIX,
  einAt,
  einStep,
  EPOSTCARD_MAX_WANTED_YEARS,
  epostcardPeriod,
  epostcardYearCount,
  epostcardYears,
  FIRST_WAVE_BEGIN_YEAR,
  FIRST_WAVE_SHARE,
  fiscalMonth,
  grossReceiptsCeiling,
  icoNamePairs,
  lastRevocationBeginYear,
  officerName,
  officerStreet,
  pipeLine,
  postingDate,
  proportionalCounts,
  pub78Codes,
  REINSTATED_SHARE,
  reinstatementDate,
  REVOKED_EIN_PREFIXES,
  revocationDate,
  rngFor,
  shuffle,
  subjectToAutoRevocation,
  takesItem,
  TERMINATED_SHARE,
  titleCase,
  websiteOf,
  type BmfFacts,
} from './national-irs/rules.ts';

/** The options' defaults: national size, and the end of the month of the real rows' release. */
const DEFAULTS = { bmfRows: 1_900_000, rows: 1_200_000, seed: 1, asOf: '2026-04-30' };

const USAGE =
  'Usage: npm run irs:national-files -- --out DIR [--bmf-rows 1900000] [--rows 1200000] [--seed 1] [--as-of 2026-04-30] [--source DIR]';

/** The real extracts: ../shared/data/irs-eo-bmf beside the repository. */
export const SHARED_BMF = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'shared',
  'data',
  'irs-eo-bmf',
);

/** The files, relative to the output folder, as the IRS names them. */
export const NATIONAL_FILES = {
  bmf: ['bmf/eo1.csv', 'bmf/eo2.csv', 'bmf/eo3.csv', 'bmf/eo4.csv'],
  epostcard: 'epostcard/data-download-epostcard.txt',
  revocations: 'revocations/data-download-revocationExemptions.txt',
  pub78: 'pub78/data-download-pub78.txt',
} as const;

export interface BuildOptions {
  /** Output folder (created). */
  out: string;
  /** Folder of the real EO BMF extracts (every .csv in it). */
  source?: string;
  /** Rows of the BMF extract, over eo1–eo4 (default 1,900,000). */
  bmfRows?: number;
  /** Rows of the revocation list and the Publication 78 data, and the least of the 990-N data (default 1,200,000). */
  rows?: number;
  seed?: number;
  /** The day the files describe, 'YYYY-MM-DD': no period, posting or reinstatement after it (default 2026-04-30, the month of the real rows' release). */
  asOf?: string;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
}

export interface FileReport {
  file: string;
  rows: number;
  bytes: number;
  seconds: number;
  /** Peak resident memory of the process so far (getrusage maxrss), MB. */
  peakRssMb: number;
}

export interface BuildReport {
  files: FileReport[];
  /** Real rows read. */
  sampleRows: number;
  /** Organizations with Form 990-N rows. */
  epostcardOrganizations: number;
  /** Rows of the revocation list whose organization is in the BMF (reinstated). */
  reinstated: number;
  seconds: number;
  peakRssMb: number;
  /** Peak resident memory once the real rows were read, before any file was written, MB. */
  rssAfterSampleMb: number;
}

/** A real row as the generator keeps it: the facts the rules read, what the derived files show, and its BMF line. */
interface SampleOrg extends BmfFacts {
  /** The row's fields after the EIN, as the IRS writes them (csvLine). */
  rest: string;
  /** The organization's own name (displayName: a subordinate's is SORT_NAME). */
  name: string;
  street: string;
  city: string;
  zip: string;
  /** epostcardYears. */
  lastEndYear: number;
  epostcardCount: number;
  revocable: boolean;
  /** pub78Codes, joined by commas; '' when not listed. */
  pub78: string;
}

interface Sample {
  orgs: SampleOrg[];
  /** Indexes into orgs of each region's rows (index 0 = eo1). */
  regions: Uint32Array[];
  /** Indexes into orgs of the rows subject to automatic revocation. */
  revocable: Uint32Array;
  /** icoNamePairs of every real in-care-of name. */
  bannedOfficerNames: Set<string>;
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Reads every real row once (with the product's own reader, irsFileRows: the header and the field
 * count are checked), keeping each row's facts and line, and the in-care-of names' pairs; checks
 * that no real EIN uses a prefix the new EINs are taken from.
 */
async function loadSample(dir: string, asOf: string): Promise<Sample> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.csv'))
    .sort();
  if (!files.length) throw new Error(`No EO BMF extracts (.csv) in ${dir}`);
  const strings = new Map<string, string>();
  const intern = (s: string) => strings.get(s) ?? (strings.set(s, s), s);
  const ourPrefixes = new Set<string>([...BMF_EIN_PREFIXES, ...REVOKED_EIN_PREFIXES]);
  const orgs: SampleOrg[] = [];
  const regions: number[][] = [[], [], [], []];
  const revocable: number[] = [];
  const bannedOfficerNames = new Set<string>();
  const col = Object.fromEntries(IRS_FIELDS.bmf.map((name, i) => [name, i])) as Record<keyof BmfRecord, number>;
  for (const file of files) {
    for await (const [f] of irsFileRows(path.join(dir, file), 'bmf')) {
      const ein = f[col.EIN];
      if (!/^\d{9}$/.test(ein)) continue;
      if (ourPrefixes.has(ein.slice(0, 2)))
        throw new Error(`Real EIN ${ein} (${file}) uses a prefix the new EINs are taken from: choose others.`);
      const facts: BmfFacts = {
        STATE: intern(f[col.STATE]),
        GROUP: intern(f[col.GROUP]),
        SUBSECTION: intern(f[col.SUBSECTION]),
        AFFILIATION: intern(f[col.AFFILIATION]),
        RULING: intern(f[col.RULING]),
        DEDUCTIBILITY: intern(f[col.DEDUCTIBILITY]),
        FOUNDATION: intern(f[col.FOUNDATION]),
        STATUS: intern(f[col.STATUS]),
        TAX_PERIOD: intern(f[col.TAX_PERIOD]),
        FILING_REQ_CD: intern(f[col.FILING_REQ_CD]),
        PF_FILING_REQ_CD: intern(f[col.PF_FILING_REQ_CD]),
        ACCT_PD: intern(f[col.ACCT_PD]),
      };
      const years = epostcardYears(facts, asOf);
      const org: SampleOrg = {
        ...facts,
        rest: csvLine(f.slice(1)),
        name: displayName({ NAME: f[col.NAME], SORT_NAME: f[col.SORT_NAME], AFFILIATION: facts.AFFILIATION }),
        street: f[col.STREET].trim(),
        city: f[col.CITY].trim(),
        zip: f[col.ZIP].trim(),
        lastEndYear: years.lastEndYear,
        epostcardCount: years.count,
        revocable: subjectToAutoRevocation(facts),
        pub78: pub78Codes(facts).join(','),
      };
      regions[bmfRegion(facts.STATE) - 1].push(orgs.length);
      if (org.revocable) revocable.push(orgs.length);
      orgs.push(org);
      for (const pair of icoNamePairs(f[col.ICO])) bannedOfficerNames.add(pair);
    }
  }
  return {
    orgs,
    regions: regions.map((r) => Uint32Array.from(r)),
    revocable: Uint32Array.from(revocable),
    bannedOfficerNames,
  };
}

/** The generated BMF: rows per file (in proportion to the real rows of each region) and each file's block of EINs. */
interface BmfPlan {
  seed: number;
  counts: number[];
  blockStart: number[];
  step: number[];
}

function planBmf(sample: Sample, rows: number, seed: number): BmfPlan {
  const counts = proportionalCounts(
    rows,
    sample.regions.map((r) => r.length),
  );
  const space = BMF_EIN_PREFIXES.length * EINS_PER_PREFIX;
  const blocks = proportionalCounts(space, counts);
  const blockStart = blocks.map((_, i) => blocks.slice(0, i).reduce((a, b) => a + b, 0));
  return { seed, counts, blockStart, step: counts.map((n, i) => einStep(n, blocks[i])) };
}

interface BmfOrg {
  /** Where its EIN is among the BMF's EIN numbers: einAt(BMF_EIN_PREFIXES, offset), made only when written. */
  offset: number;
  org: SampleOrg;
}

/**
 * The organizations of eoN.csv (region 1–4), in EIN order: the region's real rows resampled
 * without replacement, round after round in a new random order (so each real row is used the same
 * number of times, give or take one, and every field keeps its real distribution), each with a new
 * EIN from the region's block. Deterministic: every pass over them (the BMF file, then the files
 * made from it) sees the same organizations.
 */
function* regionOrgs(sample: Sample, plan: BmfPlan, region: number): Generator<BmfOrg> {
  const rng = rngFor(plan.seed, `bmf:eo${region}`);
  const order = sample.regions[region - 1].slice();
  const count = plan.counts[region - 1];
  let offset = plan.blockStart[region - 1] - 1;
  for (let given = 0; given < count;) {
    shuffle(order, rng);
    for (let i = 0; i < order.length && given < count; i++, given++) {
      offset += drawInt(rng(), 1, plan.step[region - 1]);
      yield { offset, org: sample.orgs[order[i]] };
    }
  }
}

/** Every organization of the generated BMF, eo1 to eo4: in EIN order, the blocks being in that order. */
function* bmfOrgs(sample: Sample, plan: BmfPlan): Generator<BmfOrg> {
  for (let region = 1; region <= 4; region++) yield* regionOrgs(sample, plan, region);
}

/** Bytes of each of a LineFile's two buffers, and the room kept free in a buffer for the next line. */
const CHUNK_BYTES = 1 << 20;
const LINE_RESERVE = 1 << 16;

/**
 * Lines to a file through a write stream, with backpressure and flat memory: lines are encoded into
 * one of two 1 MB buffers; a full buffer goes to the stream while the other fills, and is filled
 * again only once the stream has written it (at most one chunk in flight, whatever the file's
 * size). Lines end with CRLF, as the IRS's files.
 */
class LineFile {
  rows = 0;
  bytes = 0;
  private readonly buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
  private current = 0;
  private used = 0;
  private inFlight: Promise<void> = Promise.resolve();
  private failed: Error | null = null;
  private readonly stream: fs.WriteStream;
  private readonly onProgress: (rows: number) => void;

  constructor(file: string, onProgress: (rows: number) => void) {
    this.onProgress = onProgress;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.stream = fs.createWriteStream(file);
    this.stream.on('error', (err) => (this.failed = err));
  }

  /** Adds a data row; true when the buffer is nearly full and `flush` must be awaited before the next line. */
  row(line: string): boolean {
    this.rows++;
    if (this.rows % 250_000 === 0) this.onProgress(this.rows);
    return this.line(line);
  }

  /** Adds a line that is not a data row (the BMF header); same answer as `row`. */
  line(line: string): boolean {
    // A full buffer keeps LINE_RESERVE bytes free, room for any line of up to a third of that (UTF-8).
    if (3 * line.length + 2 > LINE_RESERVE)
      throw new Error(`A line of ${line.length} characters: ${line.slice(0, 80)}…`);
    const buffer = this.buffers[this.current];
    this.used += buffer.write(line, this.used, 'utf8');
    this.used += buffer.write('\r\n', this.used, 'latin1');
    return this.used > CHUNK_BYTES - LINE_RESERVE;
  }

  /** Hands the filled buffer to the stream once the one before is written; switches to the other buffer. */
  async flush(): Promise<void> {
    await this.inFlight;
    if (this.failed) throw this.failed;
    if (!this.used) return;
    const chunk = this.buffers[this.current].subarray(0, this.used);
    this.bytes += this.used;
    this.inFlight = new Promise((resolve) => this.stream.write(chunk, () => resolve()));
    this.current ^= 1;
    this.used = 0;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.inFlight;
    this.stream.end();
    await finished(this.stream);
    if (this.failed) throw this.failed;
  }
}

/** The exact row counts the derived files are planned with, from one pass over the generated BMF (nothing written). */
interface OrgCounts {
  epostcardFilers: number;
  /** The 990-N years the filers could have filed, all together: the most rows the 990-N data can have. */
  epostcardYears: number;
  revocable: number;
  pub78Own: number;
  pub78Subordinates: number;
}

function countOrgs(sample: Sample, plan: BmfPlan): OrgCounts {
  const c: OrgCounts = { epostcardFilers: 0, epostcardYears: 0, revocable: 0, pub78Own: 0, pub78Subordinates: 0 };
  for (const { org } of bmfOrgs(sample, plan)) {
    if (org.epostcardCount) c.epostcardFilers++;
    c.epostcardYears += org.epostcardCount;
    if (org.revocable) c.revocable++;
    if (org.pub78) {
      if (org.AFFILIATION === '9') c.pub78Subordinates++;
      else c.pub78Own++;
    }
  }
  return c;
}

/** Country of an address: the BMF writes a foreign one's country in CITY and leaves STATE empty. */
const foreign = (org: SampleOrg) => !org.STATE;
const zip5 = (zip: string) => zip.slice(0, 5);

/** One organization's 990-N rows (docs/irs-data.md "Data sets": 26 fields, dates MM-DD-YYYY), oldest first. */
function epostcardRows(
  ein: string,
  org: SampleOrg,
  years: number,
  rng: () => number,
  banned: ReadonlySet<string>,
): string[] {
  const month = fiscalMonth(org.ACCT_PD)!;
  const terminated = rng() < TERMINATED_SHARE;
  const officer = officerName(rng, banned);
  const officerLine1 = officerStreet(rng(), rng(), rng());
  const website = rng() < 0.15 ? websiteOf(org.name) : '';
  const abroad = foreign(org);
  const address = abroad
    ? [org.street, '', '', '', '', org.zip, org.city]
    : [org.street, '', org.city, '', org.STATE, zip5(org.zip), 'US'];
  const lines: string[] = [];
  for (let back = years - 1; back >= 0; back--) {
    const p = epostcardPeriod(month, org.lastEndYear - back);
    lines.push(
      pipeLine([
        ein,
        String(p.taxYear),
        org.name,
        grossReceiptsCeiling(p.begin),
        terminated && back === 0 ? 'T' : 'F',
        usDate(p.begin),
        usDate(p.end),
        website,
        officer,
        officerLine1,
        '',
        ...(abroad ? ['', '', '', '', org.city] : [org.city, '', org.STATE, zip5(org.zip), 'US']),
        ...address,
        // No other names: the BMF's SORT_NAME is sometimes a person's name.
        '',
        '',
        '',
      ]),
    );
  }
  return lines;
}

/** One row of the Automatic Revocation List (12 fields, dates DD-MON-YYYY). */
function revocationRow(
  ein: string,
  org: SampleOrg,
  dates: { revokedOn: string; postedOn: string; reinstatedOn: string | null },
): string {
  return pipeLine([
    ein,
    org.name,
    // No "doing business as" name: the BMF's SORT_NAME is sometimes a person's name.
    '',
    org.street,
    foreign(org) ? '' : org.city,
    org.STATE,
    org.zip,
    foreign(org) ? org.city : 'US',
    org.SUBSECTION,
    irsMonthDate(dates.revokedOn),
    irsMonthDate(dates.postedOn),
    dates.reinstatedOn ? irsMonthDate(dates.reinstatedOn) : '',
  ]);
}

function parseOptions(): Required<Omit<BuildOptions, 'log'>> {
  const { values } = commandArgs(
    {
      options: {
        out: { type: 'string' },
        source: { type: 'string' },
        'bmf-rows': { type: 'string' },
        rows: { type: 'string' },
        seed: { type: 'string' },
        'as-of': { type: 'string' },
      },
    },
    USAGE,
  );
  const fail = (message: string): never => {
    console.error(`${message}\n${USAGE}`);
    process.exit(2);
  };
  const count = (name: string, text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const n = Number(text.replaceAll('_', '').replaceAll(',', ''));
    return Number.isSafeInteger(n) && n > 0 ? n : fail(`--${name} takes a whole number above 0, not "${text}".`);
  };
  const asOf = values['as-of'] ?? DEFAULTS.asOf;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(asOf))) fail('--as-of takes a date, YYYY-MM-DD.');
  return {
    out: values.out ?? fail('--out names the folder to write the files in.'),
    source: values.source ?? SHARED_BMF,
    bmfRows: count('bmf-rows', values['bmf-rows'], DEFAULTS.bmfRows),
    rows: count('rows', values.rows, DEFAULTS.rows),
    seed: count('seed', values.seed, DEFAULTS.seed),
    asOf,
  };
}

/**
 * Writes the national-size files (see the top of this file) and reports each one.
 * @throws Error when the real rows cannot give the rows asked for (e.g. more Publication 78 rows than
 *   deductible organizations in the generated BMF: raise bmfRows)
 */
export async function buildNationalIrsFiles(options: BuildOptions): Promise<BuildReport> {
  const o = {
    out: options.out,
    source: options.source ?? SHARED_BMF,
    bmfRows: options.bmfRows ?? DEFAULTS.bmfRows,
    rows: options.rows ?? DEFAULTS.rows,
    seed: options.seed ?? DEFAULTS.seed,
    asOf: options.asOf ?? DEFAULTS.asOf,
    log: options.log ?? ((line: string) => console.error(line)),
  };
  const started = performance.now();
  o.log(`Reading the real rows of ${o.source}`);
  const sample = await loadSample(o.source, o.asOf);
  const rssAfterSampleMb = peakRssMb();
  o.log(`${fmt(sample.orgs.length)} real rows read (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const plan = planBmf(sample, o.bmfRows, o.seed);
  const counts = countOrgs(sample, plan);
  const kOwn = Math.min(o.rows, counts.pub78Own);
  const kSubordinates = o.rows - kOwn;
  if (kSubordinates > counts.pub78Subordinates)
    throw new Error(
      `The generated BMF has ${fmt(counts.pub78Own + counts.pub78Subordinates)} organizations eligible for Publication 78, fewer than --rows ${fmt(o.rows)}: raise --bmf-rows.`,
    );
  if (o.rows > counts.epostcardYears)
    throw new Error(
      `The generated BMF's ${fmt(counts.epostcardFilers)} Form 990-N filers have ${fmt(counts.epostcardYears)} years to file, fewer than --rows ${fmt(o.rows)}: raise --bmf-rows.`,
    );
  const reinstatedRows = Math.min(counts.revocable, Math.round(o.rows * REINSTATED_SHARE));
  const files: FileReport[] = [];

  /** Writes one file with `fill`, timing it and reading the peak memory after it. */
  async function write(file: string, expected: number, fill: (out: LineFile) => Promise<void>) {
    const t0 = performance.now();
    const out = new LineFile(path.join(o.out, file), (rows) =>
      o.log(
        `  ${file}: ${fmt(rows)} rows (${Math.round((100 * rows) / expected)}%), ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      ),
    );
    await fill(out);
    await out.close();
    const report = {
      file,
      rows: out.rows,
      bytes: out.bytes,
      seconds: (performance.now() - t0) / 1000,
      peakRssMb: peakRssMb(),
    };
    files.push(report);
    o.log(`${file}: ${fmt(report.rows)} rows, ${(report.bytes / 1e6).toFixed(1)} MB, ${report.seconds.toFixed(1)} s`);
  }

  // The EO BMF extract: the real header, then the region's organizations with their new EINs.
  for (let region = 1; region <= 4; region++) {
    await write(NATIONAL_FILES.bmf[region - 1], plan.counts[region - 1], async (out) => {
      out.line(BMF_HEADER);
      for (const { offset, org } of regionOrgs(sample, plan, region))
        if (out.row(`${einAt(BMF_EIN_PREFIXES, offset)},${org.rest}`)) await out.flush();
    });
  }

  // Form 990-N data: every FILING_REQ_CD 02 filer of the BMF, several consecutive years ending at its TAX_PERIOD.
  let filerIndex = 0;
  await write(NATIONAL_FILES.epostcard, Math.max(o.rows, counts.epostcardFilers * 3), async (out) => {
    const rng = rngFor(o.seed, 'epostcard');
    for (const { offset, org } of bmfOrgs(sample, plan)) {
      if (!org.epostcardCount) continue;
      const years = epostcardYearCount({
        wanted: drawInt(rng(), 1, EPOSTCARD_MAX_WANTED_YEARS),
        written: out.rows,
        index: filerIndex++,
        filers: counts.epostcardFilers,
        minimumRows: o.rows,
        available: org.epostcardCount,
      });
      let full = false;
      const ein = einAt(BMF_EIN_PREFIXES, offset);
      for (const line of epostcardRows(ein, org, years, rng, sample.bannedOfficerNames)) full = out.row(line) || full;
      if (full) await out.flush();
    }
    if (out.rows < o.rows)
      throw new Error(
        `Only ${fmt(out.rows)} Form 990-N rows fit the ${fmt(counts.epostcardFilers)} filers' years: raise --bmf-rows.`,
      );
  });

  // Automatic Revocation List: reinstated organizations of the BMF, then revoked ones that left it (new EINs).
  await write(NATIONAL_FILES.revocations, o.rows, async (out) => {
    const rng = rngFor(o.seed, 'revocations');
    // The latest year a revocation can be of, by fiscal year end month (index 1–12): with 90 days
    // left for the posting, or 400 for the posting and a reinstatement.
    const months = Array.from({ length: 13 }, (_, m) => m || 12);
    const lastRevoked = months.map((m) => lastRevocationBeginYear(m, o.asOf, 90));
    const lastReinstated = months.map((m) => lastRevocationBeginYear(m, o.asOf, 400));
    let needed = reinstatedRows;
    let remaining = counts.revocable;
    for (const { offset, org } of bmfOrgs(sample, plan)) {
      if (!org.revocable || needed === 0) continue;
      if (!takesItem(rng(), needed, remaining--)) continue;
      needed--;
      const month = fiscalMonth(org.ACCT_PD)!;
      // Revoked before the years of its 990-N rows, with time for the posting and the reinstatement.
      const filedFrom = (org.lastEndYear || Number(o.asOf.slice(0, 4))) - EPOSTCARD_MAX_WANTED_YEARS - 1;
      const last = Math.max(FIRST_WAVE_BEGIN_YEAR, Math.min(filedFrom, lastReinstated[month]));
      const revokedOn = revocationDate(month, drawInt(rng(), FIRST_WAVE_BEGIN_YEAR, last));
      const postedOn = postingDate(revokedOn, drawInt(rng(), 90, 330), o.asOf);
      const reinstatedOn = reinstatementDate(postedOn, drawInt(rng(), 30, 720), o.asOf);
      const ein = einAt(BMF_EIN_PREFIXES, offset);
      if (out.row(revocationRow(ein, org, { revokedOn, postedOn, reinstatedOn }))) await out.flush();
    }
    const count = o.rows - reinstatedRows;
    const step = einStep(count, REVOKED_EIN_PREFIXES.length * EINS_PER_PREFIX);
    const order = sample.revocable.slice();
    let offset = -1;
    for (let given = 0; given < count;) {
      shuffle(order, rng);
      for (let i = 0; i < order.length && given < count; i++, given++) {
        const org = sample.orgs[order[i]];
        const month = fiscalMonth(org.ACCT_PD)!;
        const beginYear =
          rng() < FIRST_WAVE_SHARE
            ? FIRST_WAVE_BEGIN_YEAR
            : drawInt(rng(), FIRST_WAVE_BEGIN_YEAR + 1, Math.max(FIRST_WAVE_BEGIN_YEAR + 1, lastRevoked[month]));
        const revokedOn = revocationDate(month, beginYear);
        const postedOn = postingDate(revokedOn, drawInt(rng(), 90, 330), o.asOf);
        offset += drawInt(rng(), 1, step);
        if (
          out.row(revocationRow(einAt(REVOKED_EIN_PREFIXES, offset), org, { revokedOn, postedOn, reinstatedOn: null }))
        )
          await out.flush();
      }
    }
  });

  // Publication 78 data: deductible organizations of the BMF, their own entries first, subordinates only to fill up.
  await write(NATIONAL_FILES.pub78, o.rows, async (out) => {
    const rng = rngFor(o.seed, 'pub78');
    const left = { own: [kOwn, counts.pub78Own], sub: [kSubordinates, counts.pub78Subordinates] };
    for (const { offset, org } of bmfOrgs(sample, plan)) {
      if (!org.pub78) continue;
      const pool = org.AFFILIATION === '9' ? left.sub : left.own;
      const take = pool[0] > 0 && takesItem(rng(), pool[0], pool[1]);
      pool[1]--;
      if (!take) continue;
      pool[0]--;
      const abroad = foreign(org);
      const line = pipeLine([
        einAt(BMF_EIN_PREFIXES, offset),
        titleCase(org.name),
        abroad ? '' : titleCase(org.city),
        org.STATE,
        abroad ? titleCase(org.city) : 'United States',
        org.pub78,
      ]);
      if (out.row(line)) await out.flush();
    }
  });

  return {
    files,
    sampleRows: sample.orgs.length,
    epostcardOrganizations: filerIndex,
    reinstated: reinstatedRows,
    seconds: (performance.now() - started) / 1000,
    peakRssMb: peakRssMb(),
    rssAfterSampleMb,
  };
}

/** The summary table printed at the end. */
function summary(report: BuildReport, o: Required<Omit<BuildOptions, 'log'>>): string {
  const rows = report.files.map((f) => [
    f.file,
    fmt(f.rows),
    (f.bytes / 1e6).toFixed(1),
    f.seconds.toFixed(1),
    fmt(f.peakRssMb),
  ]);
  const total = report.files.reduce((a, f) => ({ rows: a.rows + f.rows, bytes: a.bytes + f.bytes }), {
    rows: 0,
    bytes: 0,
  });
  rows.push([
    'total',
    fmt(total.rows),
    (total.bytes / 1e6).toFixed(1),
    report.seconds.toFixed(1),
    fmt(report.peakRssMb),
  ]);
  const table = [['file', 'rows', 'MB', 'seconds', 'peak RSS MB'], ...rows];
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  return [
    `National-size IRS files in ${o.out} (seed ${o.seed}, as of ${o.asOf}) from ${fmt(report.sampleRows)} real rows of ${o.source}`,
    `990-N: ${fmt(report.epostcardOrganizations)} filers; revocation list: ${fmt(report.reinstated)} reinstated organizations of the BMF`,
    `peak RSS once the real rows were read: ${fmt(report.rssAfterSampleMb)} MB`,
    ...table.map((r) => r.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const o = parseOptions();
  buildNationalIrsFiles(o).then(
    (report) => console.log(summary(report, o)),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
