import { stringify } from 'csv-stringify/sync';

/** A cell of a CSV export: text, a number, or nothing (an empty cell). */
export type CsvCell = string | number | null | undefined;

/**
 * A staff CSV export as text (docs/work-queue.md "CSV export", docs/irs-gen-duties.md "Export"):
 * RFC 4180 through csv-stringify (quoted where needed, CRLF line ends), a header row first. Text
 * that starts with = + - @, a tab or a carriage return gets a leading apostrophe, so a spreadsheet
 * shows it instead of running it as a formula (a group's name comes from outside); a cell holding a
 * line break is quoted.
 * @param header the column names
 * @param rows one array of cells per line, in the header's order
 */
export function csvText(header: readonly string[], rows: CsvCell[][]): string {
  return csvLines([[...header], ...rows]);
}

/**
 * Lines of a staff CSV export without its header, written as csvText writes them, each ending in
 * CRLF: a header written by csvText(header, []) followed by the lines of consecutive parts equals
 * csvText(header, all rows), so a long export can be stored part by part.
 * @param rows one array of cells per line
 * @returns the lines as text ('' for no row)
 */
export function csvLines(rows: CsvCell[][]): string {
  const guard = (value: CsvCell) =>
    typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : (value ?? '');
  // A line break inside a cell (several changes of one audit row) is quoted like the CRLF between
  // rows, or a spreadsheet would start a new row at it.
  return stringify(
    rows.map((r) => r.map(guard)),
    {
      record_delimiter: 'windows',
      quoted_match: /[\r\n]/,
    },
  );
}
