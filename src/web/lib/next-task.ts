/**
 * Resolves in a new task, so the browser can paint and answer input before the caller goes on:
 * start-up work split this way shows up as several short tasks instead of one long one (docs/requirements/platform.md §6,
 * total blocking time). `scheduler.yield()` where the browser has it, else a zero timeout.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
