declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/** Pushes an analytics event to the tag manager's `window.dataLayer` (docs/requirements/errors.md "analytics event"). */
export function pushEvent(event: string, data: Record<string, unknown> = {}): void {
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ event, ...data });
}

/** Longest wait for a tag manager to confirm an event before moving on (issue: at most 2 s). */
const EVENT_CALLBACK_TIMEOUT_MS = 1500;

/**
 * Pushes an event and runs `next` once the tag manager has taken it (its `eventCallback`), or after
 * `timeoutMs` if it never calls back. With no tag manager on the page, `next` runs at once.
 * `next` runs exactly once.
 */
export function pushEventThen(
  event: string,
  data: Record<string, unknown>,
  next: () => void,
  timeoutMs = EVENT_CALLBACK_TIMEOUT_MS,
): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    window.clearTimeout(timer);
    next();
  };
  const hasTagManager = 'google_tag_manager' in window;
  const timer = window.setTimeout(once, hasTagManager ? timeoutMs : 0);
  pushEvent(event, { ...data, eventCallback: once, eventTimeout: timeoutMs });
}
