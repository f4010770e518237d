/**
 * Every page of the site as the web client's shell needs it: the path, who may open it, its
 * navigation label and whether it carries the rating widget. The pages' titles and descriptions
 * are in src/shared/routes.ts, which only the server reads: the shell is part of every page's
 * initial JavaScript (docs/ARCHITECTURE.md "Initial JavaScript"). Paths use React Router syntax
 * (`:token`).
 */
type PageAccess = 'public' | 'user' | 'admin';

export interface ShellPage {
  path: string;
  access: PageAccess;
  /** Content pages carry the helpfulness rating widget (docs/requirements/product.md tool 10). */
  hasRating?: boolean;
  /** Shown in the main navigation under this label. */
  nav?: string;
  /** A public page with a description: the footer links administrators to its SEO check (src/shared/routes.ts checks it). */
  seoCheck?: boolean;
}

export const SHELL_PAGES: ShellPage[] = [
  { path: '/', access: 'public', hasRating: true, seoCheck: true },
  { path: '/pricing', access: 'public', nav: 'Pricing', hasRating: true, seoCheck: true },
  { path: '/irs-form-990', access: 'public', nav: 'Form 990', hasRating: true, seoCheck: true },
  { path: '/state-registration', access: 'public', nav: 'State registration', hasRating: true, seoCheck: true },
  { path: '/incorporation-and-ein', access: 'public', nav: 'Incorporation & EIN', hasRating: true, seoCheck: true },
  { path: '/verify-501c3', access: 'public', nav: 'Verify 501(c)(3)', seoCheck: true },
  { path: '/compliance-check', access: 'public', nav: 'Compliance check', seoCheck: true },
  { path: '/multi-chapter', access: 'public', nav: 'Multi-chapter', seoCheck: true },
  { path: '/campus-report', access: 'public', seoCheck: true },
  { path: '/contact', access: 'public', nav: 'Contact', seoCheck: true },
  { path: '/bylaws-generator', access: 'public', nav: 'Bylaws', seoCheck: true },
  { path: '/bylaws-generator/school', access: 'public', seoCheck: true },
  { path: '/bylaws-generator/short', access: 'public', seoCheck: true },
  { path: '/bylaws-generator/edit/:hash', access: 'public' },
  { path: '/bylaws-generator/preview/:hash', access: 'public' },
  { path: '/contests/photo', access: 'public', seoCheck: true },
  { path: '/contests/video', access: 'public', seoCheck: true },
  { path: '/privacy', access: 'public', hasRating: true },
  { path: '/login', access: 'public', seoCheck: true },
  { path: '/password/forgot', access: 'public' },
  { path: '/password/reset/:token', access: 'public' },
  { path: '/invitation/not-me/:token', access: 'public' },
  { path: '/app/account/show/:id', access: 'public' },
  { path: '/app', access: 'user' },
  { path: '/account', access: 'user' },
  { path: '/application/create/:token', access: 'user' },
  { path: '/application/switch/:token', access: 'user' },
  { path: '/app/payments', access: 'user' },
  { path: '/app/invoices/show/:id', access: 'user' },
  { path: '/app/finances', access: 'user' },
  { path: '/app/payments/receipt/:id', access: 'user' },
  { path: '/app/account/users', access: 'user' },
  { path: '/app/supervision', access: 'user' },
  { path: '/app/group', access: 'user' },
  { path: '/app/group/:groupId', access: 'user' },
  { path: '/admin', access: 'admin' },
  { path: '/admin/accounts', access: 'admin' },
  { path: '/admin/accounts/show/:id', access: 'admin' },
  { path: '/admin/payments', access: 'admin' },
  { path: '/admin/inquiries', access: 'admin' },
  { path: '/admin/inquiries/:id', access: 'admin' },
  { path: '/admin/applications', access: 'admin' },
  { path: '/admin/applications/:id', access: 'admin' },
  { path: '/admin/outbox', access: 'admin' },
  { path: '/admin/outbox/:id', access: 'admin' },
  { path: '/admin/banners', access: 'admin' },
  { path: '/admin/discounts', access: 'admin' },
  { path: '/admin/levels', access: 'admin' },
  { path: '/admin/states', access: 'admin' },
  { path: '/admin/audit', access: 'admin' },
  { path: '/admin/uploads', access: 'admin' },
  { path: '/admin/irs-bulk-checks', access: 'admin' },
  { path: '/admin/uploads/roster-imports/:id', access: 'admin' },
  { path: '/admin/contests', access: 'admin' },
  { path: '/admin/compliance', access: 'admin' },
  { path: '/admin/work-queue', access: 'admin' },
  { path: '/admin/jobs', access: 'admin' },
  { path: '/admin/supervision', access: 'admin' },
  { path: '/admin/gen-update', access: 'admin' },
  { path: '/admin/yoast/show', access: 'admin' },
  { path: '/admin/payments/latest/:accountId', access: 'admin' },
];
