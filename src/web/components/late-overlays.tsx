import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { restoreLostFocus } from '../lib/focus-return.ts';
import { overlaysMounted } from '../lib/overlays-ready.ts';

/**
 * Notifications and the dialogs opened with `modals.open…` (the app uses no other part of
 * @mantine/modals), a chunk of its own loaded once the page is interactive (`LateOverlays` in
 * src/web/app-providers.tsx; docs/ARCHITECTURE.md "Initial JavaScript"). A notification shown
 * before it is mounted waits in the notifications store and appears then.
 */
export default function Overlays() {
  // Runs after the providers' own effects, which register their listeners.
  useEffect(overlaysMounted, []);
  return (
    <>
      <Notifications position="top-right" />
      <ModalsProvider modalProps={{ onExitTransitionEnd: restoreLostFocus }} />
    </>
  );
}
