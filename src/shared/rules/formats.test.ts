import { describe, expect, it } from 'vitest';
import 'dayjs/locale/fr';
import 'dayjs/locale/de';
import {
  formatCurrency,
  formatDate,
  formatDuration,
  formatFileSize,
  formatLocalDateTime,
  formatPercent,
  formatSizeLimit,
  formatWizardCurrency,
  trimText,
} from './formats.ts';

describe('formatCurrency (docs/requirements/constants.md: dollars, 2 decimals, leading minus)', () => {
  it.each([
    [0, '$0.00'],
    [1, '$0.01'],
    [99, '$0.99'],
    [100, '$1.00'],
    [1250, '$12.50'],
    [123456, '$1,234.56'],
    [100000000, '$1,000,000.00'],
    [-1, '-$0.01'],
    [-1200, '-$12.00'],
    [-123456789, '-$1,234,567.89'],
  ])('%i cents -> %s', (cents, text) => {
    expect(formatCurrency(cents)).toBe(text);
  });
});

describe('formatWizardCurrency (docs/requirements/constants.md: - for zero, parentheses for negatives)', () => {
  it('shows - for zero', () => {
    expect(formatWizardCurrency(0)).toEqual({ text: '-', isNegative: false });
  });
  it('shows positives as dollars', () => {
    expect(formatWizardCurrency(29500)).toEqual({ text: '$295.00', isNegative: false });
    expect(formatWizardCurrency(123456789)).toEqual({ text: '$1,234,567.89', isNegative: false });
  });
  it('shows negatives in parentheses, flagged for red', () => {
    expect(formatWizardCurrency(-5000)).toEqual({ text: '($50.00)', isNegative: true });
    expect(formatWizardCurrency(-123456)).toEqual({ text: '($1,234.56)', isNegative: true });
    expect(formatWizardCurrency(-1)).toEqual({ text: '($0.01)', isNegative: true });
  });
});

describe('formatPercent (the value times 100)', () => {
  it.each([
    [0, '0%'],
    [1, '100%'],
    [0.5, '50%'],
    [0.125, '12.5%'],
    [0.07, '7%'],
    [0.3333, '33.33%'],
    [1.5, '150%'],
    [-0.25, '-25%'],
  ])('%d -> %s', (value, text) => {
    expect(formatPercent(value)).toBe(text);
  });
});

describe('formatFileSize (decimal steps of 1,000, 1 decimal)', () => {
  it.each([
    [0, '0.0 B'],
    [1, '1.0 B'],
    [999, '999.0 B'],
    [1000, '1.0 KB'],
    [1500, '1.5 KB'],
    [1234567, '1.2 MB'],
    [5_000_000_000, '5.0 GB'],
    [2_500_000_000_000, '2.5 TB'],
    [3_000_000_000_000_000, '3000.0 TB'],
    [-5, '0.0 B'],
  ])('%i bytes -> %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it('never shows 1000.0 of a unit when rounding reaches the next unit', () => {
    expect(formatFileSize(999_960)).toBe('1.0 MB');
    expect(formatFileSize(999_999_999)).toBe('1.0 GB');
    expect(formatFileSize(999_949)).toBe('999.9 KB');
  });
});

describe('formatDate (default MM/DD/YYYY, any loaded dayjs locale)', () => {
  it('formats a local date as MM/DD/YYYY by default', () => {
    expect(formatDate(new Date(2024, 2, 5))).toBe('03/05/2024');
    expect(formatDate('2024-12-31')).toBe('12/31/2024');
    expect(formatDate(new Date(2023, 0, 9, 23, 59).getTime())).toBe('01/09/2023');
  });

  it('uses another pattern and locale when given', () => {
    expect(formatDate('2024-03-05', 'D MMMM YYYY', 'fr')).toBe('5 mars 2024');
    expect(formatDate('2024-07-14', 'dddd D MMMM YYYY', 'fr')).toBe('dimanche 14 juillet 2024');
    expect(formatDate('2024-03-05', 'D. MMMM YYYY', 'de')).toBe('5. März 2024');
    expect(formatDate('2024-03-05', 'MMMM D, YYYY')).toBe('March 5, 2024');
  });

  it('does not switch the global locale', () => {
    formatDate('2024-03-05', 'MMMM', 'fr');
    expect(formatDate('2024-03-05', 'MMMM')).toBe('March');
  });

  it('returns an empty string for empty or invalid input', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('formatLocalDateTime (MMMM D, YYYY h:mm a at a UTC offset)', () => {
  const instant = '2024-01-15T17:30:00Z';

  it('shows UTC by default', () => {
    expect(formatLocalDateTime(instant)).toBe('January 15, 2024 5:30 pm');
  });

  it('shifts to the given UTC offset in minutes', () => {
    expect(formatLocalDateTime(instant, -300)).toBe('January 15, 2024 12:30 pm');
    expect(formatLocalDateTime(instant, 330)).toBe('January 15, 2024 11:00 pm');
    expect(formatLocalDateTime(instant, 420)).toBe('January 16, 2024 12:30 am');
    expect(formatLocalDateTime(new Date(Date.UTC(2024, 6, 4, 3, 5)), -420)).toBe('July 3, 2024 8:05 pm');
  });

  it('accepts another pattern and locale', () => {
    expect(formatLocalDateTime(instant, 60, 'D MMMM YYYY HH:mm', 'fr')).toBe('15 janvier 2024 18:30');
  });

  it('returns an empty string for empty or invalid input', () => {
    expect(formatLocalDateTime(null)).toBe('');
    expect(formatLocalDateTime('')).toBe('');
    expect(formatLocalDateTime('garbage', -300)).toBe('');
  });
});

describe('formatDuration (HH:MM:SS)', () => {
  it.each([
    [0, '00:00:00'],
    [5, '00:00:05'],
    [65, '00:01:05'],
    [3599, '00:59:59'],
    [3600, '01:00:00'],
    [3661, '01:01:01'],
    [86_399, '23:59:59'],
    [90_061, '25:01:01'],
    [12.9, '00:00:12'],
    [-10, '00:00:00'],
  ])('%d s -> %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('trimText (200 characters by default, at a word boundary, with an ellipsis)', () => {
  it('keeps short text unchanged', () => {
    expect(trimText('Hello world')).toBe('Hello world');
    expect(trimText('x'.repeat(200))).toBe('x'.repeat(200));
    expect(trimText('')).toBe('');
  });

  it('cuts long text at the last word boundary within 200 characters and adds an ellipsis', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const out = trimText(words);
    expect(out.endsWith('…')).toBe(true);
    const body = out.slice(0, -1);
    expect(body.length).toBeLessThanOrEqual(200);
    expect(words.startsWith(body)).toBe(true);
    // The cut falls between two words, never inside one.
    expect(words[body.length]).toBe(' ');
    // And it is the last such boundary within the limit.
    expect(words.slice(body.length + 1, 201).includes(' ')).toBe(false);
  });

  it('keeps a word that ends exactly at the limit', () => {
    expect(trimText('hello world again', 11)).toBe('hello world…');
    expect(trimText('hello world again', 12)).toBe('hello world…');
    expect(trimText('hello world again', 10)).toBe('hello…');
  });

  it('drops trailing punctuation before the ellipsis', () => {
    expect(trimText('First part, second part', 12)).toBe('First part…');
    expect(trimText('One. Two three', 6)).toBe('One…');
    expect(trimText('One. Two three', 9)).toBe('One. Two…');
  });

  it('cuts a single long word at the limit', () => {
    expect(trimText('a'.repeat(300))).toBe(`${'a'.repeat(200)}…`);
  });

  it('takes another length', () => {
    expect(trimText('The quick brown fox jumps over the lazy dog', 20)).toBe('The quick brown fox…');
  });
});

describe('formatSizeLimit (upload limits, configured in binary megabytes)', () => {
  it.each([
    [5 * 1024 * 1024, '5 MB'],
    [500 * 1024 * 1024, '500 MB'],
    [1.5 * 1024 * 1024, '1.5 MB'],
    [64 * 1024, '64 KB'],
  ])('%d bytes -> %s', (bytes, text) => {
    expect(formatSizeLimit(bytes)).toBe(text);
  });
});
