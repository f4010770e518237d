/**
 * The dialogs of `modals.open…` reach their provider by a window event: one sent before the
 * provider is mounted is lost, and the provider comes in a chunk of its own once the page is
 * interactive (src/web/components/late-overlays.tsx, docs/ARCHITECTURE.md "Initial JavaScript").
 * `whenOverlays` runs a dialog's opening once the provider listens, at once if it already does.
 */
let markReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});

/** Called by the overlays once mounted (their providers' listeners are set up before). */
export function overlaysMounted(): void {
  markReady();
}

/** Runs `open` once the dialogs' provider is mounted. */
export function whenOverlays(open: () => void): void {
  void ready.then(open);
}
