import { startTransition, useEffect, useState } from 'react';

/**
 * False in the server's render and in the browser's first render (the one that takes over the
 * server's HTML), true soon after. Forms use it to stay disabled until their handlers are
 * attached: before that a submit would be the browser's own (the fields in the address bar) and
 * the form's setup would clear what was typed. The switch is a transition, so the re-render runs
 * in small slices rather than one long task right after hydration.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  return hydrated;
}
