import fetchJsonp from 'fetch-jsonp';
import { boot } from './boot.ts';

/**
 * What the public routing-number lookup answers (docs/requirements/calls.md third-party calls: "called by JSONP with
 * rn and returns code, message and customer_name"): code 200 with the bank's name (the built-in lookup may leave it empty), 404 for a
 * number it does not know, another code with a message for a refused one; code 0 when it could
 * not be reached.
 */
export interface RoutingLookupResult {
  code: number;
  message: string;
  customer_name?: string;
}

/** How long to wait for the lookup's script before calling it unavailable. */
const ROUTING_LOOKUP_TIMEOUT_MS = 5000;

export const ROUTING_LOOKUP_UNAVAILABLE: RoutingLookupResult = Object.freeze({ code: 0, message: 'unavailable' });

/**
 * Asks the routing-number lookup about `rn` by JSONP (docs/requirements/calls.md third-party calls; docs/requirements/validation.md "Bank").
 * @param rn the routing number as typed; sent as the `rn` query parameter.
 * @param opts.url the lookup, `boot.routingLookupUrl` by default (the server's ROUTING_LOOKUP_URL
 *   or its built-in lookup); opts.timeoutMs, 5000 by default.
 * @returns the lookup's code, message and customer_name. Never throws: a network failure, a
 *   blocked or failing script, a timeout or an answer without a numeric code all resolve to
 *   {@link ROUTING_LOOKUP_UNAVAILABLE} ({ code: 0, message: 'unavailable' }).
 */
export async function lookupRoutingNumber(
  rn: string,
  opts: { url?: string; timeoutMs?: number } = {},
): Promise<RoutingLookupResult> {
  const url = opts.url ?? boot.routingLookupUrl;
  if (!url) return ROUTING_LOOKUP_UNAVAILABLE;
  try {
    const response = await fetchJsonp(`${url}${url.includes('?') ? '&' : '?'}rn=${encodeURIComponent(rn)}`, {
      jsonpCallback: 'callback',
      timeout: opts.timeoutMs ?? ROUTING_LOOKUP_TIMEOUT_MS,
    });
    return toRoutingLookupResult(await response.json<unknown>());
  } catch {
    return ROUTING_LOOKUP_UNAVAILABLE;
  }
}

/**
 * Reads a lookup answer defensively (the configured lookup is a third party): keeps a numeric (or
 * numeric string) code, a string message and a string customer_name. Anything without a usable
 * code is {@link ROUTING_LOOKUP_UNAVAILABLE}.
 */
export function toRoutingLookupResult(body: unknown): RoutingLookupResult {
  if (typeof body !== 'object' || body === null) return ROUTING_LOOKUP_UNAVAILABLE;
  const { code, message, customer_name: name } = body as Record<string, unknown>;
  const numeric =
    typeof code === 'number' ? code : typeof code === 'string' && /^\d{1,3}$/.test(code) ? Number(code) : NaN;
  if (!Number.isInteger(numeric) || numeric <= 0) return ROUTING_LOOKUP_UNAVAILABLE;
  const result: RoutingLookupResult = { code: numeric, message: typeof message === 'string' ? message : '' };
  if (typeof name === 'string' && name.trim()) result.customer_name = name.trim();
  return result;
}
