import { describe, expect, it } from 'vitest';
import { MONTH_OPTIONS, viewerAddress } from './questions.ts';

describe('bylaws form helpers', () => {
  it('the month list has 12 entries with 0-based values (docs/requirements/constants.md)', () => {
    expect(MONTH_OPTIONS).toHaveLength(12);
    expect(MONTH_OPTIONS[0]).toEqual(['0', 'January']);
    expect(MONTH_OPTIONS[11]).toEqual(['11', 'December']);
  });

  it('gives the online viewer the download address with a cache-busting value', () => {
    const url = viewerAddress(
      'https://view.officeapps.live.com/op/view.aspx',
      'https://app.example/bylaws-generator/download/abc',
      'r4nd',
    );
    expect(url).toBe(
      'https://view.officeapps.live.com/op/view.aspx?src=https%3A%2F%2Fapp.example%2Fbylaws-generator%2Fdownload%2Fabc%3Fv%3Dr4nd',
    );
    const a = viewerAddress('https://viewer', 'https://app.example/d');
    const b = viewerAddress('https://viewer', 'https://app.example/d');
    expect(a).not.toBe(b);
  });
});
