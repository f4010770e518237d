import { describe, expect, it } from 'vitest';
import { BMF_COLUMNS, detectLayout, rowToAccount } from './roster-rows.ts';

const BMF_HEADER = [...BMF_COLUMNS];
/** A BMF data row from eo_wy.csv (a subordinate: AFFILIATION 9). */
const LEGION =
  '010631747,AMERICAN LEGION,% DOUG HENSALA,1320 HUGUR AVE,CHEYENNE,WY,82001-4917,0925,19,9,1000,194603,0,00,907908000,5,01,202506,0,0,02,0,06,0,0,0,,0017 E A BLACKMORE MEMORIAL'.split(
    ',',
  );

describe('detectLayout', () => {
  it('knows the BMF header in any column order and case', () => {
    expect(detectLayout(BMF_HEADER)?.kind).toBe('irs-bmf');
    expect(
      detectLayout([
        '\uFEFFein',
        ...BMF_HEADER.slice(1)
          .reverse()
          .map((c) => c.toLowerCase()),
      ])?.kind,
    ).toBe('irs-bmf');
  });

  it('reads a simple roster header case-insensitively, e-mail as email, and needs a name column', () => {
    expect(detectLayout([' Name ', 'E-Mail', 'STATE', 'notes'])).toEqual({
      kind: 'roster',
      index: { name: 0, email: 1, state: 2 },
      width: 4,
    });
    expect(detectLayout(['organization', 'email'])).toBeNull();
    expect(detectLayout([])).toBeNull();
  });
});

describe('rowToAccount', () => {
  it('maps a BMF row with the BMF importer (shown name, legal name, codes) into the given group', () => {
    const layout = detectLayout(BMF_HEADER)!;
    const out = rowToAccount(layout, LEGION, 7);
    expect(out).toEqual({
      account: expect.objectContaining({
        name: '0017 E A BLACKMORE MEMORIAL',
        legalName: 'AMERICAN LEGION',
        careOf: 'DOUG HENSALA',
        ein: '010631747',
        email: null,
        gen: '0925',
        groupId: 7,
        city: 'CHEYENNE',
        state: 'WY',
        fiscalYearEndMonth: 6,
        isListed: true,
        source: 'irs-bmf',
      }),
    });
    expect(rowToAccount(layout, ['1234', ...LEGION.slice(1)], 7)).toEqual({
      reason: 'The EIN "1234" must be 9 digits.',
    });
    expect(rowToAccount(layout, LEGION.slice(1), 7)).toEqual({ reason: 'The row has 27 fields; the header has 28.' });
  });

  it('cleans and checks a roster row', () => {
    const layout = detectLayout(['name', 'email', 'city', 'state', 'ein'])!;
    expect(
      rowToAccount(
        layout,
        ['  Lincoln \t Boosters\u0000 ', ' Info@Lincoln.Example ', 'Cheyenne', 'wy', '12-3456789'],
        null,
      ),
    ).toEqual({
      account: expect.objectContaining({
        name: 'Lincoln Boosters',
        email: 'info@lincoln.example',
        city: 'Cheyenne',
        state: 'WY',
        ein: '123456789',
        groupId: null,
        isListed: false,
        source: 'roster',
        searchText: 'lincoln boosters cheyenne',
      }),
    });
    const reason = (fields: string[]) => (rowToAccount(layout, fields, null) as { reason?: string }).reason;
    expect(reason(['', 'a@example.com', '', '', ''])).toBe('The name is missing.');
    expect(reason(['x'.repeat(256), 'a@example.com', '', '', ''])).toBe(
      'The name must not be longer than 255 characters.',
    );
    expect(reason(['A', 'a@example', '', '', ''])).toBe('The e-mail "a@example" is not a valid address.');
    expect(reason(['A', 'a@example.com', '', 'Wyoming', ''])).toBe('The state "Wyoming" is not a US state code.');
    expect(reason(['A', '', '', '', '12345678X'])).toBe('The EIN "12345678X" must be 9 digits.');
    expect(reason(['A', '', 'Cody', 'WY', ''])).toBe(
      'The row has neither an EIN nor an e-mail, so it cannot be checked for duplicates.',
    );
  });
});
