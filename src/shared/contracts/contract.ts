import type { z } from 'zod';

/**
 * Who may call a route (docs/requirements/permissions.md, docs/roles.md; enforced by
 * src/server/plugins/access.ts, docs/ARCHITECTURE.md "Access"): anyone (`visitor`), any signed-in
 * user (`signed-in`, the service checks what is theirs), a user of the acting account
 * (`account-user`), the account's primary user (`primary-user`), a user of the central
 * organization named by the path's `:groupId` (`group-user`, docs/roles.md "Central
 * organizations"), or the provider's staff (`staff`).
 */
export type Access = 'visitor' | 'signed-in' | 'account-user' | 'primary-user' | 'group-user' | 'staff';

/** Every access level, in order of who may call. */
export const ACCESS_LEVELS: readonly Access[] = [
  'visitor',
  'signed-in',
  'account-user',
  'primary-user',
  'group-user',
  'staff',
];

/** The HTTP methods a contract can name, as Fastify spells them. */
export type ContractMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route's contract (docs/ARCHITECTURE.md "Route contracts"): its method and URL (Fastify's
 * `:param` syntax), who may call it, and the zod schemas of its path parameters, query string, body
 * and each success answer by status code. The server registers the route from it (requests parsed,
 * answers checked and serialized by these schemas, the OpenAPI document at /api/docs drawn from
 * them) and the web client takes its types from it, so the shape is written once.
 */
export interface RouteContract {
  readonly method: ContractMethod;
  readonly url: string;
  readonly access: Access;
  /**
   * The route reads or changes what belongs to one account, application or bylaws' owner
   * (docs/requirements/platform.md §5.6): the security test asks it, as a user of another account,
   * for what is not theirs (tests/integration/security-routes.test.ts, "account A asking for account B").
   */
  readonly scoped?: true;
  /** One line for the API document. */
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly querystring?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: { readonly [status: number]: z.ZodType };
  /**
   * The media types of a success answer that is not JSON (`['text/csv']`, `['application/pdf']`),
   * whose response schema is common.ts `fileAnswer`; absent for JSON answers.
   */
  readonly produces?: readonly string[];
}

/**
 * Declares a route contract, keeping its literal method, URL and schema types.
 * @returns the contract itself
 */
export function defineContract<const C extends RouteContract>(contract: C): C {
  return contract;
}

type WireOf<S> = S extends z.ZodType ? z.input<S> : undefined;
/** A schema's input; its output where the input is `unknown` (a preprocessing schema accepts anything, but a client sends the parsed shape). */
type SchemaInput<S> = S extends z.ZodType ? (unknown extends z.input<S> ? z.output<S> : z.input<S>) : undefined;

/** The wire side of a contract's answers whose status is one of `S`; distributes over a union of contracts. */
type AnswersOf<C extends RouteContract, S extends number> = C extends RouteContract
  ? { [K in keyof C['response']]: K extends S ? WireOf<C['response'][K]> : never }[keyof C['response']]
  : never;

/**
 * What the route answers on success, as it arrives: the wire side (the input) of its 2xx response
 * schemas; the handler gives their output, e.g. a Date that travels as ISO 8601 (common.ts
 * `timestampSchema`).
 */
export type ContractAnswer<C extends RouteContract> = AnswersOf<C, 200 | 201 | 202>;

/**
 * What the route answers when it refuses a request, as it arrives: the wire side of its 4xx response
 * schemas (the 422 with each field's message, and what a route adds to it, e.g. the wizard's page).
 */
export type ContractRefusal<C extends RouteContract> = AnswersOf<C, 400 | 401 | 403 | 404 | 409 | 422 | 429>;

/** What a client sends: path parameters, query and body as their schemas accept them. */
export type ContractInput<C extends RouteContract> = (C['params'] extends z.ZodType
  ? { params: SchemaInput<C['params']> }
  : { params?: undefined }) &
  // A query string's parameters are each optional on the wire: the schema gives the defaults.
  (C['querystring'] extends z.ZodType ? { query: Partial<SchemaInput<C['querystring']>> } : { query?: undefined }) &
  (C['body'] extends z.ZodType ? { body: SchemaInput<C['body']> } : { body?: undefined });

/**
 * A route's method and URL, typed by its contract: what a client needs to call it. A contract is
 * one; {@link routeAt} makes one for a page that must not load the contract's zod schemas.
 */
export interface RouteAddress<C extends RouteContract = RouteContract> {
  readonly method: C['method'];
  readonly url: C['url'];
  /** Never set: carries the contract's type to the call. */
  readonly contract?: C;
}

/**
 * The address of a route for a client that names its contract as a type only (`import type`), so
 * the page's code holds no zod (docs/ARCHITECTURE.md "Initial JavaScript"): public pages' first
 * screen, a form that loads its schema when first used. A method or URL other than the contract's
 * does not compile.
 * @example routeAt<typeof siteContracts.pricing>('GET', '/api/pricing')
 * @returns `{ method, url }`, typed by the contract
 */
export function routeAt<C extends RouteContract>(method: C['method'], url: C['url']): RouteAddress<C> {
  return { method, url };
}

/**
 * The query cache's key of a call (docs/ARCHITECTURE.md "Query keys"): the route's URL, then its
 * path parameters and its query, so two screens that read the same route with the same input share
 * one entry, and the key is never written by hand. The server's render of a public page fills its
 * cache under this key too (src/shared/page-queries.ts).
 * @param route the route's contract, or its {@link routeAt} address
 * @param input `{ params, query }` as the call sends them (a body is no part of a read)
 * @returns `[url, params, query]`, `{}` for what the call leaves out
 */
export function queryKeyOf(
  route: RouteAddress,
  input: { readonly params?: unknown; readonly query?: unknown },
): readonly unknown[] {
  return [route.url, input.params ?? {}, input.query ?? {}];
}
