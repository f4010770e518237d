import { parse } from 'csv-parse/sync';
import { formatEin } from '../../../shared/rules/formats.ts';
import {
  IRS_BULK_CHECK_COLUMNS,
  IRS_BULK_CHECK_FIELD,
  IRS_BULK_CHECK_MAX_ROWS,
  type IrsBulkCheckCounts,
  type IrsBulkCheckRow,
} from '../../../shared/schemas/irs-bulk-check.ts';
import { csvLines, csvText } from '../../csv.ts';
import { HttpError, ValidationError } from '../../errors.ts';
import { checkOrganization, NOT_FOUND_REASONS } from './check-organization.ts';
import type { IrsCheck } from '../../../shared/schemas/irs-check.ts';
import type { DbOrTx } from '../../db/client.ts';

/** EINs checked between two writes of a check's progress and partial result. */
const BULK_CHECK_BATCH = 250;

const refuse = (message: string) => ValidationError.field(IRS_BULK_CHECK_FIELD, message);

/**
 * The EINs of an uploaded CSV (docs/irs-standing.md "Checking a list of EINs"): the first column of
 * each line, with or without the dash (spaces dropped); a first line whose first cell holds no digit
 * is a header; blank lines are skipped; a repeated EIN is kept once, at its first line.
 * @param text the file as text (a byte-order mark is dropped)
 * @returns the distinct EINs, 9 digits each, in the file's order, and the data lines read
 * @throws ValidationError 422 on `file`: a line that CSV cannot read, a value that is not an EIN
 *   (naming its line, the header being line 1), no EIN at all, or more than IRS_BULK_CHECK_MAX_ROWS lines
 */
export function readEinList(text: string): { eins: string[]; lines: number } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    throw refuse(`The file cannot be read as CSV${line ? ` at line ${line}` : ''}.`);
  }
  const seen = new Set<string>();
  let lines = 0;
  records.forEach(({ record, info }, i) => {
    const cell = (record[0] ?? '').trim();
    if (i === 0 && !/\d/.test(cell)) return;
    if (!cell) return;
    lines += 1;
    if (lines > IRS_BULK_CHECK_MAX_ROWS)
      throw refuse(`The file holds more than ${IRS_BULK_CHECK_MAX_ROWS.toLocaleString('en-US')} EINs: split it.`);
    const ein = cell.replace(/[\s-]/g, '');
    if (!/^\d{9}$/.test(ein))
      throw refuse(`Line ${info.lines}: "${cell.slice(0, 40)}" is not an EIN (9 digits, with or without the dash).`);
    seen.add(ein);
  });
  if (!seen.size) throw refuse('The file holds no EIN: put one EIN on each line.');
  return { eins: [...seen], lines };
}

/** One organization's line of the result, from the instant check's answer. */
function resultRow(check: IrsCheck): IrsBulkCheckRow {
  const irs = check.standing.irs;
  return {
    ein: check.ein_formatted,
    name: check.name,
    city: check.city,
    state: check.state,
    standing: check.standing.label,
    return_owed: irs.return_owed,
    latest_return: irs.latest_period_filed ?? (irs.latest_tax_year_filed ? String(irs.latest_tax_year_filed) : ''),
    missed_years: irs.missed_tax_years.join(' '),
    revocation_date: irs.revocation_date ?? '',
    on_revocation_list: irs.revoked_on ?? '',
    deductibility: check.deductible,
    next_step: check.next_steps[0] ?? '',
    release_cited: check.sources.map((s) => `${s.dataset} ${s.released_on}`).join('; '),
  };
}

/** The line of an EIN none of the IRS data holds: why that happens, as the instant check says. */
const notFoundRow = (ein: string): IrsBulkCheckRow => ({
  ein: formatEin(ein),
  name: '',
  city: '',
  state: '',
  standing: 'Not found in the IRS data',
  return_owed: '',
  latest_return: '',
  missed_years: '',
  revocation_date: '',
  on_revocation_list: '',
  deductibility: '',
  next_step: NOT_FOUND_REASONS,
  release_cited: '',
});

/** One batch of a check, as checkEins reports it. */
export interface BulkCheckBatch {
  /** EINs done in all once this batch is counted: the index in the list where the next batch starts. */
  done: number;
  /**
   * The batch's lines of the result CSV (IRS_BULK_CHECK_COLUMNS, formula-guarded as csvText does),
   * each ending in CRLF, in the list's order; the header line first when the batch starts the list.
   */
  csv: string;
  /** The batch's organizations per standing state and 'not_found'. */
  counts: IrsBulkCheckCounts;
}

/** `a` plus `b`, state by state: the counts of a check so far and of its next batch. */
export function addCounts(a: IrsBulkCheckCounts, b: IrsBulkCheckCounts): IrsBulkCheckCounts {
  const sum: IrsBulkCheckCounts = { ...a };
  for (const [key, n] of Object.entries(b) as [keyof IrsBulkCheckCounts, number][]) sum[key] = (sum[key] ?? 0) + n;
  return sum;
}

/**
 * Checks a list of EINs through the instant check (checkOrganization, docs/irs-standing.md
 * "Instant check" and "Checking a list of EINs"), from `opts.from` on, BULK_CHECK_BATCH at a time,
 * handing each batch's CSV lines and counts to `onBatch` before the next batch starts. The batches'
 * `csv`, joined in order from the start of the list, are the whole result CSV, whether the list was
 * checked in one go or taken up again from a batch's `done`. No Fastify in it: staff's upload and the
 * bulk-check job call it, and a central organization's workspace can call it later.
 * @param eins 9 digits each, distinct
 * @param today 'YYYY-MM-DD'
 * @param onBatch stores a batch (e.g. appends it to the check's row); answers false to stop there
 * @param opts `from`: the index to start at (a batch's `done`; default 0); `signal`: once aborted,
 *   no further batch starts
 * @returns 'finished' when the last EIN's batch was handed over, 'stopped' when `onBatch` said so or
 *   the signal was aborted before the end
 * @throws what checkOrganization throws other than 404 (a database error), and what `onBatch` throws
 * Reads only; never an in-care-of name (it is not kept).
 */
export async function checkEins(
  db: DbOrTx,
  eins: readonly string[],
  today: string,
  onBatch: (batch: BulkCheckBatch) => Promise<boolean>,
  opts: { from?: number; signal?: AbortSignal } = {},
): Promise<'finished' | 'stopped'> {
  const size = BULK_CHECK_BATCH;
  for (let at = opts.from ?? 0; at < eins.length; at += size) {
    // Between batches only: a batch is stored whole or not at all, so whoever takes the list up
    // again starts at a batch's end.
    if (opts.signal?.aborted) return 'stopped';
    const rows: IrsBulkCheckRow[] = [];
    const counts: IrsBulkCheckCounts = {};
    for (const ein of eins.slice(at, at + size)) {
      try {
        const check = await checkOrganization(db, ein, today);
        rows.push(resultRow(check));
        counts[check.standing.state] = (counts[check.standing.state] ?? 0) + 1;
      } catch (err) {
        if (!(err instanceof HttpError && err.statusCode === 404)) throw err;
        rows.push(notFoundRow(ein));
        counts.not_found = (counts.not_found ?? 0) + 1;
      }
    }
    const lines = rows.map((r) => Object.values(r));
    const csv = at === 0 ? csvText(IRS_BULK_CHECK_COLUMNS, lines) : csvLines(lines);
    if (!(await onBatch({ done: Math.min(at + size, eins.length), csv, counts }))) return 'stopped';
  }
  return 'finished';
}
