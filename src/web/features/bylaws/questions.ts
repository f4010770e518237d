import { MONTH_CHOICES_ZERO_BASED } from '../../../shared/lists/states.ts';

/** The bylaws questions of docs/requirements/screens.md "Bylaws generator forms", with their tooltips. */
export const QUESTIONS = {
  name: { label: 'What is the name of your organization?', placeholder: 'Lincoln High Athletic Boosters' },
  purpose: {
    label: 'What is the purpose of your organization?',
    tooltip: 'Fundraising is not a tax-exempt purpose. Say what your organization donates or provides, and to whom.',
    placeholder:
      'To support the students of Lincoln High School by providing equipment, uniforms, travel costs and scholarships for its athletic teams.',
  },
  facility: { label: 'Which school or facility does your organization support?', placeholder: 'Lincoln High School' },
  meeting_attendee_minimum: {
    label: 'Minimum number of members present for an official meeting',
    description: 'A number (15), a percentage (25%) or a fraction of at least 1/10 (1/4) of the voting members.',
    placeholder: '15',
  },
  nomination_month: {
    label: 'Month officer nominations begin each year',
    tooltip: 'Generally 1-3 months before elections.',
  },
  annual_meeting_month: { label: 'Month of the annual meeting and officer elections' },
  meeting_request_minimum: {
    label: 'Minimum number of members needed to request additional meetings',
    description: 'A number (10), a percentage (10%) or a fraction of at least 1/10 (1/10) of the voting members.',
    placeholder: '1/10',
  },
  fiscal_year_end: {
    label: 'Last month of the fiscal year',
    tooltip: 'This must match the month given to the IRS (the tax authority) for your organization.',
  },
  is_highlighted: { label: 'Highlight my responses in the document' },
  school_official_title: {
    label: 'Title of the school official',
    description:
      'The person the organization works with at the school, e.g. Principal or Activities Director. Required when any clause below is ticked.',
    placeholder: 'Principal',
  },
} as const;

/** The 12-entry, 0-based month choice list (docs/requirements/entities.md, docs/requirements/constants.md) as [value, label] pairs. */
export const MONTH_OPTIONS = MONTH_CHOICES_ZERO_BASED.map((m) => [String(m.value), m.label] as const);

export const SUCCESS_TEXT = 'Your bylaws have been created! Please select an option.';
/** docs/requirements/constants.md: the download notice shows for 2000 ms. */
export const DOWNLOAD_NOTICE_MS = 2000;

/**
 * The online office-document viewer's address for a download (docs/requirements/screens.md "View online"): the viewer
 * fetches `src` itself, so a random value is added to it to defeat the viewer's cache.
 * @param random a cache-busting token (a fresh random one by default)
 */
export function viewerAddress(
  viewer: string,
  downloadUrl: string,
  random = Math.random().toString(36).slice(2),
): string {
  const src = `${downloadUrl}${downloadUrl.includes('?') ? '&' : '?'}v=${random}`;
  return `${viewer}?src=${encodeURIComponent(src)}`;
}
