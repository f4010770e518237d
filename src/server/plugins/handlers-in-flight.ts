import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Route handlers started and not yet settled (see waitForHandlersOnClose). */
    handlersInFlight(): number;
  }
}

/**
 * Makes `app.close()` wait for the route handlers still running, so that the caller closes the
 * database after them (src/server/main.ts: `app.close()`, then `database.close()`).
 *
 * Fastify's close waits for open connections only. A handler whose client has gone (a browser
 * closed mid-payment, a load balancer's timeout, a test's `inject`) keeps running with no
 * connection, and its next query met a closed database: for a card payment, a charge at the
 * gateway with the payment left `pending` (docs/requirements/platform.md §5.6).
 *
 * Call on the root instance before any route is added: it wraps each route's handler (onRoute).
 * A handler counts from its call until the promise it returns settles; a handler that returns no
 * promise (callback style) is not counted. The wait ends after `timeoutMs` even if some handler is
 * still running, and logs how many were left.
 *
 * @param opts.timeoutMs longest wait in `onClose`, in ms, or a function read when the wait starts
 *   (the server passes what its ShutdownBudget has left of SHUTDOWN_TIMEOUT_MS)
 */
export function waitForHandlersOnClose(app: FastifyInstance, opts: { timeoutMs: number | (() => number) }): void {
  let running = 0;
  let drained: (() => void) | null = null;
  const settle = () => {
    running -= 1;
    if (running === 0 && drained) drained();
  };

  app.decorate('handlersInFlight', () => running);
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function countedHandler(this: FastifyInstance, request, reply) {
      const result = handler.call(this, request, reply) as unknown;
      if (result instanceof Promise) {
        running += 1;
        // Fastify handles the outcome of the promise it is given; this copy only counts.
        result.then(settle, settle);
      }
      return result as ReturnType<typeof handler>;
    };
  });

  // onClose runs once the server has stopped taking requests and its connections have ended.
  app.addHook('onClose', async () => {
    if (running === 0) return;
    const waiting = running;
    const timeoutMs = typeof opts.timeoutMs === 'function' ? opts.timeoutMs() : opts.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      new Promise<true>((resolve) => {
        drained = () => resolve(true);
      }),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (finished) app.log.info({ handlers: waiting }, 'closing: waited for the requests still being handled');
    else
      app.log.warn(
        { handlers: running, timeoutMs },
        'closing: requests still being handled after the wait; closing anyway',
      );
  });
}
