import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { parse } from 'csv-parse';

/** The IRS data sets the product loads (docs/irs-data.md). */
export type IrsDataset = 'bmf' | 'epostcard' | 'revocations' | 'pub78';

export const IRS_DATASET_NAMES: Record<IrsDataset, string> = {
  bmf: 'EO Business Master File extract',
  epostcard: 'Form 990-N (e-Postcard) data',
  revocations: 'Automatic Revocation List',
  pub78: 'Publication 78 data',
};

/** A file that cannot be loaded as the data set it was given as; the message says why, for a person. */
export class IrsFileError extends Error {
  override name = 'IrsFileError';
}

/** The BMF extract's header (docs/irs-data.md "EO BMF"). */
export const BMF_HEADER =
  'EIN,NAME,ICO,STREET,CITY,STATE,ZIP,GROUP,SUBSECTION,AFFILIATION,CLASSIFICATION,RULING,DEDUCTIBILITY,FOUNDATION,ACTIVITY,ORGANIZATION,STATUS,TAX_PERIOD,ASSET_CD,INCOME_CD,FILING_REQ_CD,PF_FILING_REQ_CD,ACCT_PD,ASSET_AMT,INCOME_AMT,REVENUE_AMT,NTEE_CD,SORT_NAME';

/**
 * The fields of each data set's rows, in the IRS's order (docs/irs-data.md "Data sets"): the BMF's
 * header, and the IRS's names of the pipe-delimited files' fields (those files have no header).
 */
export const IRS_FIELDS: Record<IrsDataset, readonly string[]> = {
  bmf: BMF_HEADER.split(','),
  epostcard: [
    'EIN',
    'Tax Year',
    'Organization Name',
    'Gross receipts not greater than',
    'Organization has terminated',
    'Tax Period Begin Date',
    'Tax Period End Date',
    'Website URL',
    "Principal Officer's Name",
    "Principal Officer's Address Line 1",
    "Principal Officer's Address Line 2",
    "Principal Officer's Address City",
    "Principal Officer's Address Province",
    "Principal Officer's Address State",
    "Principal Officer's Address Zip Code",
    "Principal Officer's Address Country",
    'Organization Mailing Address Line 1',
    'Organization Mailing Address Line 2',
    'Organization Mailing Address City',
    'Organization Mailing Address Province',
    'Organization Mailing Address State',
    'Organization Mailing Address Postal Code',
    'Organization Mailing Address Country',
    "Organization's Doing Business as Name 1",
    "Organization's Doing Business as Name 2",
    "Organization's Doing Business as Name 3",
  ],
  revocations: [
    'EIN',
    'Legal Name',
    'Doing Business As Name',
    'Organization Address',
    'City',
    'State',
    'ZIP Code',
    'Country',
    'Exemption Type',
    'Revocation Date',
    'Revocation Posting Date',
    'Exemption Reinstatement Date',
  ],
  pub78: ['EIN', 'Legal Name', 'City', 'State', 'Country', 'Deductibility Status'],
};

/** Fields per row of each data set's file. */
const FIELD_COUNT: Record<IrsDataset, number> = {
  bmf: IRS_FIELDS.bmf.length,
  epostcard: IRS_FIELDS.epostcard.length,
  revocations: IRS_FIELDS.revocations.length,
  pub78: IRS_FIELDS.pub78.length,
};

/** One Form 990-N of the IRS's 990-N data, as loaded (docs/irs-data.md "Form 990-N data"). */
export interface EpostcardRow {
  ein: string;
  /** The calendar year the tax period ends in (the product's tax year). */
  taxYear: number;
  periodBegin: string;
  periodEnd: string;
  terminated: boolean;
}

/** One entry of the Automatic Revocation List, as loaded (docs/irs-data.md "Automatic Revocation List"). */
export interface RevocationRow {
  ein: string;
  legalName: string;
  revokedOn: string;
  postedOn: string | null;
  reinstatedOn: string | null;
}

/** One entry of the Publication 78 data, as loaded (docs/irs-data.md "Publication 78 data"). */
export interface Pub78Row {
  ein: string;
  name: string;
  city: string;
  state: string;
  country: string;
  /** Deductibility status codes (PC, PF, GROUP, ...), upper case, in the file's order. */
  codes: string[];
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

function validDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** 'MM-DD-YYYY' (the 990-N data's dates) to 'YYYY-MM-DD'; null when it is not one. */
function parseUsDate(text: string): string | null {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return validDate(year, month, day) ? iso(year, month, day) : null;
}

/** 'YYYY-MM-DD' to 'MM-DD-YYYY', the 990-N data's date format (the inverse of parseUsDate). */
export function usDate(iso: string): string {
  return `${iso.slice(5, 7)}-${iso.slice(8, 10)}-${iso.slice(0, 4)}`;
}

/** 'YYYY-MM-DD' to 'DD-MON-YYYY', the revocation list's date format (the inverse of parseIrsMonthDate). */
export function irsMonthDate(iso: string): string {
  return `${iso.slice(8, 10)}-${MONTHS[Number(iso.slice(5, 7)) - 1]}-${iso.slice(0, 4)}`;
}

/** 'DD-MON-YYYY' (the revocation list's dates, e.g. 15-MAY-2011) to 'YYYY-MM-DD'; null when it is not one. */
function parseIrsMonthDate(text: string): string | null {
  const m = /^(\d{2})-([A-Za-z]{3})-(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const month = MONTHS.indexOf(m[2].toUpperCase()) + 1;
  const [day, year] = [Number(m[1]), Number(m[3])];
  return month > 0 && validDate(year, month, day) ? iso(year, month, day) : null;
}

const EIN = /^\d{9}$/;

/**
 * One row of the 990-N data: EIN | Tax Year | Organization Name | Gross receipts not greater than |
 * Organization has terminated (T/F) | Tax Period Begin Date | Tax Period End Date | … (26 fields,
 * dates MM-DD-YYYY). The principal officer and the addresses are not kept.
 * @returns the row, or null when its EIN is not 9 digits (skipped, counted)
 * @throws IrsFileError naming the line when the row is not in the layout
 */
function parseEpostcardRow(f: string[], line: number): EpostcardRow | null {
  const ein = f[0].trim();
  if (!EIN.test(ein)) return null;
  const begin = parseUsDate(f[5]);
  const end = parseUsDate(f[6]);
  const terminated = f[4].trim().toUpperCase();
  if (!/^\d{4}$/.test(f[1].trim()) || !begin || !end || (terminated !== 'T' && terminated !== 'F')) {
    throw new IrsFileError(
      `Line ${line} is not a Form 990-N data row: it needs a 4-digit tax year, T or F for "terminated" and the tax period's begin and end dates as MM-DD-YYYY.`,
    );
  }
  return { ein, taxYear: Number(end.slice(0, 4)), periodBegin: begin, periodEnd: end, terminated: terminated === 'T' };
}

/**
 * One row of the Automatic Revocation List: EIN | Legal Name | Doing Business As Name |
 * Organization Address | City | State | ZIP Code | Country | Exemption Type | Revocation Date |
 * Revocation Posting Date | Exemption Reinstatement Date (dates DD-MON-YYYY, the last two may be empty).
 * @returns the row, or null when its EIN is not 9 digits (skipped, counted)
 * @throws IrsFileError naming the line when the row is not in the layout
 */
function parseRevocationRow(f: string[], line: number): RevocationRow | null {
  const ein = f[0].trim();
  if (!EIN.test(ein)) return null;
  const revokedOn = parseIrsMonthDate(f[9]);
  const postedOn = f[10].trim() ? parseIrsMonthDate(f[10]) : null;
  const reinstatedOn = f[11].trim() ? parseIrsMonthDate(f[11]) : null;
  if (!revokedOn || (f[10].trim() && !postedOn) || (f[11].trim() && !reinstatedOn)) {
    throw new IrsFileError(
      `Line ${line} is not an Automatic Revocation List row: its revocation, posting and reinstatement dates must be DD-MON-YYYY (e.g. 15-MAY-2026).`,
    );
  }
  return { ein, legalName: f[1].trim(), revokedOn, postedOn, reinstatedOn };
}

/**
 * One row of the Publication 78 data: EIN | Legal Name | City | State | Country | Deductibility
 * Status (codes such as PC, PF, GROUP; several are joined by commas, e.g. "EO,LODGE"; the country
 * is empty for the United States in some releases).
 * @returns the row, or null when its EIN is not 9 digits (skipped, counted)
 * @throws IrsFileError naming the line when a code is not letters
 */
function parsePub78Row(f: string[], line: number): Pub78Row | null {
  const ein = f[0].trim();
  if (!EIN.test(ein)) return null;
  const codes = f[5]
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  if (codes.some((c) => !/^[A-Z]{2,6}$/.test(c))) {
    throw new IrsFileError(
      `Line ${line} is not a Publication 78 data row: its last field must be deductibility codes such as PC or EO,LODGE.`,
    );
  }
  return { ein, name: f[1].trim(), city: f[2].trim(), state: f[3].trim(), country: f[4].trim(), codes };
}

/**
 * The rows of an IRS file as arrays of fields, streamed (any size): the BMF as RFC 4180 CSV after
 * its header, the pipe-delimited files as they are (no quoting: names may hold quotes).
 * Yields [fields, line number].
 * @throws IrsFileError when a row has the wrong number of fields or the BMF header is not the extract's
 */
export async function* irsFileRows(file: string, dataset: IrsDataset): AsyncGenerator<[string[], number]> {
  const parser = fs
    .createReadStream(file)
    .pipe(
      parse(
        dataset === 'bmf'
          ? { bom: true, skip_empty_lines: true, relax_column_count: true, info: true }
          : { delimiter: '|', quote: false, bom: true, skip_empty_lines: true, relax_column_count: true, info: true },
      ),
    );
  const expected = FIELD_COUNT[dataset];
  let first = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (first && dataset === 'bmf') {
        first = false;
        if (record.join(',') !== BMF_HEADER) {
          throw new IrsFileError(
            `This is not an IRS EO BMF extract: its first line must be the header ${BMF_HEADER.slice(0, 40)}…`,
          );
        }
        continue;
      }
      first = false;
      if (record.length !== expected) {
        throw new IrsFileError(
          `Line ${info.lines} has ${record.length} fields where the ${IRS_DATASET_NAMES[dataset]} has ${expected}: this is not that file, or it is cut short.`,
        );
      }
      yield [record, info.lines];
    }
  } catch (err) {
    if (err instanceof IrsFileError) throw err;
    // csv-parse's own errors (an unclosed quote, mostly a file cut short) name their line.
    throw new IrsFileError(`The file cannot be read as the ${IRS_DATASET_NAMES[dataset]}: ${(err as Error).message}`);
  }
}

/** The row reader of each pipe-delimited data set (the BMF's rows are read by the BMF importer). */
export const ROW_PARSERS: Record<
  IrsDataset,
  ((f: string[], line: number) => EpostcardRow | RevocationRow | Pub78Row | null) | null
> = {
  bmf: null,
  epostcard: parseEpostcardRow,
  revocations: parseRevocationRow,
  pub78: parsePub78Row,
};

/** What a file check found. */
export interface IrsFileCheck {
  /** Data rows (the BMF's header not counted). */
  rows: number;
  /** sha256 of the file's bytes, hex. */
  sha256: string;
}

/**
 * Reads a whole IRS file once, before anything is written: its sha256, that it is text (ASCII or
 * UTF-8), that it ends with a line break (a download cut short does not), and that every row is in
 * the data set's layout. Streams: memory stays flat whatever the size.
 * @throws IrsFileError with the reason (missing, empty, not text, cut short, not the layout)
 */
export async function checkIrsFile(file: string, dataset: IrsDataset): Promise<IrsFileCheck> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new IrsFileError(`No such file: ${file}`);
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let last = -1;
  let size = 0;
  let offset = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      throw new IrsFileError(
        `The file is not plain text (ASCII or UTF-8) near byte ${offset}: the IRS publishes these files as ASCII text.`,
      );
    }
    offset += chunk.length;
    size += chunk.length;
    last = chunk[chunk.length - 1];
  }
  if (size === 0) throw new IrsFileError('The file is empty.');
  if (last !== 0x0a)
    throw new IrsFileError('The file does not end with a line break: it looks cut short. Download it again.');
  let rows = 0;
  const parseRow = ROW_PARSERS[dataset];
  for await (const [fields, line] of irsFileRows(file, dataset)) {
    parseRow?.(fields, line);
    rows++;
  }
  if (rows === 0) throw new IrsFileError(`The file has no ${IRS_DATASET_NAMES[dataset]} rows.`);
  return { rows, sha256: hash.digest('hex') };
}
