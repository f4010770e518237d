/**
 * Every page of the site with who may open it, its title and description. The server answers
 * these paths with the web client's HTML; the client maps them to screens (src/web/router.tsx)
 * and reads only src/shared/shell-pages.ts, so the texts stay out of its scripts. Paths use React
 * Router syntax (`:token`).
 */
import { SHELL_PAGES, type ShellPage } from './shell-pages.ts';

export interface PageRoute extends ShellPage {
  title: string;
  description?: string;
}

/** Each page's title and the description search engines show; the server puts them into the page's head. */
const PAGE_TEXTS: Record<string, { title: string; description?: string }> = {
  '/': {
    title: 'Tax exemption for booster clubs, chapters and affiliates',
    description: 'GoodStanding gets volunteer-run nonprofit groups tax exempt and keeps them exempt.',
  },
  '/pricing': { title: 'Pricing', description: 'Levels and prices for getting and keeping tax-exempt status.' },
  '/irs-form-990': {
    title: 'IRS Form 990 filing',
    description: 'Which Form 990 your group files each year, when it is due, and what happens if you miss it.',
  },
  '/state-registration': {
    title: 'State registration',
    description: 'What each state requires of nonprofit groups, with cost estimates.',
  },
  '/incorporation-and-ein': {
    title: 'Incorporation and EIN',
    description: 'Incorporating a nonprofit and getting an Employer Identification Number.',
  },
  '/verify-501c3': {
    title: 'Verify a group’s 501(c)(3) status',
    description: 'Search the subordinate organizations of our IRS group exemption.',
  },
  '/compliance-check': {
    title: 'Free compliance check',
    description: 'Ask for a free review of your revocation risk.',
  },
  '/multi-chapter': {
    title: 'Multi-chapter organizations',
    description: 'Compliance for national organizations and their affiliates.',
  },
  '/campus-report': {
    title: 'Campus report',
    description: 'Get the list of Greek chapters in good standing on your campus.',
  },
  '/contact': { title: "Let's talk", description: 'Questions about membership, state registration, 990s or renewals.' },
  '/bylaws-generator': {
    title: 'Bylaws generator',
    description: 'Answer a few questions and download bylaws for your booster club or parent group as a Word document.',
  },
  '/bylaws-generator/school': {
    title: 'School booster bylaws generator',
    description: 'Bylaws for a school booster club, with the clauses your school requires.',
  },
  '/bylaws-generator/short': {
    title: 'Short bylaws generator',
    description: 'A short set of bylaws from four answers.',
  },
  '/bylaws-generator/edit/:hash': { title: 'Your bylaws' },
  '/bylaws-generator/preview/:hash': { title: 'Bylaws preview' },
  '/contests/photo': { title: 'Photo contest', description: 'Send a photo of your team, club or chapter in action.' },
  '/contests/video': { title: 'Video contest', description: 'Send a video of your team, club or chapter in action.' },
  '/privacy': { title: 'Privacy policy' },
  '/login': {
    title: 'Sign in',
    description: 'Sign in to manage your group’s exemption, filings, renewals and payments.',
  },
  '/password/forgot': { title: 'Forgot your password?' },
  '/password/reset/:token': { title: 'Choose a new password' },
  '/invitation/not-me/:token': { title: 'This was not me' },
  '/app/account/show/:id': { title: 'Organization profile' },
  '/app': { title: 'Your group' },
  '/account': { title: 'Your account' },
  '/application/create/:token': { title: 'Your application' },
  '/application/switch/:token': { title: 'Switch your application' },
  '/app/payments': { title: 'Payments' },
  '/app/invoices/show/:id': { title: 'Invoice' },
  '/app/finances': { title: 'Finances' },
  '/app/payments/receipt/:id': { title: 'Payment receipt' },
  '/app/account/users': { title: 'Users' },
  '/app/supervision': { title: 'Yearly supervision report and Form 990-N' },
  '/app/group': { title: 'Your central organization’s workspace' },
  '/app/group/:groupId': { title: 'Central organization’s workspace' },
  '/admin': { title: 'Admin' },
  '/admin/accounts': { title: 'Accounts' },
  '/admin/accounts/show/:id': { title: 'Account' },
  '/admin/payments': { title: 'Payments' },
  '/admin/inquiries': { title: 'Inquiries' },
  '/admin/inquiries/:id': { title: 'Inquiry' },
  '/admin/applications': { title: 'Applications' },
  '/admin/applications/:id': { title: 'Application' },
  '/admin/outbox': { title: 'Mail outbox' },
  '/admin/outbox/:id': { title: 'Mail' },
  '/admin/banners': { title: 'Banners' },
  '/admin/discounts': { title: 'Discount codes' },
  '/admin/levels': { title: 'Levels and prices' },
  '/admin/states': { title: 'State requirements' },
  '/admin/audit': { title: 'Audit log' },
  '/admin/uploads': { title: 'Uploads' },
  '/admin/uploads/roster-imports/:id': { title: 'Roster import' },
  '/admin/contests': { title: 'Contest entries' },
  '/admin/compliance': { title: 'Revocation risk' },
  '/admin/irs-bulk-checks': { title: 'Standing check (CSV)' },
  '/admin/work-queue': { title: 'Work queue' },
  '/admin/jobs': { title: 'Jobs' },
  '/admin/supervision': { title: 'Supervision' },
  '/admin/gen-update': { title: 'Annual GEN update' },
  '/admin/yoast/show': { title: 'SEO check' },
  '/admin/payments/latest/:accountId': { title: 'Latest payments' },
};

/**
 * Every page with its title and description (src/shared/shell-pages.ts with the texts above).
 * @throws at start when a page has no title or its `seoCheck` does not match its description
 */
export const PAGES: PageRoute[] = SHELL_PAGES.map((page) => {
  const texts = PAGE_TEXTS[page.path];
  if (!texts) throw new Error(`src/shared/routes.ts: the page ${page.path} has no title`);
  if (!!page.seoCheck !== (page.access === 'visitor' && !!texts.description))
    throw new Error(
      `src/shared/shell-pages.ts: seoCheck of ${page.path} must be set exactly for public pages with a description`,
    );
  return { ...page, ...texts };
});

/** Data the server embeds in every page (read by the web client at start). */
export interface BootData {
  csrfToken: string;
  user: {
    id: number;
    email: string;
    firstName: string;
    lastName: string;
    isAdmin: boolean;
    accountId: number | null;
  } | null;
  company: { name: string; phone: string; email: string };
  banners: { id: number; kind: string; text: string }[];
  captchaSiteKey: string | null;
  /**
   * The routing-number lookup the bank form calls by JSONP with `rn` and `callback` (docs/requirements/calls.md): a
   * path on this site for the built-in lookup, or the full URL of the configured one.
   */
  routingLookupUrl: string;
  /** HTTP status the server answered with (404, 403) so the client can show the matching screen. */
  status: number;
  /**
   * Query results the server loaded for its render of the page (e.g. the price list), put into
   * the browser's query cache before React takes over the server's HTML.
   */
  queries?: { queryKey: readonly unknown[]; data: unknown }[];
  /** Names of the display-preference cookies the request carried (src/shared/rules/cookies.ts), for the server's render. */
  preferenceCookies?: string[];
}
