/** Month names by 0-based index (MONTH_NAMES[0] = 'January'), as every page and document writes them. */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Month names keyed 1..12 (docs/requirements/entities.md "months"). */
export const MONTHS: Record<number, string> = Object.fromEntries(MONTH_NAMES.map((name, i) => [i + 1, name]));
