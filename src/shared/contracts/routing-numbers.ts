import { z } from 'zod';
import { defineContract } from './contract.ts';

/**
 * The built-in routing-number lookup (docs/requirements/calls.md third-party calls), in the shape
 * of the public service routingnumbers.info: code, message and the bank. The lookup's own code is
 * in the body; the HTTP status is 200 either way (a script tag cannot read an error's body).
 */
const lookupAnswerSchema = z.union([
  z.object({
    code: z.literal(200),
    message: z.literal('OK'),
    rn: z.string(),
    customer_name: z.string(),
    city: z.string(),
    state: z.string(),
  }),
  z.object({ code: z.literal(400), message: z.literal('invalid routing number'), rn: z.string() }),
]);

/** GET /routing-numbers/data.json?rn=…&callback=…: anyone may ask, no session needed. */
export const routingLookupContract = defineContract({
  method: 'GET',
  url: '/routing-numbers/data.json',
  access: 'visitor',
  summary: 'Look up a bank by its routing number (JSON, or JSONP with callback)',
  // Read as they come: any other value is the lookup's own code 400, or plain JSON without callback.
  querystring: z.object({
    rn: z.unknown().optional().describe('The 9-digit routing number'),
    callback: z.unknown().optional().describe('A plain function name: the answer is a script calling it (JSONP)'),
  }),
  response: { 200: lookupAnswerSchema },
  produces: ['application/json', 'application/javascript'],
});
