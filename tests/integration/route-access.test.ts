import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, accessOf, accessPlugin } from '../../src/server/plugins/access.ts';
import { exemptionOf, type AppRoute } from '../helpers/routes.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Every route states who may call it (docs/ARCHITECTURE.md "Access", docs/requirements/permissions.md):
 * `config.access` is one of visitor, signed-in, account-user, primary-user, staff. The routes are
 * walked through an `onRoute` hook added before any plugin, so a route added later is walked too.
 */

let t: TestApp;
const routes: AppRoute[] = [];

beforeAll(async () => {
  const onRoute = (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const access = accessOf(route);
    for (const method of methods) routes.push({ method, url: route.url, access, key: `${method} ${route.url}` });
  };
  t = await createTestApp({ onRoute });
});

afterAll(async () => {
  await t?.close();
});

describe('route access levels', () => {
  it('every /api route states an access level', () => {
    const api = routes.filter((r) => r.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(50);
    expect(
      api.filter((r) => r.access === undefined).map((r) => r.key),
      '/api routes without config.access',
    ).toEqual([]);
  });

  it('every other route that is not a page shell, a static file or the gateway simulator states one too', () => {
    const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
    const rest = routes
      .filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
      .filter((r) => exemptionOf(r) === null && r.access === undefined)
      .map((r) => r.key);
    expect(rest, 'routes without config.access').toEqual([]);
  });

  it('every stated level is a known one', () => {
    expect(routes.filter((r) => r.access !== undefined && !ACCESS_LEVELS.includes(r.access)).map((r) => r.key)).toEqual(
      [],
    );
  });

  it('a route under /api that states no access level stops the app at start, naming the route', async () => {
    const app = Fastify({ logger: false });
    await app.register(accessPlugin);
    app.register(async (scope) => {
      scope.get('/api/forgotten', async () => ({ ok: true }));
    });
    await expect(app.ready()).rejects.toThrow('GET /api/forgotten states no access level (config.access)');
    await app.close().catch(() => undefined);
  });

  it('an unknown level, an account scope on a route that has no account, or a group route without its group, stops the app too', async () => {
    for (const config of [
      { access: 'admin' },
      { access: 'staff', accountScope: { optional: true } },
      { access: 'group-user' },
    ]) {
      const app = Fastify({ logger: false });
      await app.register(accessPlugin);
      app.register(async (scope) => {
        scope.get('/api/odd', { config: config as never }, async () => ({ ok: true }));
      });
      await expect(app.ready(), JSON.stringify(config)).rejects.toThrow('GET /api/odd');
      await app.close().catch(() => undefined);
    }
  });

  it('a visitor route takes no access handler; the others start with theirs', async () => {
    const app = Fastify({ logger: false });
    const seen = new Map<string, number>();
    await app.register(accessPlugin);
    app.addHook('onRoute', (route) => {
      const handlers = route.preValidation === undefined ? [] : [route.preValidation].flat();
      seen.set(`${route.method} ${route.url}`, handlers.length);
    });
    // A group's route names its group in the path; any other level has no parameter.
    const urlOf = (access: string) => (access === 'group-user' ? '/api/group-user/:groupId' : `/api/${access}`);
    for (const access of ACCESS_LEVELS) app.get(urlOf(access), { config: { access } }, async () => ({ ok: true }));
    await app.ready();
    expect(Object.fromEntries(seen)).toMatchObject({
      'GET /api/visitor': 0,
      'GET /api/signed-in': 1,
      'GET /api/account-user': 1,
      'GET /api/primary-user': 1,
      'GET /api/group-user/:groupId': 1,
      'GET /api/staff': 1,
    });
    await app.close();
  });
});
