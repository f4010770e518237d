declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/** Pushes an analytics event to the tag manager's `window.dataLayer` (SPEC §8 "analytics event"). */
export function pushEvent(event: string, data: Record<string, unknown> = {}): void {
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ event, ...data });
}
