import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);

/**
 * Display formats of docs/requirements/constants.md. Pure functions used by the web client and by mails; tested in
 * src/shared/rules/formats.test.ts.
 */

const usd = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Currency: integer cents -> '$1,234.50'; negatives get a leading minus ('-$12.00'). */
export function formatCurrency(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${usd.format(Math.abs(cents) / 100)}`;
}

/** A 9-digit EIN as the IRS writes it ('12-3456789'); anything else as given, nothing as ''. */
export function formatEin(ein: string | null | undefined): string {
  return ein && /^\d{9}$/.test(ein) ? `${ein.slice(0, 2)}-${ein.slice(2)}` : (ein ?? '');
}

/**
 * Wizard currency: '-' for zero, parentheses for negatives ('($12.00)', shown in red by the caller
 * when `isNegative`), '$12.00' otherwise. Input in integer cents.
 */
export function formatWizardCurrency(cents: number): { text: string; isNegative: boolean } {
  if (cents === 0) return { text: '-', isNegative: false };
  if (cents < 0) return { text: `($${usd.format(Math.abs(cents) / 100)})`, isNegative: true };
  return { text: `$${usd.format(cents / 100)}`, isNegative: false };
}

/** Percent: the value times 100, at most 2 decimals ('0.125' -> '12.5%'). */
export function formatPercent(value: number): string {
  return `${Number((value * 100).toFixed(2))}%`;
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** File size in decimal steps of 1,000 with 1 decimal: 1500 -> '1.5 KB', 999 -> '999.0 B'. */
export function formatFileSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  // Compare the rounded value so 999,960 bytes reads '1.0 MB', never '1000.0 KB'.
  while (Number(value.toFixed(1)) >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${SIZE_UNITS[unit]}`;
}

/**
 * An upload size limit as people read it, in the binary megabytes the limits are configured in
 * (UPLOAD_MAX_*_MB): 20 MiB -> '20 MB', 100 MiB -> '100 MB', 64 KiB -> '64 KB' below a megabyte.
 */
export function formatSizeLimit(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/**
 * Date, default pattern MM/DD/YYYY, in the given dayjs locale (the locale must have been loaded by
 * the caller: `import 'dayjs/locale/fr'`). Accepts a Date, an ISO string or epoch milliseconds.
 * Returns '' for an empty or invalid date.
 */
export function formatDate(
  value: Date | string | number | null | undefined,
  pattern = 'MM/DD/YYYY',
  locale = 'en',
): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.locale(locale).format(pattern) : '';
}

/**
 * Local datetime, default 'MMMM D, YYYY h:mm a', shown at a UTC offset in minutes (e.g. -300 for
 * US Eastern standard time). Returns '' for an empty or invalid value.
 */
export function formatLocalDateTime(
  value: Date | string | number | null | undefined,
  utcOffsetMinutes = 0,
  pattern = 'MMMM D, YYYY h:mm a',
  locale = 'en',
): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs.utc(value);
  return d.isValid() ? d.utcOffset(utcOffsetMinutes).locale(locale).format(pattern) : '';
}

/** Duration in whole seconds -> 'HH:MM:SS' (hours keep counting past 24). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Trims text to at most `length` (200) characters, cut at a word boundary, with an ellipsis. */
export function trimText(text: string, length = 200): string {
  if (text.length <= length) return text;
  // Looking one character past the limit keeps a word that ends exactly at it.
  const lastSpace = text.slice(0, length + 1).lastIndexOf(' ');
  const cut = text.slice(0, length);
  return `${(lastSpace > 0 ? cut.slice(0, lastSpace) : cut).replace(/[\s.,;:]+$/, '')}…`;
}
