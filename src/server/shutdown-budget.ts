/**
 * One wait shared by everything `app.close()` waits for: the jobs in flight (JobRunner.stop) and
 * then the requests still being handled (waitForHandlersOnClose). Each takes what the other left of
 * SHUTDOWN_TIMEOUT_MS, so together they stay within it and main.ts's forced exit 1.5 s later is
 * only for a close that hangs (docs/operations.md "Stopping").
 */
export class ShutdownBudget {
  private deadline: number | null = null;

  private readonly totalMs: number;

  /** @param totalMs the whole wait, in ms (config.shutdownTimeoutMs) */
  constructor(totalMs: number) {
    this.totalMs = totalMs;
  }

  /** Starts the clock; later calls keep the first deadline. */
  begin(): void {
    this.deadline ??= Date.now() + this.totalMs;
  }

  /** What is left of the wait, in ms: all of it before `begin()`, never below 0. */
  remainingMs(): number {
    return this.deadline === null ? this.totalMs : Math.max(0, this.deadline - Date.now());
  }
}
