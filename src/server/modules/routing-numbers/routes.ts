import { routingLookupContract } from '../../../shared/contracts/routing-numbers.ts';
import { fromContract } from '../../contracts.ts';
import { perMinuteInProcess } from '../../plugins/rate-limits.ts';
import { answerRoutingLookup, JSONP_CALLBACK_PATTERN, jsonpScript } from './lookup.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Lookups per client address per minute. The bank form asks once per 500 ms pause in typing, so
 * a person stays far below this; it only slows someone walking the table.
 */
export const ROUTING_LOOKUP_PER_MINUTE = 60;

/**
 * The built-in routing-number lookup, the no-network default of ROUTING_LOOKUP_URL (docs/requirements/calls.md
 * third-party calls): GET /routing-numbers/data.json?rn=…&callback=…. Public, no session needed.
 * Answers JSONP (application/javascript) when `callback` is a plain name, JSON otherwise; the
 * lookup's own code (200, 404, 400) is in the body and the HTTP status is 200, as with the public
 * service, because a script tag cannot read the body of an error status.
 */
export async function routingNumberRoutes(app: FastifyInstance) {
  const route = fromContract(routingLookupContract);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...route,
    config: { ...route.config, rateLimit: perMinuteInProcess(ROUTING_LOOKUP_PER_MINUTE) },
    handler: async (req, reply) => {
      const answer = answerRoutingLookup(req.query.rn);
      const { callback } = req.query;
      const jsonp = typeof callback === 'string' && JSONP_CALLBACK_PATTERN.test(callback) ? callback : null;
      // Browsers run a script only with a script type; nosniff stops the JSON answer being run as one.
      reply.header('x-content-type-options', 'nosniff');
      // A script is sent as it is, not serialized by the JSON answer's schema.
      if (jsonp)
        return (reply as FastifyReply).type('application/javascript; charset=utf-8').send(jsonpScript(jsonp, answer));
      return reply.type('application/json; charset=utf-8').send(answer);
    },
  });
}
