import type { Access } from './contracts/contract.ts';

/**
 * Every page of the site as the web client's shell needs it: the path, who may open it, its
 * navigation label and whether it carries the rating widget. The pages' titles and descriptions
 * are in src/shared/routes.ts, which only the server reads: the shell is part of every page's
 * initial JavaScript (docs/ARCHITECTURE.md "Initial JavaScript"). Paths use React Router syntax
 * (`:token`).
 */

/**
 * Who may open a page, in the words of the route contracts (src/shared/contracts/contract.ts
 * `Access`): anyone, any signed-in user, or staff.
 */
type PageAccess = Extract<Access, 'visitor' | 'signed-in' | 'staff'>;

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
  { path: '/', access: 'visitor', hasRating: true, seoCheck: true },
  { path: '/pricing', access: 'visitor', nav: 'Pricing', hasRating: true, seoCheck: true },
  { path: '/irs-form-990', access: 'visitor', nav: 'Form 990', hasRating: true, seoCheck: true },
  { path: '/state-registration', access: 'visitor', nav: 'State registration', hasRating: true, seoCheck: true },
  { path: '/incorporation-and-ein', access: 'visitor', nav: 'Incorporation & EIN', hasRating: true, seoCheck: true },
  { path: '/verify-501c3', access: 'visitor', nav: 'Verify 501(c)(3)', seoCheck: true },
  { path: '/compliance-check', access: 'visitor', nav: 'Compliance check', seoCheck: true },
  { path: '/multi-chapter', access: 'visitor', nav: 'Multi-chapter', seoCheck: true },
  { path: '/campus-report', access: 'visitor', seoCheck: true },
  { path: '/contact', access: 'visitor', nav: 'Contact', seoCheck: true },
  { path: '/bylaws-generator', access: 'visitor', nav: 'Bylaws', seoCheck: true },
  { path: '/bylaws-generator/school', access: 'visitor', seoCheck: true },
  { path: '/bylaws-generator/short', access: 'visitor', seoCheck: true },
  { path: '/bylaws-generator/edit/:hash', access: 'visitor' },
  { path: '/bylaws-generator/preview/:hash', access: 'visitor' },
  { path: '/contests/photo', access: 'visitor', seoCheck: true },
  { path: '/contests/video', access: 'visitor', seoCheck: true },
  { path: '/privacy', access: 'visitor', hasRating: true },
  { path: '/login', access: 'visitor', seoCheck: true },
  { path: '/password/forgot', access: 'visitor' },
  { path: '/password/reset/:token', access: 'visitor' },
  { path: '/invitation/not-me/:token', access: 'visitor' },
  { path: '/app/account/show/:id', access: 'visitor' },
  { path: '/app', access: 'signed-in' },
  { path: '/account', access: 'signed-in' },
  { path: '/application/create/:token', access: 'signed-in' },
  { path: '/application/switch/:token', access: 'signed-in' },
  { path: '/app/payments', access: 'signed-in' },
  { path: '/app/invoices/show/:id', access: 'signed-in' },
  { path: '/app/finances', access: 'signed-in' },
  { path: '/app/payments/receipt/:id', access: 'signed-in' },
  { path: '/app/account/users', access: 'signed-in' },
  { path: '/app/supervision', access: 'signed-in' },
  { path: '/app/group', access: 'signed-in' },
  { path: '/app/group/:groupId', access: 'signed-in' },
  { path: '/admin', access: 'staff' },
  { path: '/admin/accounts', access: 'staff' },
  { path: '/admin/accounts/show/:id', access: 'staff' },
  { path: '/admin/payments', access: 'staff' },
  { path: '/admin/inquiries', access: 'staff' },
  { path: '/admin/inquiries/:id', access: 'staff' },
  { path: '/admin/applications', access: 'staff' },
  { path: '/admin/applications/:id', access: 'staff' },
  { path: '/admin/outbox', access: 'staff' },
  { path: '/admin/outbox/:id', access: 'staff' },
  { path: '/admin/banners', access: 'staff' },
  { path: '/admin/discounts', access: 'staff' },
  { path: '/admin/levels', access: 'staff' },
  { path: '/admin/states', access: 'staff' },
  { path: '/admin/audit', access: 'staff' },
  { path: '/admin/uploads', access: 'staff' },
  { path: '/admin/irs-bulk-checks', access: 'staff' },
  { path: '/admin/uploads/roster-imports/:id', access: 'staff' },
  { path: '/admin/contests', access: 'staff' },
  { path: '/admin/compliance', access: 'staff' },
  { path: '/admin/work-queue', access: 'staff' },
  { path: '/admin/jobs', access: 'staff' },
  { path: '/admin/supervision', access: 'staff' },
  { path: '/admin/gen-update', access: 'staff' },
  { path: '/admin/yoast/show', access: 'staff' },
  { path: '/admin/payments/latest/:accountId', access: 'staff' },
];
