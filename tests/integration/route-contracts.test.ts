import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromContract } from '../../src/server/contracts.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { apiDocsPlugin } from '../../src/server/plugins/api-docs.ts';
import { errorsPlugin } from '../../src/server/plugins/errors.ts';
import { ACCESS_LEVELS, defineContract } from '../../src/shared/contracts/contract.ts';
import { createRatingContract } from '../../src/shared/contracts/public-forms.ts';
import { type AppRoute, createInventoriedTestApp, exemptionOf, type InventoriedApp } from '../helpers/routes.ts';
import { Agent, signedIn } from '../helpers/test-app.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Route contracts (docs/ARCHITECTURE.md "Route contracts"): each route declares its request and
 * response schemas once (src/shared/contracts/); the server parses requests and checks answers with
 * them, the client takes its types from them, and staff read the OpenAPI document drawn from them
 * at /api/docs.
 */

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
  it("no route is registered without request and response schemas (the API document's pages aside)", () => {
    const missing = checked()
      .filter((r) => !r.contract && !r.url.startsWith('/api/docs'))
      .map((r) => r.key);
    expect(missing, 'routes without a contract (add one in src/shared/contracts/)').toEqual([]);
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
    const res = await visitor.call(createRatingContract, { body: { url: '/pricing', rating: 9 } });
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
