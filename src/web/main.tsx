import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app-providers.tsx';
import { loadDisplayLocale } from './lib/display-locale.ts';
import { nextTask } from './lib/next-task.ts';
import { createClientRouter } from './router.tsx';

void loadDisplayLocale();

// zod, in the lazily loaded form code, probes `new Function` once to compile faster parsers; the
// CSP refuses eval (docs/requirements/platform.md §5), so the probe only logs a violation. It parses without compiling.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = Object.assign(zodGlobal.__zod_globalConfig ?? {}, { jitless: true });

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render into (src/web/entry-server.tsx makes it).');
// The server puts the theme's CSS variables into the head (src/web/entry-server.tsx).
const themeVariablesInHead = document.head.querySelector('style[data-mantine-styles="true"]') !== null;
// Public pages arrive rendered by the server (src/web/entry-server.tsx): React takes them over.
const hydrate = container.firstElementChild !== null;

void createClientRouter({ hydrate }).then(async (router) => {
  // Creating the router took a task; React starts in the next one.
  await nextTask();
  const app = (
    <StrictMode>
      <AppProviders withCssVariables={!themeVariablesInHead}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
  // As a transition, React renders in slices of a few milliseconds and lets the browser answer
  // input in between, instead of one long task (docs/requirements/platform.md §6, total blocking time).
  startTransition(() => {
    if (hydrate) {
      // A page that does not match the server's HTML is drawn again by React; say so in the console.
      hydrateRoot(container, app, { onRecoverableError: (error) => console.error('Hydration:', error) });
    } else {
      createRoot(container).render(app);
    }
  });
});
