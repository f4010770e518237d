import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromContract } from '../../src/server/contracts.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { apiDocsPlugin } from '../../src/server/plugins/api-docs.ts';
import { errorsPlugin } from '../../src/server/plugins/errors.ts';
import { ACCESS_LEVELS, defineContract } from '../../src/shared/contracts/contract.ts';
import { type AppRoute, createInventoriedTestApp, exemptionOf, type InventoriedApp } from '../helpers/routes.ts';
import { Agent, signedIn } from '../helpers/test-app.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Route contracts (docs/ARCHITECTURE.md "Route contracts"): each route declares its request and
 * response schemas once (src/shared/contracts/); the server parses requests and checks answers with
 * them, the client takes its types from them, and staff read the OpenAPI document drawn from them
 * at /api/docs.
 */

/**
 * Routes still registered without a contract, moved to one module at a time. The list may only
 * shrink: a route added without a contract, or a listed route that gained one, fails the test.
 */
const AWAITING_CONTRACT = new Set<string>([
  'GET /api/applications/:token',
  'GET /api/bylaws/:hash',
  'GET /api/bylaws/:hash/document',
  'GET /api/finances',
  'GET /api/invoices/:id',
  'GET /api/invoices/unpaid',
  'GET /api/payments/:id/receipt',
  'GET /api/payments/screen',
  'GET /api/pricing',
  'GET /api/session',
  'GET /api/state-requirements',
  'PUT /app/account/data',
  'POST /app/account/empty-image/:id',
  'POST /app/account/image/:id',
  'GET /app/account/image/:id/:fileId',
  'POST /app/account/renewal',
  'POST /app/account/users/:id/invitation',
  'DELETE /app/account/users/delete/:id',
  'GET /app/account/users/json',
  'POST /app/account/users/store',
  'PUT /app/account/users/update/:id',
  'POST /app/discount/reserve',
  'GET /app/fields/editable',
  'POST /app/payments/bank',
  'POST /app/payments/credit',
  'POST /app/payments/paypal',
  'GET /app/payments/paypal/clear',
  'GET /app/payments/paypal/init',
  'POST /app/payments/zero-payment',
  'GET /application/bylaws/:token',
  'PATCH /application/create/:token',
  'PUT /application/create/:token',
  'DELETE /application/delete',
  'POST /application/start',
  'POST /application/switch/:token',
  'POST /application/upload/:token',
  'GET /application/upload/:token/:fileId',
  'POST /bylaws-generator',
  'PUT /bylaws-generator/:hash',
  'GET /bylaws-generator/download/:hash',
  'POST /bylaws-generator/school',
  'POST /bylaws-generator/short',
  'POST /contests/photo',
  'POST /contests/video',
  'GET /healthz',
  'GET /livez',
  'POST /login',
  'POST /logout',
  'POST /password/forgot',
  'POST /password/reset',
  'GET /readyz',
  'GET /routing-numbers/data.json',
  'GET /search',
]);

const STAFF = { email: 'contracts-staff@example.org', password: 'Staff-contracts-2026!' };
const HOLDER = { email: 'contracts-holder@example.org', password: 'Holder-contracts-2026!' };
let s: InventoriedApp;
const checked = () => s.routes.filter((r: AppRoute) => !exemptionOf(r));

beforeAll(async () => {
  s = await createInventoriedTestApp();
  await createUser(s.t.database.db, { ...STAFF, isAdmin: true });
  const account = await createAccount(s.t.database.db, { name: 'Contracts Boosters' });
  await createUser(s.t.database.db, { ...HOLDER, accountId: account.id });
});
afterAll(async () => s?.close());

describe('every route has a contract', () => {
  it('no route is registered without request and response schemas, except those listed as awaiting one', () => {
    const missing = checked()
      .filter((r) => !r.contract && !r.url.startsWith('/api/docs') && !AWAITING_CONTRACT.has(r.key))
      .map((r) => r.key);
    const gained = checked()
      .filter((r) => r.contract && AWAITING_CONTRACT.has(r.key))
      .map((r) => r.key);
    expect(missing, 'routes without a contract (add one in src/shared/contracts/)').toEqual([]);
    expect(gained, 'routes that have a contract now (remove them from AWAITING_CONTRACT)').toEqual([]);
  });

  it('every contract names who may call it and at least one success answer', () => {
    for (const r of checked().filter((route) => route.contract)) {
      expect(ACCESS_LEVELS, r.key).toContain(r.contract!.access);
      expect(
        Object.keys(r.contract!.response).some((code) => code.startsWith('2')),
        r.key,
      ).toBe(true);
    }
  });
});

describe('the API document at /api/docs', () => {
  it('is shown to staff, with every contract route, its body and its answers', async () => {
    const staff = await signedIn(s.t.app, STAFF);
    const page = await staff.get('/api/docs');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('swagger-ui');
    const doc = (await staff.get('/api/docs/json')).json();
    expect(doc.info.title).toBe('GoodStanding API');
    const contracted = checked().filter((r) => r.contract);
    expect(contracted.length).toBeGreaterThan(0);
    for (const r of contracted) {
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[r.method.toLowerCase()];
      expect(operation, `${r.key} in the document`).toBeDefined();
      expect(operation.summary).toBe(r.contract!.summary);
      expect(operation.description).toMatch(/^Who may call it: /);
      if (r.contract!.body)
        expect(operation.requestBody.content['application/json'].schema.properties, r.key).toBeDefined();
      for (const code of Object.keys(r.contract!.response))
        expect(operation.responses[code], `${r.key} ${code}`).toBeDefined();
    }
    // The rating's body as a client reads it: its fields, with the stars 1 to 5.
    const rating = doc.paths['/ratings'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(rating.properties)).toEqual(expect.arrayContaining(['url', 'rating', 'comments']));
  });

  it('is refused to visitors (401) and to account users (403), who learn nothing of it', async () => {
    const visitor = await new Agent(s.t.app).start();
    const holder = await signedIn(s.t.app, HOLDER);
    for (const url of ['/api/docs', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/index.html']) {
      const v = await visitor.get(url);
      expect(v.statusCode, url).toBe(401);
      expect(v.body).not.toContain('/ratings');
      const h = await holder.get(url);
      expect(h.statusCode, url).toBe(403);
      expect(h.body).not.toContain('/ratings');
    }
  });
});

describe('requests and answers go through the contract', () => {
  it("a refused payload is the product's 422 with each field's message, not a 400", async () => {
    const visitor = await new Agent(s.t.app).start();
    const res = await visitor.post('/ratings', { url: '/pricing', rating: 9 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.rating).toEqual([expect.stringMatching(/rating/i)]);
  });

  it('an answer that does not match its response schema is a 500 with the generic message, and its content is never sent', async () => {
    const app = Fastify();
    await app.register(errorsPlugin, {});
    await app.register(apiDocsPlugin);
    const leaky = defineContract({
      method: 'GET',
      url: '/leaky',
      access: 'visitor',
      summary: 'A route that answers more than it declares',
      response: { 200: z.object({ id: z.number().int() }) },
    });
    app.withTypeProvider<ZodTypeProvider>().route({
      ...fromContract(leaky),
      // The handler breaks its contract on purpose: a wrong type where the schema says integer.
      handler: async () => JSON.parse('{"id":"secret-value"}'),
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/leaky' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret-value');
    await app.close();
  });
});
