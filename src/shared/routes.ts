/**
 * Every page of the site with who may open it. The server answers these paths with the web
 * client's HTML; the client maps them to screens (src/web/router.tsx). Paths use React Router
 * syntax (`:token`).
 */
export type PageAccess = 'public' | 'user' | 'admin';

export interface PageRoute {
  path: string;
  title: string;
  access: PageAccess;
  /** Content pages carry the helpfulness rating widget (docs/requirements/product.md tool 10). */
  hasRating?: boolean;
  /** Shown in the main navigation under this label. */
  nav?: string;
  description?: string;
}

export const PAGES: PageRoute[] = [
  { path: '/', title: 'Tax exemption for booster clubs, chapters and affiliates', access: 'public', hasRating: true, description: 'GoodStanding gets volunteer-run nonprofit groups tax exempt and keeps them exempt.' },
  { path: '/pricing', title: 'Pricing', access: 'public', nav: 'Pricing', hasRating: true, description: 'Levels and prices for getting and keeping tax-exempt status.' },
  { path: '/irs-form-990', title: 'IRS Form 990 filing', access: 'public', nav: 'Form 990', hasRating: true, description: 'Which Form 990 your group files each year, when it is due, and what happens if you miss it.' },
  { path: '/state-registration', title: 'State registration', access: 'public', nav: 'State registration', hasRating: true, description: 'What each state requires of nonprofit groups, with cost estimates.' },
  { path: '/incorporation-and-ein', title: 'Incorporation and EIN', access: 'public', nav: 'Incorporation & EIN', hasRating: true, description: 'Incorporating a nonprofit and getting an Employer Identification Number.' },
  { path: '/verify-501c3', title: 'Verify a group’s 501(c)(3) status', access: 'public', nav: 'Verify 501(c)(3)', description: 'Search the subordinate organizations of our IRS group exemption.' },
  { path: '/compliance-check', title: 'Free compliance check', access: 'public', nav: 'Compliance check', description: 'Ask for a free review of your revocation risk.' },
  { path: '/multi-chapter', title: 'Multi-chapter organizations', access: 'public', nav: 'Multi-chapter', description: 'Compliance for national organizations and their affiliates.' },
  { path: '/campus-report', title: 'Campus report', access: 'public', description: 'Get the list of Greek chapters in good standing on your campus.' },
  { path: '/contact', title: "Let's talk", access: 'public', nav: 'Contact', description: 'Questions about membership, state registration, 990s or renewals.' },
  { path: '/bylaws-generator', title: 'Bylaws generator', access: 'public', nav: 'Bylaws', description: 'Answer a few questions and download bylaws for your booster club or parent group as a Word document.' },
  { path: '/bylaws-generator/school', title: 'School booster bylaws generator', access: 'public', description: 'Bylaws for a school booster club, with the clauses your school requires.' },
  { path: '/bylaws-generator/short', title: 'Short bylaws generator', access: 'public', description: 'A short set of bylaws from four answers.' },
  { path: '/bylaws-generator/edit/:hash', title: 'Your bylaws', access: 'public' },
  { path: '/bylaws-generator/preview/:hash', title: 'Bylaws preview', access: 'public' },
  { path: '/contests/photo', title: 'Photo contest', access: 'public', description: 'Send a photo of your team, club or chapter in action.' },
  { path: '/contests/video', title: 'Video contest', access: 'public', description: 'Send a video of your team, club or chapter in action.' },
  { path: '/privacy', title: 'Privacy policy', access: 'public', hasRating: true },
  { path: '/login', title: 'Sign in', access: 'public', description: 'Sign in to manage your group’s exemption, filings, renewals and payments.' },
  { path: '/password/forgot', title: 'Forgot your password?', access: 'public' },
  { path: '/password/reset/:token', title: 'Choose a new password', access: 'public' },
  { path: '/app/account/show/:id', title: 'Organization profile', access: 'public' },
  { path: '/app', title: 'Your group', access: 'user' },
  { path: '/account', title: 'Your account', access: 'user' },
  { path: '/application/create/:token', title: 'Your application', access: 'user' },
  { path: '/application/switch/:token', title: 'Switch your application', access: 'user' },
  { path: '/app/payments', title: 'Payments', access: 'user' },
  { path: '/app/invoices/show/:id', title: 'Invoice', access: 'user' },
  { path: '/app/finances', title: 'Finances', access: 'user' },
  { path: '/app/payments/receipt/:id', title: 'Payment receipt', access: 'user' },
  { path: '/app/account/users', title: 'Users', access: 'user' },
  { path: '/app/supervision', title: 'Yearly supervision report and Form 990-N', access: 'user' },
  { path: '/admin', title: 'Admin', access: 'admin' },
  { path: '/admin/accounts', title: 'Accounts', access: 'admin' },
  { path: '/admin/accounts/show/:id', title: 'Account', access: 'admin' },
  { path: '/admin/payments', title: 'Payments', access: 'admin' },
  { path: '/admin/inquiries', title: 'Inquiries', access: 'admin' },
  { path: '/admin/inquiries/:id', title: 'Inquiry', access: 'admin' },
  { path: '/admin/applications', title: 'Applications', access: 'admin' },
  { path: '/admin/applications/:id', title: 'Application', access: 'admin' },
  { path: '/admin/outbox', title: 'Mail outbox', access: 'admin' },
  { path: '/admin/outbox/:id', title: 'Mail', access: 'admin' },
  { path: '/admin/banners', title: 'Banners', access: 'admin' },
  { path: '/admin/discounts', title: 'Discount codes', access: 'admin' },
  { path: '/admin/levels', title: 'Levels and prices', access: 'admin' },
  { path: '/admin/states', title: 'State requirements', access: 'admin' },
  { path: '/admin/audit', title: 'Audit log', access: 'admin' },
  { path: '/admin/uploads', title: 'Uploads', access: 'admin' },
  { path: '/admin/uploads/roster-imports/:id', title: 'Roster import', access: 'admin' },
  { path: '/admin/contests', title: 'Contest entries', access: 'admin' },
  { path: '/admin/compliance', title: 'Revocation risk', access: 'admin' },
  { path: '/admin/work-queue', title: 'Work queue', access: 'admin' },
  { path: '/admin/jobs', title: 'Jobs', access: 'admin' },
  { path: '/admin/supervision', title: 'Supervision', access: 'admin' },
  { path: '/admin/gen-update', title: 'Annual GEN update', access: 'admin' },
  { path: '/admin/yoast/show', title: 'SEO check', access: 'admin' },
  { path: '/admin/payments/latest/:accountId', title: 'Latest payments', access: 'admin' },
];

/** Data the server embeds in every page (read by the web client at start). */
export interface BootData {
  csrfToken: string;
  user: { id: number; email: string; firstName: string; lastName: string; isAdmin: boolean; accountId: number | null } | null;
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
