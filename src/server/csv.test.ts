import { describe, expect, it } from 'vitest';
import { csvLines, csvText } from './csv.ts';

describe('csvText', () => {
  it('writes a header and CRLF rows, quoting commas, quotes and line breaks inside a cell', () => {
    expect(
      csvText(
        ['Name', 'Changes'],
        [
          ['Lincoln Boosters, Inc.', 'Price: $1 → $2\nCode: "A"'],
          ['Plain', null],
        ],
      ),
    ).toBe('Name,Changes\r\n"Lincoln Boosters, Inc.","Price: $1 → $2\nCode: ""A"""\r\nPlain,\r\n');
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    expect(csvText(['Name'], [['=HYPERLINK("x")'], ['-1'], ['@SUM(A1)']])).toBe(
      'Name\r\n"\'=HYPERLINK(""x"")"\r\n\'-1\r\n\'@SUM(A1)\r\n',
    );
  });

  it('is its header followed by the lines of its rows written part by part', () => {
    const rows = [
      ['=a', 'b,c'],
      ['d\ne', null],
      ['f', 'g'],
    ];
    expect(csvText(['X', 'Y'], []) + csvLines(rows.slice(0, 1)) + csvLines(rows.slice(1))).toBe(
      csvText(['X', 'Y'], rows),
    );
    expect(csvLines([])).toBe('');
  });
});
