import { createTheme, MantineProvider, type MantineColorSchemeManager } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { accessibleColors } from './lib/accessible-colors.ts';
import { useHydrated } from './lib/use-hydrated.ts';

// A dialog's own header is not the page's banner landmark, and its close button needs a name.
const dialogDefaults = { closeButtonProps: { 'aria-label': 'Close' }, attributes: { header: { role: 'none' } } };

const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '750' },
  defaultRadius: 'md',
  // White or black text on filled colours, whichever reads (WCAG 2.1 AA 1.4.3), e.g. on yellow.
  autoContrast: true,
  components: {
    Modal: { defaultProps: dialogDefaults },
    Drawer: { defaultProps: dialogDefaults },
    // Links inside sentences must not be told apart by colour alone (WCAG 1.4.1).
    Anchor: { defaultProps: { underline: 'always' } },
    // A toast's description is Mantine's gray-6 by default, 3.3:1 on white; the site's dimmed grey reads (WCAG 1.4.3).
    Notification: { styles: { description: { color: 'var(--mantine-color-dimmed)' } } },
    // Mantine keeps button and badge text on one line and cuts what does not fit ("Remove disco",
    // "ACTI…"). Here a narrow button or badge grows taller and wraps between words instead: its
    // narrowest width is its longest word, so no text is ever cut (docs/ARCHITECTURE.md "Controls").
    Button: {
      styles: {
        root: {
          height: 'auto',
          minHeight: 'var(--button-height)',
          minWidth: 'min-content',
          maxWidth: '100%',
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
        },
        label: { whiteSpace: 'normal', overflow: 'visible', textAlign: 'center', lineHeight: 1.25, paddingBlock: 4 },
      },
    },
    Badge: {
      styles: {
        root: { height: 'auto', minHeight: 'var(--badge-height)', minWidth: 'min-content', maxWidth: '100%' },
        label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.25 },
      },
    },
  },
});

/**
 * The site is always light, so nothing is stored. Mantine's default manager reads localStorage
 * while the page is taken over, and a browser's first read of it blocks the page for tens of
 * milliseconds (docs/requirements/platform.md §6, total blocking time).
 */
const lightOnly: MantineColorSchemeManager = {
  get: () => 'light',
  set: () => undefined,
  subscribe: () => undefined,
  unsubscribe: () => undefined,
  clear: () => undefined,
};

const Overlays = lazy(() => import('./components/late-overlays.tsx'));

/**
 * Notifications and the dialogs opened with `modals.open…`, mounted once the page is interactive:
 * their portals are not part of the server's HTML, and mounting them while React takes over the
 * page re-rendered them synchronously in the middle of it. Nothing can show either before that,
 * so their code (dialog, transitions, scroll lock) is a chunk loaded then, not part of the entry.
 */
function LateOverlays() {
  if (!useHydrated()) return null;
  return (
    <Suspense fallback={null}>
      <Overlays />
    </Suspense>
  );
}

/**
 * Everything around the router, the same in the browser and in the server's render (so the
 * server's HTML and the browser's first render match when the page is hydrated): Mantine with the
 * theme and the accessible colours, dialogs and notifications. The query cache is provided by the
 * screens that read through it (`QueryRoot`, src/web/lib/query-root.tsx).
 * `withCssVariables` false leaves out the theme's CSS variables, for pages whose head already has
 * them ({@link themeCssVariables}): computing them takes tens of milliseconds on a phone.
 */
export function AppProviders({
  withCssVariables = true,
  children,
}: {
  withCssVariables?: boolean;
  children: ReactNode;
}) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={accessibleColors}
      withCssVariables={withCssVariables}
      colorSchemeManager={lightOnly}
    >
      <LateOverlays />
      {children}
    </MantineProvider>
  );
}

/**
 * The theme's CSS variables as the `<style data-mantine-styles="true">` element Mantine would
 * render, for the server to put into every page's head once instead of each browser computing
 * them while it hydrates (src/server/modules/pages/server-render.ts).
 */
export function ThemeCssVariables() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={accessibleColors} withGlobalClasses={false}>
      {null}
    </MantineProvider>
  );
}
