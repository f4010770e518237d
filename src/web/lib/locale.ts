import { formatDate, formatLocalDateTime } from '../../shared/rules/formats.ts';
import { displayLocale } from './display-locale.ts';

/** A date in the display language, default pattern MM/DD/YYYY (docs/requirements/constants.md). */
export const showDate = (value: Date | string | null | undefined, pattern?: string) =>
  formatDate(value, pattern, displayLocale());

/** A date and time at the browser's UTC offset, in the display language (docs/requirements/constants.md). */
export const showDateTime = (value: Date | string | null | undefined) =>
  formatLocalDateTime(value, -new Date().getTimezoneOffset(), 'MMMM D, YYYY h:mm a', displayLocale());
