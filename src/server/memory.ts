/**
 * Collects the garbage that starting up leaves (modules compiled, migrations checked, the wizard
 * schemas refreshed) once, so the resting memory is reached at once instead of whenever V8's idle
 * collector runs (docs/operations.md "Memory"). Needs node's `--expose-gc`, which scripts/serve.sh
 * passes; without it (tests, other launchers) it does nothing. Blocks this thread for one full
 * collection (70 ms for the server's thread on the development machine), so call it before listening.
 */
export function collectStartupGarbage(): void {
  (globalThis as { gc?: (options?: object) => void }).gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
