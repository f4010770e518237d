import { useHydrated } from '../../lib/use-hydrated.ts';
import classes from './hydration-fieldset.module.css';
import type { ReactNode } from 'react';

/**
 * Holds a form's fields and buttons disabled until the page is interactive ({@link useHydrated}):
 * a page rendered by the server is shown before its scripts run.
 */
export function HydrationFieldset({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  // Only this element changes at hydration: `children` are the same elements, so React leaves them be.
  return (
    <fieldset className={classes.fieldset} disabled={!hydrated} aria-busy={!hydrated}>
      {children}
    </fieldset>
  );
}
