import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, type ComponentType, type ReactNode } from 'react';
import { boot } from './boot.ts';
import { HttpFailure } from './http.ts';

/**
 * A query cache as the client uses it: one retry, no refetch when the window regains focus. An
 * answer of 400-499 is the server's decision, not a passing failure: it is shown at once, not retried.
 */
export function createQueryClient(): QueryClient {
  const retry = (failures: number, error: Error) =>
    !(error instanceof HttpFailure && error.status >= 400 && error.status < 500) && failures < 1;
  return new QueryClient({ defaultOptions: { queries: { retry, refetchOnWindowFocus: false } } });
}

let browserClient: QueryClient | null = null;

/**
 * The browser's one query cache, made when a screen first needs it, holding what the server
 * loaded for its render (`boot.queries`, e.g. the price list), so the first render matches it.
 */
function browserQueryClient(): QueryClient {
  if (!browserClient) {
    browserClient = createQueryClient();
    for (const { queryKey, data } of boot.queries ?? []) browserClient.setQueryData(queryKey, data);
  }
  return browserClient;
}

/**
 * The query cache for what it holds. The cache (TanStack Query) is a chunk of its own, loaded
 * with the screens that read through it (`screen` in src/web/router.tsx), not by every page
 * (docs/ARCHITECTURE.md "Initial JavaScript"). Inside the server's render, which provides a cache
 * of its own for each page (src/web/entry-server.tsx), it adds nothing; in the browser it
 * provides the browser's one cache. A provider renders no HTML, so both renders match.
 */
export function QueryRoot({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  if (outer) return children;
  return <QueryClientProvider client={browserQueryClient()}>{children}</QueryClientProvider>;
}

/** `Screen` inside {@link QueryRoot}. */
export function withQueries<P extends object>(Screen: ComponentType<P>): ComponentType<P> {
  return function WithQueries(props: P) {
    return (
      <QueryRoot>
        <Screen {...props} />
      </QueryRoot>
    );
  };
}
