import type {
  ContractAnswer,
  ContractInput,
  ContractMethod,
  ContractRefusal,
  RouteAddress,
  RouteContract,
} from '../../shared/contracts/contract.ts';
import type { FieldErrors } from '../../shared/field-errors.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A failed request: HTTP status, the server's message and its field errors (422). */
export class HttpFailure extends Error {
  readonly status: number;
  readonly errors: FieldErrors;
  readonly body: unknown;
  constructor(status: number, message: string, errors: FieldErrors = {}, body: unknown = null) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.body = body;
  }
}

/** The CSRF token from the page's meta tag; logs 'CSRF token not found' when it is missing (docs/requirements/errors.md). */
function csrfToken(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
  if (!meta) {
    console.error('CSRF token not found');
    return '';
  }
  return meta.content;
}

/** Replaces the page's CSRF token (after sign-in, when the session changes). */
export function setCsrfToken(token: string) {
  let meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'csrf-token';
    document.head.appendChild(meta);
  }
  meta.content = token;
}

/** The Ajax marker, JSON answers and the CSRF token, sent with every request of the client. */
const baseHeaders = (): Record<string, string> => ({
  'X-Requested-With': 'XMLHttpRequest',
  Accept: 'application/json',
  'X-CSRF-TOKEN': csrfToken(),
});

/**
 * The one request of the web client (docs/requirements/calls.md "Generic form helper"), under
 * {@link call}, {@link upload} and the form kit: sends the Ajax marker and the CSRF header, JSON
 * bodies for post/put/patch/delete and query strings for get, FormData as multipart.
 * @param init keepalive: the request outlives the page (a save sent while the tab closes)
 * @returns the parsed JSON body, as the route's contract answers it (the server checked it against its schema)
 * @throws HttpFailure for any non-2xx answer or network failure (status 0)
 */
async function request<T>(
  method: Method,
  url: string,
  data?: Record<string, unknown> | FormData,
  init: { keepalive?: boolean } = {},
): Promise<T> {
  const headers = baseHeaders();
  let target = url;
  let body: BodyInit | undefined;
  if (method === 'get') {
    if (data && !(data instanceof FormData)) {
      const qs = new URLSearchParams(
        Object.entries(data)
          .filter(([, v]) => v !== undefined && v !== null)
          .map(([k, v]) => [k, String(v)]),
      );
      // An empty query (every parameter absent) leaves the address as it is.
      if (qs.size > 0) target += (url.includes('?') ? '&' : '?') + qs.toString();
    }
  } else if (data instanceof FormData) {
    body = data;
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(data ?? {});
  }
  let res: Response;
  try {
    res = await fetch(target, {
      method: method.toUpperCase(),
      headers,
      body,
      credentials: 'same-origin',
      ...(init.keepalive ? { keepalive: true } : {}),
    });
  } catch {
    throw new HttpFailure(0, 'The server could not be reached. Check your connection and try again.');
  }
  return answerOf<T>(res.status, await res.text());
}

/** A response body read as JSON; a non-2xx status becomes an HttpFailure with the server's message and field errors. */
function answerOf<T>(status: number, text: string): T {
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (status < 200 || status >= 300) {
    const b = (json ?? {}) as { message?: string; errors?: FieldErrors };
    throw new HttpFailure(status, b.message ?? `Request failed (${status}).`, b.errors ?? {}, json);
  }
  return json as T;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const METHOD_OF: Record<ContractMethod, Method> = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * Calls a route through its contract (docs/ARCHITECTURE.md "Route contracts"): the path parameters
 * fill the URL's `:name` parts, the query goes on a GET's query string, the body is sent as JSON.
 * The answer's type is the contract's success schema, the one the server checked it against.
 * @param route the route's contract (src/shared/contracts/), or its {@link routeAt} address
 * @param input `{ params, query, body }` as the contract's schemas accept them
 * @param init keepalive: the request outlives the page (a save sent while the tab closes)
 * @returns the parsed JSON answer
 * @throws HttpFailure for any non-2xx answer or network failure (status 0)
 */
export function call<const C extends RouteContract>(
  route: C | RouteAddress<C>,
  input: ContractInput<C>,
  init: { keepalive?: boolean } = {},
): Promise<ContractAnswer<C>> {
  const url = pathOf(route, input);
  const method = METHOD_OF[route.method];
  const data: unknown = method === 'get' ? input.query : input.body;
  return request<ContractAnswer<C>>(method, url, isRecord(data) ? data : undefined, init);
}

/**
 * Sends a form's fields as the JSON body of a route: the form kit's call (use-server-form.ts),
 * whose values its zod schema has checked but whose payload is built from the form (checkbox
 * booleans as 1/0, a captcha token) rather than typed by the contract.
 * @param params the route's path parameters, when its URL has `:name` parts
 * @returns the parsed JSON answer
 * @throws HttpFailure for any non-2xx answer or network failure (status 0)
 */
export function submitTo<const C extends RouteContract>(
  route: C | RouteAddress<C>,
  params: Record<string, unknown> | undefined,
  payload: Record<string, unknown>,
): Promise<ContractAnswer<C>> {
  return request<ContractAnswer<C>>(METHOD_OF[route.method], pathOf(route, { params }), payload);
}

/**
 * Uploads a multipart body to a route whose contract has no body schema (the handler reads the
 * stream): the files and fields of `body`, the path parameters in the URL. With `onProgress` it
 * reports the fraction sent (fetch cannot, so it goes through XMLHttpRequest).
 * @param onProgress called with the fraction sent, 0..1
 * @returns the parsed JSON answer, typed by the contract
 * @throws HttpFailure for any non-2xx answer or network failure (status 0)
 */
export function upload<const C extends RouteContract>(
  route: C | RouteAddress<C>,
  input: ContractInput<C>,
  body: FormData,
  onProgress?: (fraction: number) => void,
): Promise<ContractAnswer<C>> {
  const url = pathOf(route, input);
  if (onProgress) return postWithProgress<ContractAnswer<C>>(url, body, onProgress);
  return request<ContractAnswer<C>>(METHOD_OF[route.method], url, body);
}

/**
 * The body of a refused call, typed by the refusals its route's contract declares (its 4xx
 * response schemas): a declined payment's gateway messages, the wizard's first page with an error.
 * @param route the contract (or `routeAt` address) of the route that refused
 * @returns the body, or null when the failure is no refusal with a body (network, 5xx)
 */
export function refusalOf<const C extends RouteContract>(
  route: C | RouteAddress<C>,
  failure: HttpFailure,
): ContractRefusal<C> | null {
  if (failure.status < 400 || failure.status >= 500 || !isRecord(failure.body)) return null;
  // The one place a refusal's body is read as its contract's: the server answered it through that schema.
  return failure.body as ContractRefusal<C>;
}

/**
 * Uploads a multipart body to an address that data names rather than code: a schema-driven form's
 * dropbox posts to its definition's `action` (docs/requirements/entities.md "Field definition").
 * The answer is not typed by a contract here; the caller checks its shape.
 * @returns the parsed JSON answer, as unknown
 * @throws HttpFailure for any non-2xx answer or network failure (status 0)
 */
export function uploadTo(address: string, body: FormData): Promise<unknown> {
  return request<unknown>('post', address, body);
}

/** A contract's URL with its `:name` parts filled from the path parameters. */
function pathOf(route: RouteAddress, input: { params?: unknown }): string {
  const params = isRecord(input.params) ? input.params : {};
  return route.url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

/**
 * The address of a route that is linked to rather than called: a CSV export, a document to
 * download (contracts whose answer is common.ts `fileAnswer`). Query parameters that are empty are
 * left out, as a list's own address leaves them.
 * @param route the route's contract (src/shared/contracts/)
 * @param input `{ params, query }` as the contract's schemas accept them
 * @returns the path and query string, e.g. "/api/admin/outbox/export.csv?status=failed"
 */
export function hrefOf<const C extends RouteContract>(route: C | RouteAddress<C>, input: ContractInput<C>): string {
  const query = isRecord(input.query) ? input.query : {};
  const qs = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => [k, String(v)]),
  ).toString();
  return pathOf(route, input) + (qs ? `?${qs}` : '');
}

/**
 * Posts a FormData body with upload progress (fetch cannot report it), with the same headers and
 * failures as {@link request}; {@link upload}'s way when it reports progress.
 * @param onProgress called with the fraction sent, 0..1
 * @returns the parsed JSON body
 * @throws HttpFailure for any non-2xx answer or network failure (status 0)
 */
function postWithProgress<T>(url: string, body: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(baseHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () =>
      reject(new HttpFailure(0, 'The server could not be reached. Check your connection and try again.'));
    xhr.onload = () => {
      try {
        resolve(answerOf<T>(xhr.status, xhr.responseText));
      } catch (err) {
        reject(err);
      }
    };
    xhr.send(body);
  });
}
