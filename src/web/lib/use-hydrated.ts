import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's render and while React takes over that HTML in the browser, true from the
 * next render on. Forms use it to stay disabled until their handlers are attached: before that a
 * submit would be the browser's own (the fields in the address bar) and the form's setup would
 * clear what was typed.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribe, () => true, () => false);
}
