import fp from 'fastify-plugin';
import { ACCESS_LEVELS, type Access } from '../../shared/contracts/contract.ts';
import { accountChoiceSchema } from '../../shared/schemas/account-choice.ts';
import { msg } from '../../shared/validation.ts';
import { recordIdOf } from '../contracts.ts';
import { forbidden, unauthenticated, ValidationError } from '../errors.ts';
import { parseInput } from '../validate.ts';
import { API_DOCS_PATH } from './api-docs.ts';
import { resolveAccount, type ActingAccount } from './resolve-account.ts';
import { GROUP, resolveGroup, type ActingGroup } from './resolve-group.ts';
import { hashId } from './session.ts';
import type { Actor } from '../actor.ts';
import type { SessionUser } from './session.ts';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler, RouteOptions } from 'fastify';
import type { z } from 'zod';

/**
 * Who may call a route (docs/requirements/permissions.md, docs/roles.md), stated in its config:
 * - `visitor`: anyone, signed in or not;
 * - `signed-in`: any signed-in user (401 otherwise); what they may reach is checked by the
 *   service against the user (their own application, invoice, receipt, profile image…);
 * - `account-user`: any user of the acting account, or staff for any account (see AccountScope);
 *   the route gets that account as `req.account`;
 * - `primary-user`: as `account-user`, and only the account's primary user or staff may do it.
 *   The role itself is checked by the service inside its transaction, after the account row is
 *   locked, so a refusal is answered 403 after the payload's 422 and audited (docs/roles.md);
 * - `group-user`: a user of the central organization named by the path's `:groupId` (group_users),
 *   or staff for any group (docs/roles.md "Central organizations"); 401 for visitors, 404 for
 *   anyone else, as for a group that does not exist; the route gets the group as `req.group`.
 *   A manager-only action checks the role in its service;
 * - `staff`: users with `users.is_admin` (401 for visitors, 403 for everyone else).
 */
export { ACCESS_LEVELS, type Access };

/**
 * How an `account-user` or `primary-user` route chooses its acting account (docs/roles.md,
 * docs/requirements/platform.md §5.6). Staff name the account with `account_id` (query for GET/HEAD,
 * body otherwise) and act on its behalf; everyone else acts on their own account.
 */
export interface AccountScope {
  /**
   * `checked` (the default): an `account_id` anyone sends is read, and a holder naming an account
   * other than their own gets 404; staff naming none act on their own account (404 without one).
   * `ignored`: a holder's `account_id` is not read at all (they always act on their own account);
   * staff naming none and having no account of their own get 422 "The account id field is
   * required."; on a body-carrying request staff may name the account in the query instead.
   */
  holderChoice?: 'checked' | 'ignored';
  /**
   * true: a holder who has no account yet (an applicant) and names none reaches the route with
   * `req.actingAccount` null instead of 404.
   */
  optional?: boolean;
  /** The schema reading `account_id` when its messages differ from accountChoiceSchema's. */
  choice?: z.ZodType<{ account_id?: number | undefined }>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: every route states it (plugins/access.ts, docs/ARCHITECTURE.md "Access"). */
    access?: Access;
    /** For `account-user` and `primary-user` routes: how the acting account is chosen. */
    accountScope?: AccountScope;
  }
  interface FastifyRequest {
    /** The signed-in user, on any route whose access is not `visitor` (set before the handler runs). */
    readonly currentUser: SessionUser;
    /** The acting account of an `account-user`/`primary-user` route, or null (visitor routes, an optional scope). */
    actingAccount: ActingAccount | null;
    /** The acting account of an `account-user`/`primary-user` route (never null there). */
    readonly account: ActingAccount;
    /** The central organization of a `group-user` route, or null elsewhere. */
    actingGroup: ActingGroup | null;
    /** The central organization of a `group-user` route (never null there). */
    readonly group: ActingGroup;
    /** Who acts (src/server/actor.ts), on any route whose access is not `visitor`: made from `currentUser` and the acting account. */
    readonly actor: Actor;
  }
}

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `account_id` of the request: query for GET/HEAD, body otherwise (422 with the field's message when malformed). */
function choiceOf(req: FastifyRequest, scope: AccountScope, queryFallback: boolean): number | undefined {
  const schema = scope.choice ?? accountChoiceSchema;
  if (BODYLESS.has(req.method)) return parseInput(schema, req.query).account_id;
  const fromBody = parseInput(schema, req.body).account_id;
  return fromBody === undefined && queryFallback ? parseInput(schema, req.query).account_id : fromBody;
}

/**
 * The acting account of a request by a signed-in user (docs/roles.md, docs/requirements/permissions.md),
 * chosen as `scope` says; reads accounts (resolveAccount). Acting on behalf is not audited here:
 * the service that acts writes its audit row with `onBehalf`.
 * @returns the account and whether staff act on its behalf, or null for an optional scope
 * @throws ValidationError 422 on `account_id` (malformed, or required from staff without an account);
 *   HttpError 404 as resolveAccount
 */
async function actingAccountOf(
  req: FastifyRequest,
  user: SessionUser,
  scope: AccountScope = {},
): Promise<ActingAccount | null> {
  const db = req.server.db;
  if (scope.holderChoice === 'ignored') {
    let requested: number | undefined;
    if (user.isAdmin) {
      requested = choiceOf(req, scope, true);
      if (requested === undefined && user.accountId === null)
        throw ValidationError.field('account_id', msg.required('account id'));
    } else if (scope.optional && user.accountId === null) {
      return null;
    }
    return resolveAccount(db, user, requested);
  }
  const requested = choiceOf(req, scope, false);
  if (scope.optional && requested === undefined && user.accountId === null && !user.isAdmin) return null;
  return resolveAccount(db, user, requested);
}

/** The hook of a route's access level: 401/403 as docs/requirements/platform.md §5.6, then the acting account. */
function accessHandler(access: Access, scope: AccountScope | undefined): preValidationHookHandler | null {
  switch (access) {
    case 'visitor':
      return null;
    case 'signed-in':
      return async function signedIn(req) {
        if (!req.user) throw unauthenticated();
      };
    case 'staff':
      return async function staffOnly(req) {
        if (!req.user) throw unauthenticated();
        if (!req.user.isAdmin) throw forbidden();
      };
    case 'group-user':
      return async function groupScoped(req) {
        if (!req.user) throw unauthenticated();
        const { groupId } = req.params as { groupId?: string };
        req.actingGroup = await resolveGroup(req.server.db, req.user, recordIdOf(groupId ?? '', GROUP));
      };
    case 'account-user':
    case 'primary-user':
      return async function accountScoped(req) {
        if (!req.user) throw unauthenticated();
        req.actingAccount = await actingAccountOf(req, req.user, scope);
      };
  }
}

/** Where the access level must be stated, or the app refuses to start: every JSON address. */
const ACCESS_REQUIRED_PREFIX = '/api/';

const ADDED = Symbol('access handler');

/**
 * The access level a route states: its `config.access`, or `staff` for the API document's routes
 * under /api/docs, which Swagger UI registers without a config of their own.
 * @returns the level, or undefined when the route states none
 */
export function accessOf(route: Pick<RouteOptions, 'url' | 'config'>): Access | undefined {
  return (
    route.config?.access ??
    (route.url === API_DOCS_PATH || route.url.startsWith(`${API_DOCS_PATH}/`) ? 'staff' : undefined)
  );
}

/**
 * Route access (docs/ARCHITECTURE.md "Access"): every route states `config.access`; this plugin
 * turns it into the route's first preValidation hook (401/403, and for account routes `req.account`).
 * A route under /api/ without a valid access level stops the app at start, naming the route.
 * Decorates request.currentUser, request.actingAccount, request.account and request.actor.
 */
export const accessPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('actingAccount', null);
  app.decorateRequest('actingGroup', null);
  app.decorateRequest('group', {
    getter(this: FastifyRequest) {
      if (!this.actingGroup) throw new Error(`${this.method} ${this.url}: group read on a route without a group`);
      return this.actingGroup;
    },
  });
  app.decorateRequest('currentUser', {
    getter(this: FastifyRequest) {
      if (!this.user) throw new Error(`${this.method} ${this.url}: currentUser read on a route open to visitors`);
      return this.user;
    },
  });
  app.decorateRequest('actor', {
    getter(this: FastifyRequest): Actor {
      const user = this.currentUser;
      return {
        userId: user.id,
        name: `${user.firstName} ${user.lastName}`.trim(),
        email: user.email,
        isStaff: user.isAdmin,
        accountId: this.actingAccount?.accountId ?? null,
        onBehalf: this.actingAccount?.onBehalf ?? false,
        ip: this.ip,
        requestId: this.id,
        sessionIdHash: hashId(this.sessionToken),
      };
    },
  });
  app.decorateRequest('account', {
    getter(this: FastifyRequest) {
      if (!this.actingAccount)
        throw new Error(`${this.method} ${this.url}: account read on a route without an acting account`);
      return this.actingAccount;
    },
  });

  app.addHook('onRoute', (route: RouteOptions & { [ADDED]?: true }) => {
    const config = route.config;
    const access = accessOf(route);
    if (access === undefined) {
      if (route.url.startsWith(ACCESS_REQUIRED_PREFIX))
        throw new Error(`${String(route.method)} ${route.url} states no access level (config.access)`);
      return;
    }
    if (!ACCESS_LEVELS.includes(access))
      throw new Error(`${String(route.method)} ${route.url}: unknown access level ${String(access)}`);
    if (config?.accountScope && access !== 'account-user' && access !== 'primary-user') {
      throw new Error(
        `${String(route.method)} ${route.url}: accountScope needs access 'account-user' or 'primary-user'`,
      );
    }
    if (access === 'group-user' && !route.url.includes(':groupId'))
      throw new Error(`${String(route.method)} ${route.url}: access 'group-user' needs a :groupId in the path`);
    const handler = accessHandler(access, config?.accountScope);
    if (!handler || route[ADDED]) return;
    // First of the preValidation hooks: before a contract route's payload is parsed, so that only
    // those allowed to call a route learn how their request would be judged.
    const rest =
      route.preValidation === undefined
        ? []
        : Array.isArray(route.preValidation)
          ? route.preValidation
          : [route.preValidation];
    route.preValidation = [handler, ...rest];
    route[ADDED] = true;
  });
});
