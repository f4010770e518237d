import { isValidRoutingNumber } from '../../../shared/rules/aba.ts';
import { KNOWN_BANKS } from './known-banks.ts';
import type { AppConfig } from '../../config.ts';

/**
 * The built-in routing-number lookup (docs/requirements/calls.md third-party calls: "called by JSONP with rn and
 * returns code, message and customer_name"), answering in the shape of the public service
 * routingnumbers.info so the browser client reads either the same way.
 */
export type RoutingLookupAnswer =
  | { code: 200; message: 'OK'; rn: string; customer_name: string; city: string; state: string }
  | { code: 400; message: 'invalid routing number'; rn: string };

const BY_NUMBER = new Map(KNOWN_BANKS.map((bank) => [bank.rn, bank]));

/** The answer echoes `rn`; cut it so a caller cannot make the response as long as its query. */
const MAX_ECHOED_RN = 32;

/**
 * Looks `rn` up in the bundled table (docs/requirements/calls.md).
 * @param rn the `rn` query value as received (anything that is not a string counts as empty).
 * @returns code 200 with the bank's name, city and state for a known number; code 200 with empty
 *   name, city and state for 9 digits passing the ABA checksum that the small table does not hold
 *   (offline, the checksum is all there is to go on, and docs/requirements/validation.md shows any other code as an error
 *   that would stop a payment to a real bank); 400 'invalid routing number'
 *   otherwise (other lengths, non-digits, surrounding spaces, a failed checksum, all zeros).
 *   Never throws.
 */
export function answerRoutingLookup(rn: unknown): RoutingLookupAnswer {
  const value = typeof rn === 'string' ? rn : '';
  if (!/^\d{9}$/.test(value) || !isValidRoutingNumber(value)) {
    return { code: 400, message: 'invalid routing number', rn: value.slice(0, MAX_ECHOED_RN) };
  }
  const bank = BY_NUMBER.get(value);
  if (!bank) return { code: 200, message: 'OK', rn: value, customer_name: '', city: '', state: '' };
  return {
    code: 200,
    message: 'OK',
    rn: bank.rn,
    customer_name: bank.customer_name,
    city: bank.city,
    state: bank.state,
  };
}

/** JSONP callback names answered as script; anything else gets plain JSON. */
export const JSONP_CALLBACK_PATTERN = /^[A-Za-z_$][\w$.]{0,63}$/;

/**
 * The JSONP script `callback(data);` for a callback name already matched against
 * {@link JSONP_CALLBACK_PATTERN}.
 */
export function jsonpScript(callback: string, data: unknown): string {
  // U+2028 and U+2029 are legal inside JSON strings but end the line in pre-ES2019 script parsers.
  const json = JSON.stringify(data)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  // The leading empty comment keeps the first bytes out of the caller's hands, so an alphanumeric
  // callback cannot make the response sniffable as another file type (the "Rosetta Flash" attack).
  return `/**/${callback}(${json});`;
}

type LookupUrlConfig = Pick<AppConfig, 'publicUrl' | 'routingLookupUrl'>;

/** A path on this site (the built-in lookup, the default), or an absolute URL on PUBLIC_URL's origin. */
const isOwn = (config: LookupUrlConfig) =>
  config.routingLookupUrl.startsWith('/') ||
  new URL(config.routingLookupUrl).origin === new URL(config.publicUrl).origin;

/**
 * The lookup URL handed to the browser in the boot data. The site's own lookup is given as a
 * path, so the page reaches it on whatever host the visitor used (PUBLIC_URL may say localhost
 * while the page was opened on 127.0.0.1) and it stays within the CSP's 'self'
 * (docs/security.md "Same origin").
 */
export function routingLookupUrlForBrowser(config: LookupUrlConfig): string {
  if (!isOwn(config)) return config.routingLookupUrl;
  const url = new URL(config.routingLookupUrl, 'http://site.invalid');
  return `${url.pathname}${url.search}`;
}

/**
 * What to add to the CSP script-src for the lookup's JSONP scripts: its origin when it is on
 * another origin, nothing when it is the site's own ('self' already covers it).
 */
export function routingLookupScriptSources(config: LookupUrlConfig): string[] {
  return isOwn(config) ? [] : [new URL(config.routingLookupUrl).origin];
}
