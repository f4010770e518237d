import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { contractValidatorCompiler } from '../contracts.ts';
import type { FastifyInstance } from 'fastify';

/** Where staff read the API document (docs/ARCHITECTURE.md "Route contracts"). */
export const API_DOCS_PATH = '/api/docs';

/**
 * Route contracts (docs/ARCHITECTURE.md "Route contracts"): requests of contract routes are parsed
 * by their zod schemas (422 with field messages on failure), answers are checked against and
 * serialized by their response schemas (an answer that does not match is a 500 and is reported,
 * never sent), and the OpenAPI document drawn from the contracts is served to staff at
 * `/api/docs` (the page) and `/api/docs/json`, staff only like every route under it (plugins/access.ts):
 * 401 for visitors, 403 for account users. Registered after the access plugin, before the routes.
 */
export const apiDocsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setValidatorCompiler(contractValidatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    // A contract without params, query or body leaves that key undefined (fromContract keeps every key
    // for the types); Fastify warns about a present but empty schema, so the empty keys go.
    app.addHook('onRoute', (route) => {
      const schema = route.schema as Record<string, unknown> | undefined;
      if (!route.config?.contract || !schema) return;
      for (const key of ['params', 'querystring', 'body'] as const)
        if (schema[key] === undefined) Reflect.deleteProperty(schema, key);
    });
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'GoodStanding API',
          version: '1',
          description:
            'The routes the web client calls. Requests and answers are JSON unless a route says otherwise; failures answer `{ message }`, and 422 adds `errors` by field (docs/requirements/platform.md §3).',
        },
      },
      // Only routes registered from a contract are documented: the others have no schema to show.
      transform: (input) =>
        input.route.config?.contract
          ? jsonSchemaTransform(input)
          : { schema: { ...input.schema, hide: true }, url: input.url },
    });
    await app.register(swaggerUi, {
      routePrefix: API_DOCS_PATH,
      uiConfig: { docExpansion: 'list', deepLinking: false },
    });
  },
  { name: 'api-docs' },
);
