import { toFieldErrors } from '../shared/validation.ts';
import { notFound, ValidationError } from './errors.ts';
import type { Access, RouteContract } from '../shared/contracts/contract.ts';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/** The API document's line on who may call a route (docs/requirements/permissions.md). */
const ACCESS_TEXT: Record<Access, string> = {
  visitor: 'Who may call it: anyone.',
  'signed-in': 'Who may call it: any signed-in user, for what is theirs.',
  'account-user': "Who may call it: a signed-in user of the account (staff acting on the account's behalf).",
  'primary-user': "Who may call it: the account's primary user (staff acting on the account's behalf).",
  'group-user': "Who may call it: a user of the central organization's group (the path's groupId), or staff.",
  staff: "Who may call it: the provider's staff.",
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's contract when it was registered from one (docs/ARCHITECTURE.md "Route contracts"). */
    contract?: RouteContract;
  }
}

/**
 * The route options a contract fixes: method, URL, the schemas Fastify parses the request and
 * checks the answer with, and in the route's config who may call it (enforced by plugins/access.ts)
 * and the contract itself (read by the API document and by the test that every route has one). Spread into `app.withTypeProvider<ZodTypeProvider>().route`
 * together with the route's own hooks and handler, which then get the schemas' types.
 * @param contract the route's contract (src/shared/contracts/)
 * @returns `{ method, url, schema, config }`
 */
export function fromContract<const C extends RouteContract>(contract: C) {
  const schema = {
    summary: contract.summary,
    description: ACCESS_TEXT[contract.access],
    tags: [tagOf(contract.url)],
    params: part(contract, 'params'),
    querystring: part(contract, 'querystring'),
    body: part(contract, 'body'),
    response: part(contract, 'response'),
    ...(contract.produces ? { produces: [...contract.produces] } : {}),
  } satisfies FastifySchema;
  return { method: part(contract, 'method'), url: contract.url, schema, config: { contract, access: contract.access } };
}

/** One property of a contract with its declared type (a plain `contract.body` would widen to the constraint's). */
function part<C extends RouteContract, K extends keyof RouteContract>(contract: C, key: K): C[K] {
  return contract[key];
}

/** The API document's group of a route: `admin jobs` for /api/admin/jobs/…, `public forms` outside /api. */
function tagOf(url: string): string {
  const parts = url.split('/').filter((p) => p && !p.startsWith(':'));
  if (parts[0] !== 'api') return 'public forms';
  return parts.slice(1, parts[1] === 'admin' || parts[1] === 'app' ? 3 : 2).join(' ');
}

/**
 * Fastify's validator for contract routes: parses params, query and body with their zod schemas.
 * A failure is the product's 422 with each field's message (docs/requirements/platform.md §3), the
 * same answer `parseInput` gives, never Fastify's 400.
 */
export const contractValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data ?? {});
    return result.success ? { value: result.data } : { error: new ValidationError(toFieldErrors(result.error)) };
  };

/**
 * A record id from the path, as the routes read it: a positive 32-bit integer.
 * @param raw the path parameter as it arrived
 * @param what the record, for the 404's message ("The work item"); the generic one when absent
 * @returns the id
 * @throws HttpError 404 for anything else, the answer for a record that does not exist
 */
export function recordIdOf(raw: string, what?: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  if (id < 1 || id > 2_147_483_647) throw notFound(what);
  return id;
}
