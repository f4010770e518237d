import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { router } from './router.tsx';
import { loadDisplayLocale } from './lib/locale.ts';
import { accessibleColors } from './lib/accessible-colors.ts';
import { restoreLostFocus } from './lib/focus-return.ts';

void loadDisplayLocale();

// zod, in the lazily loaded form code, probes `new Function` once to compile faster parsers; the
// CSP refuses eval (DESIGN §5), so the probe only logs a violation. It parses without compiling.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = Object.assign(zodGlobal.__zod_globalConfig ?? {}, { jitless: true });

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
  },
});

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={accessibleColors}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider modalProps={{ onExitTransitionEnd: restoreLostFocus }}>
          <Notifications position="top-right" />
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
