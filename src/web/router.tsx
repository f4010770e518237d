import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { Layout } from './components/layout/layout.tsx';
import { boot } from './lib/boot.ts';
import { nextTask } from './lib/next-task.ts';
import type { PageHandle } from '../shared/page-queries.ts';

/**
 * Lazy screen loader: each feature is its own chunk so public pages load little JavaScript. The
 * router loads the screen before it shows the page (at start too), so a page is painted once,
 * complete, instead of a spinner first and then a layout shift. The screen comes inside the query
 * cache (`QueryRoot`), whose chunk loads with it.
 */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => {
  const [{ default: Screen }, { withQueries }] = await Promise.all([load(), import('./lib/query-root.tsx')]);
  return { Component: withQueries(Screen) };
};

/**
 * {@link screen} for a screen that reads nothing through the query cache: its page loads no
 * TanStack Query (docs/ARCHITECTURE.md "Initial JavaScript"). The build fails when such a screen
 * imports it after all (vite.config.ts `routePreloads`).
 */
const lightScreen = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

// Shown only when something went wrong, so not part of the entry script (docs/ARCHITECTURE.md
// "Initial JavaScript"); an unknown address is never rendered by the server.
const ErrorScreen = lazy(() => import('./components/status-screens.tsx').then((m) => ({ default: m.ErrorScreen })));

/** Every page of the site (the paths of src/shared/routes.ts), for the browser's router and the server's render. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: (
      <Suspense fallback={null}>
        <ErrorScreen />
      </Suspense>
    ),
    // Nothing to show while the first screen loads: the page stays blank rather than half drawn.
    HydrateFallback: () => null,
    children: [
      { path: '/', lazy: lightScreen(() => import('./features/content/home-page.tsx')) },
      {
        path: '/pricing',
        handle: { pageQueries: ['pricing'] } satisfies PageHandle,
        lazy: screen(() => import('./features/content/pricing-page.tsx')),
      },
      { path: '/irs-form-990', lazy: lightScreen(() => import('./features/content/form-990-page.tsx')) },
      {
        path: '/state-registration',
        handle: { pageQueries: ['stateRequirements'] } satisfies PageHandle,
        lazy: screen(() => import('./features/content/state-registration-page.tsx')),
      },
      { path: '/incorporation-and-ein', lazy: lightScreen(() => import('./features/content/incorporation-page.tsx')) },
      {
        path: '/bylaws-generator',
        lazy: screen(() =>
          import('./features/bylaws/bylaws-pages.tsx').then((m) => ({ default: m.StandardBylawsPage })),
        ),
      },
      {
        path: '/bylaws-generator/school',
        lazy: screen(() => import('./features/bylaws/bylaws-pages.tsx').then((m) => ({ default: m.SchoolBylawsPage }))),
      },
      {
        path: '/bylaws-generator/short',
        lazy: screen(() => import('./features/bylaws/bylaws-pages.tsx').then((m) => ({ default: m.ShortBylawsPage }))),
      },
      {
        path: '/bylaws-generator/edit/:hash',
        lazy: screen(() => import('./features/bylaws/bylaws-pages.tsx').then((m) => ({ default: m.EditBylawsPage }))),
      },
      { path: '/bylaws-generator/preview/:hash', lazy: screen(() => import('./features/bylaws/preview-page.tsx')) },
      {
        path: '/contests/photo',
        lazy: lightScreen(() =>
          import('./features/contests/contest-page.tsx').then((m) => ({ default: m.PhotoContestPage })),
        ),
      },
      {
        path: '/contests/video',
        lazy: lightScreen(() =>
          import('./features/contests/contest-page.tsx').then((m) => ({ default: m.VideoContestPage })),
        ),
      },
      { path: '/privacy', lazy: lightScreen(() => import('./features/content/privacy-page.tsx')) },
      {
        path: '/compliance-check',
        lazy: screen(() => import('./features/public-forms/compliance-check-page.tsx')),
      },
      { path: '/contact', lazy: lightScreen(() => import('./features/public-forms/contact-page.tsx')) },
      { path: '/multi-chapter', lazy: lightScreen(() => import('./features/public-forms/multi-chapter-page.tsx')) },
      { path: '/campus-report', lazy: lightScreen(() => import('./features/public-forms/campus-report-page.tsx')) },
      { path: '/login', lazy: lightScreen(() => import('./features/auth/login-page.tsx')) },
      { path: '/password/forgot', lazy: lightScreen(() => import('./features/auth/forgot-password-page.tsx')) },
      { path: '/password/reset/:token', lazy: lightScreen(() => import('./features/auth/reset-password-page.tsx')) },
      { path: '/invitation/not-me/:token', lazy: lightScreen(() => import('./features/auth/not-me-page.tsx')) },
      { path: '/verify-501c3', lazy: screen(() => import('./features/subordinates/verify-page.tsx')) },
      { path: '/app/account/show/:id', lazy: screen(() => import('./features/subordinates/profile-page.tsx')) },
      { path: '/app', lazy: screen(() => import('./features/home/home-page.tsx')) },
      { path: '/account', lazy: screen(() => import('./features/account/account-page.tsx')) },
      { path: '/application/create/:token', lazy: screen(() => import('./features/applications/wizard-page.tsx')) },
      { path: '/application/switch/:token', lazy: screen(() => import('./features/applications/switch-page.tsx')) },
      { path: '/app/payments', lazy: screen(() => import('./features/payments/payments-page.tsx')) },
      { path: '/app/invoices/show/:id', lazy: screen(() => import('./features/payments/invoice-page.tsx')) },
      { path: '/app/finances', lazy: screen(() => import('./features/finances/finances-page.tsx')) },
      { path: '/app/payments/receipt/:id', lazy: screen(() => import('./features/finances/receipt-page.tsx')) },
      { path: '/app/account/users', lazy: screen(() => import('./features/account-users/account-users-page.tsx')) },
      { path: '/app/supervision', lazy: screen(() => import('./features/supervision/supervision-page.tsx')) },
      { path: '/app/group', lazy: screen(() => import('./features/group-workspace/workspace-list-page.tsx')) },
      { path: '/app/group/:groupId', lazy: screen(() => import('./features/group-workspace/workspace-page.tsx')) },
      { path: '/admin', lazy: screen(() => import('./features/admin/admin-home-page.tsx')) },
      { path: '/admin/accounts', lazy: screen(() => import('./features/admin/accounts/accounts-page.tsx')) },
      {
        path: '/admin/accounts/show/:id',
        lazy: screen(() => import('./features/admin/accounts/account-show-page.tsx')),
      },
      { path: '/admin/payments', lazy: screen(() => import('./features/admin/payments/payments-admin-page.tsx')) },
      { path: '/admin/inquiries', lazy: screen(() => import('./features/admin/inquiries/inquiries-page.tsx')) },
      { path: '/admin/inquiries/:id', lazy: screen(() => import('./features/admin/inquiries/inquiry-page.tsx')) },
      {
        path: '/admin/applications',
        lazy: screen(() => import('./features/admin/applications/applications-page.tsx')),
      },
      {
        path: '/admin/applications/:id',
        lazy: screen(() => import('./features/admin/applications/application-page.tsx')),
      },
      { path: '/admin/outbox', lazy: screen(() => import('./features/admin/outbox/outbox-page.tsx')) },
      { path: '/admin/outbox/:id', lazy: screen(() => import('./features/admin/outbox/outbox-mail-page.tsx')) },
      { path: '/admin/banners', lazy: screen(() => import('./features/admin/banners/banners-page.tsx')) },
      { path: '/admin/discounts', lazy: screen(() => import('./features/admin/discounts/discounts-page.tsx')) },
      { path: '/admin/levels', lazy: screen(() => import('./features/admin/levels/levels-page.tsx')) },
      { path: '/admin/states', lazy: screen(() => import('./features/admin/states/states-page.tsx')) },
      { path: '/admin/audit', lazy: screen(() => import('./features/admin/audit/audit-page.tsx')) },
      { path: '/admin/uploads', lazy: screen(() => import('./features/admin/uploads/uploads-page.tsx')) },
      {
        path: '/admin/irs-bulk-checks',
        lazy: screen(() => import('./features/admin/irs-bulk-checks/irs-bulk-checks-page.tsx')),
      },
      {
        path: '/admin/uploads/roster-imports/:id',
        lazy: screen(() => import('./features/admin/uploads/roster-import-page.tsx')),
      },
      { path: '/admin/contests', lazy: screen(() => import('./features/admin/contests/contest-entries-page.tsx')) },
      { path: '/admin/compliance', lazy: screen(() => import('./features/admin/compliance/compliance-page.tsx')) },
      { path: '/admin/work-queue', lazy: screen(() => import('./features/admin/work-queue/work-queue-page.tsx')) },
      { path: '/admin/jobs', lazy: screen(() => import('./features/admin/jobs/jobs-page.tsx')) },
      {
        path: '/admin/supervision',
        lazy: screen(() => import('./features/admin/supervision/supervision-admin-page.tsx')),
      },
      { path: '/admin/gen-update', lazy: screen(() => import('./features/admin/gen-update/gen-update-page.tsx')) },
      { path: '/admin/yoast/show', lazy: screen(() => import('./features/admin/yoast/seo-check-page.tsx')) },
      {
        path: '/admin/payments/latest/:accountId',
        lazy: screen(() => import('./features/finances/latest-payments-page.tsx')),
      },
      {
        path: '*',
        lazy: lightScreen(() => import('./components/status-screens.tsx').then((m) => ({ default: m.NotFoundScreen }))),
      },
    ],
  },
];

// The server already decided a 403 for this address: show that instead of the screen.
if (boot.status === 403) {
  routes[0].children = [{ path: '*', lazy: screen(() => import('./components/forbidden-screen.tsx')) }];
}

/**
 * The browser's router. When the server already rendered the page (`hydrate`), the screens of the
 * current address are loaded first, so the router's first render is the complete page the server
 * sent and React can take over its HTML instead of drawing it again.
 * @returns the router, once the current screen's code is loaded when hydrating
 */
export async function createClientRouter(opts: { hydrate: boolean }) {
  if (opts.hydrate) {
    const matches = matchRoutes(routes, window.location) ?? [];
    await Promise.all(
      matches.map(async ({ route }) => {
        if (typeof route.lazy !== 'function') return;
        Object.assign(route, await route.lazy(), { lazy: undefined });
      }),
    );
    // The screen's modules were evaluated in this task; the router's set-up gets a task of its own.
    await nextTask();
  }
  return createBrowserRouter(routes);
}
