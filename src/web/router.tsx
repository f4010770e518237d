import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './components/layout/layout.tsx';
import { ErrorScreen, NotFoundScreen } from './components/status-screens.tsx';
import { boot } from './lib/boot.ts';

/** Lazy screen loader: each feature is its own chunk so public pages load little JavaScript. */
const screen = (load: () => Promise<{ default: ComponentType }>) => {
  const Component = lazy(load);
  return <Component />;
};

const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <ErrorScreen />,
    children: [
      { path: '/', element: screen(() => import('./features/content/home-page.tsx')) },
      { path: '/pricing', element: screen(() => import('./features/content/pricing-page.tsx')) },
      { path: '/irs-form-990', element: screen(() => import('./features/content/form-990-page.tsx')) },
      { path: '/state-registration', element: screen(() => import('./features/content/state-registration-page.tsx')) },
      { path: '/incorporation-and-ein', element: screen(() => import('./features/content/incorporation-page.tsx')) },
      { path: '/bylaws-generator', element: screen(() => import('./features/bylaws/bylaws-pages.tsx').then((m) => ({ default: m.StandardBylawsPage }))) },
      { path: '/bylaws-generator/school', element: screen(() => import('./features/bylaws/bylaws-pages.tsx').then((m) => ({ default: m.SchoolBylawsPage }))) },
      { path: '/bylaws-generator/short', element: screen(() => import('./features/bylaws/bylaws-pages.tsx').then((m) => ({ default: m.ShortBylawsPage }))) },
      { path: '/bylaws-generator/edit/:hash', element: screen(() => import('./features/bylaws/bylaws-pages.tsx').then((m) => ({ default: m.EditBylawsPage }))) },
      { path: '/bylaws-generator/preview/:hash', element: screen(() => import('./features/bylaws/preview-page.tsx')) },
      { path: '/contests/photo', element: screen(() => import('./features/contests/contest-page.tsx').then((m) => ({ default: m.PhotoContestPage }))) },
      { path: '/contests/video', element: screen(() => import('./features/contests/contest-page.tsx').then((m) => ({ default: m.VideoContestPage }))) },
      { path: '/privacy', element: screen(() => import('./features/content/privacy-page.tsx')) },
      { path: '/compliance-check', element: screen(() => import('./features/public-forms/compliance-check-page.tsx')) },
      { path: '/contact', element: screen(() => import('./features/public-forms/contact-page.tsx')) },
      { path: '/multi-chapter', element: screen(() => import('./features/public-forms/multi-chapter-page.tsx')) },
      { path: '/campus-report', element: screen(() => import('./features/public-forms/campus-report-page.tsx')) },
      { path: '/login', element: screen(() => import('./features/auth/login-page.tsx')) },
      { path: '/password/forgot', element: screen(() => import('./features/auth/forgot-password-page.tsx')) },
      { path: '/password/reset/:token', element: screen(() => import('./features/auth/reset-password-page.tsx')) },
      { path: '/verify-501c3', element: screen(() => import('./features/subordinates/verify-page.tsx')) },
      { path: '/app/account/show/:id', element: screen(() => import('./features/subordinates/profile-page.tsx')) },
      { path: '/account', element: screen(() => import('./features/account/account-page.tsx')) },
      { path: '/application/create/:token', element: screen(() => import('./features/applications/wizard-page.tsx')) },
      { path: '/app/payments', element: screen(() => import('./features/payments/payments-page.tsx')) },
      { path: '/app/invoices/show/:id', element: screen(() => import('./features/payments/invoice-page.tsx')) },
      { path: '/app/finances', element: screen(() => import('./features/finances/finances-page.tsx')) },
      { path: '/app/payments/receipt/:id', element: screen(() => import('./features/finances/receipt-page.tsx')) },
      { path: '/app/account/users', element: screen(() => import('./features/account-users/account-users-page.tsx')) },
      { path: '/admin', element: screen(() => import('./features/admin/admin-home-page.tsx')) },
      { path: '/admin/accounts', element: screen(() => import('./features/admin/accounts-page.tsx')) },
      { path: '/admin/accounts/show/:id', element: screen(() => import('./features/admin/account-show-page.tsx')) },
      { path: '/admin/payments', element: screen(() => import('./features/admin/payments-admin-page.tsx')) },
      { path: '/admin/inquiries', element: screen(() => import('./features/admin/inquiries-page.tsx')) },
      { path: '/admin/inquiries/:id', element: screen(() => import('./features/admin/inquiry-page.tsx')) },
      { path: '/admin/applications', element: screen(() => import('./features/admin/applications-page.tsx')) },
      { path: '/admin/applications/:id', element: screen(() => import('./features/admin/application-page.tsx')) },
      { path: '/admin/outbox', element: screen(() => import('./features/admin/outbox-page.tsx')) },
      { path: '/admin/outbox/:id', element: screen(() => import('./features/admin/outbox-mail-page.tsx')) },
      { path: '/admin/banners', element: screen(() => import('./features/admin/banners-page.tsx')) },
      { path: '/admin/discounts', element: screen(() => import('./features/admin/discounts-page.tsx')) },
      { path: '/admin/levels', element: screen(() => import('./features/admin/levels-page.tsx')) },
      { path: '/admin/states', element: screen(() => import('./features/admin/states-page.tsx')) },
      { path: '/admin/audit', element: screen(() => import('./features/admin/audit-page.tsx')) },
      { path: '/admin/uploads', element: screen(() => import('./features/admin/uploads-page.tsx')) },
      { path: '/admin/contests', element: screen(() => import('./features/admin/contest-entries-page.tsx')) },
      { path: '/admin/compliance', element: screen(() => import('./features/admin/compliance-page.tsx')) },
      { path: '/admin/yoast/show', element: screen(() => import('./features/admin/seo-check-page.tsx')) },
      { path: '/admin/payments/latest/:accountId', element: screen(() => import('./features/finances/latest-payments-page.tsx')) },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];

// The server already decided a 403 for this address: show that instead of the screen.
if (boot.status === 403) {
  routes[0].children = [{ path: '*', element: screen(() => import('./components/forbidden-screen.tsx')) }];
}

export const router = createBrowserRouter(routes);
