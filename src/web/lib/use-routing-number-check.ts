import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { isValidRoutingNumber, ROUTING_NUMBER_LENGTH, ROUTING_NUMBER_MESSAGES } from '../../shared/rules/aba.ts';
import { BANK_MESSAGES } from '../../shared/schemas/payments.ts';
import { lookupRoutingNumber, type RoutingLookupResult } from './routing-number-lookup.ts';

/** Messages of the routing-number check, for the bank form to reuse (docs/requirements/validation.md "Bank"). */
export const ROUTING_CHECK_MESSAGES = {
  invalid: ROUTING_NUMBER_MESSAGES.checksum,
  sameAsAccount: BANK_MESSAGES.sameAsRouting,
} as const;

/** The pause in typing after which the routing number is checked (docs/requirements/validation.md "Bank": 500 ms). */
const ROUTING_CHECK_DELAY_MS = 500;

type RoutingCheckState = 'idle' | 'checking' | 'invalid' | 'found' | 'unavailable';

export interface RoutingCheck {
  state: RoutingCheckState;
  /** The lookup's customer_name, when state is 'found' (may be empty: the built-in lookup knows few banks). */
  bankName?: string;
  /** Text to show under the field, when state is 'invalid'. */
  error?: string;
}

export interface RoutingCheckOptions {
  /** The lookup to ask; the JSONP client by default (tests give one they control). */
  lookup?: (rn: string) => Promise<RoutingLookupResult>;
  delayMs?: number;
}

const IDLE: RoutingCheck = { state: 'idle' };

/**
 * Checks a routing number as it is typed (docs/requirements/validation.md "Bank", docs/requirements/calls.md third-party calls).
 * @param routingNumber the field's value; surrounding spaces are ignored.
 * @param accountNumber the account number field's value, which the routing number must differ from.
 * @returns 'idle' while the value is shorter than 9 characters or has not been still for 500 ms.
 *   Then, locally: 'invalid' with `ROUTING_CHECK_MESSAGES.invalid` unless it is 9 digits passing
 *   the ABA checksum, or with `ROUTING_CHECK_MESSAGES.sameAsAccount` when it equals the account
 *   number. Otherwise 'checking' while the lookup runs, then by its code (docs/requirements/validation.md "Bank"): 200
 *   'found' with `bankName`; 0 (unreachable) 'unavailable' without an error, since the checksum
 *   already passed and the payment provider has the last word; any other code 'invalid' with the
 *   lookup's message as the error. An answer for a value that has since changed is dropped.
 */
export function useRoutingNumberCheck(
  routingNumber: string,
  accountNumber?: string,
  options: RoutingCheckOptions = {},
): RoutingCheck {
  const rn = (routingNumber ?? '').trim();
  const account = (accountNumber ?? '').trim();
  const lookup = options.lookup ?? lookupRoutingNumber;
  const delayMs = options.delayMs ?? ROUTING_CHECK_DELAY_MS;
  // The result is kept with the values it was worked out for, so an edit hides it at once.
  const key = `${rn}\n${account}`;
  const [latest, setLatest] = useState<{ key: string; check: RoutingCheck }>({ key: '', check: IDLE });
  // The newest `lookup` is used without restarting the check: an inline function differs on every render.
  const lookupRef = useRef(lookup);
  useLayoutEffect(() => {
    lookupRef.current = lookup;
  });

  useEffect(() => {
    if (rn.length < ROUTING_NUMBER_LENGTH) return;
    // Cleared by the next value (or unmount), so a slow answer for an older value is dropped.
    let current = true;
    const show = (check: RoutingCheck) => {
      if (current) setLatest({ key, check });
    };
    const timer = setTimeout(() => {
      if (!isValidRoutingNumber(rn)) return show({ state: 'invalid', error: ROUTING_CHECK_MESSAGES.invalid });
      if (account && rn === account) return show({ state: 'invalid', error: ROUTING_CHECK_MESSAGES.sameAsAccount });
      show({ state: 'checking' });
      lookupRef.current(rn).then(
        (result) => show(fromLookup(result)),
        () => show({ state: 'unavailable' }),
      );
    }, delayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, rn, account, delayMs]);

  return latest.key === key ? latest.check : IDLE;
}

function fromLookup(result: RoutingLookupResult): RoutingCheck {
  if (result.code === 200) return { state: 'found', bankName: result.customer_name };
  if (result.code === 0) return { state: 'unavailable' };
  const message = result.message.trim();
  // The public service answers terse lower-case texts ('not found'): show them as a sentence.
  return {
    state: 'invalid',
    error: message
      ? `${message[0].toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? '' : '.'}`
      : ROUTING_CHECK_MESSAGES.invalid,
  };
}
