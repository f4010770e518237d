/**
 * Where keyboard focus goes back to when a dialog closes (WCAG 2.4.3 focus order).
 *
 * Mantine returns focus to whatever had it when a dialog opened. Dialogs that report the outcome
 * of a form (docs/requirements/errors.md: 'Success!', a declined payment) open while the form's button is disabled
 * for sending, so nothing has focus at that moment and a keyboard user would be sent back to the
 * top of the page. This keeps the last control focused outside any dialog and, once a dialog has
 * closed with the focus lost, puts it back there (on the re-enabled button, or the field where
 * Enter was pressed).
 */
let lastFocused: HTMLElement | null = null;

if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => {
    const el = event.target;
    if (el instanceof HTMLElement && el !== document.body && !el.closest('[role="dialog"]')) lastFocused = el;
  });
}

/** Puts the focus back on the last control outside a dialog when nothing has it. */
function refocusIfLost() {
  const active = document.activeElement;
  if (active && active !== document.body) return;
  const target = lastFocused;
  if (!target?.isConnected || target.matches(':disabled')) return;
  target.focus({ preventScroll: true });
}

/**
 * For a dialog's `onExitTransitionEnd`: when the focus is lost (on the page itself, or still on
 * the closing dialog, which is about to be removed), moves it to the last control focused outside
 * a dialog, if it is still on the page and can take it. Never moves focus the person already put
 * elsewhere.
 */
export function restoreLostFocus(): void {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active.closest('[role="dialog"]')) {
    // Wait until the dialog's content is removed and the focus actually leaves it.
    active.addEventListener('focusout', () => queueMicrotask(refocusIfLost), { once: true });
    return;
  }
  refocusIfLost();
}
