// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTING_LOOKUP_UNAVAILABLE, toRoutingLookupResult } from './routing-number-lookup.ts';
import { ROUTING_CHECK_MESSAGES, useRoutingNumberCheck } from './use-routing-number-check.ts';
import type { RoutingLookupResult } from './routing-number-lookup.ts';

/**
 * The routing-number check of the bank form (docs/requirements/validation.md "Bank", docs/requirements/calls.md third-party calls): 500 ms
 * debounce, the local ABA checksum first, then the lookup. The lookup here is one the test
 * answers by hand (possibly late, possibly failing); the real JSONP client is driven against the
 * real server in tests/e2e/routing-number-lookup.test.ts.
 */

interface Pending {
  rn: string;
  resolve(result: RoutingLookupResult): void;
  reject(err: Error): void;
}

let calls: Pending[];
const lookup = (rn: string) =>
  new Promise<RoutingLookupResult>((resolve, reject) => calls.push({ rn, resolve, reject }));

beforeEach(() => {
  vi.useFakeTimers();
  calls = [];
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const answer = (call: Pending, result: RoutingLookupResult) => act(async () => call.resolve(result));

function mount(routingNumber: string, accountNumber?: string) {
  return renderHook(({ rn, account }) => useRoutingNumberCheck(rn, account, { lookup }), {
    initialProps: { rn: routingNumber, account: accountNumber },
  });
}

describe('useRoutingNumberCheck', () => {
  it('stays idle and asks nobody while fewer than 9 characters are typed', async () => {
    const { result, rerender } = mount('');
    for (const rn of ['0', '0210', '02100002']) {
      rerender({ rn, account: undefined });
      await wait(1000);
      expect(result.current).toEqual({ state: 'idle' });
    }
    expect(calls).toHaveLength(0);
  });

  it('asks once, 500 ms after the typing stops, with the last value', async () => {
    const { result, rerender } = mount('02100002');
    rerender({ rn: '021000021', account: undefined });
    await wait(300);
    rerender({ rn: '021000089', account: undefined });
    await wait(499);
    expect(calls).toHaveLength(0);
    expect(result.current.state).toBe('idle');
    await wait(1);
    expect(calls.map((c) => c.rn)).toEqual(['021000089']);
    expect(result.current).toEqual({ state: 'checking' });
    await answer(calls[0], { code: 200, message: 'OK', customer_name: 'CITIBANK NA' });
    expect(result.current).toEqual({ state: 'found', bankName: 'CITIBANK NA' });
  });

  it('reports a failed checksum locally, without asking', async () => {
    const { result, rerender } = mount('021000022');
    await wait(500);
    expect(result.current).toEqual({ state: 'invalid', error: ROUTING_CHECK_MESSAGES.invalid });
    rerender({ rn: '02100002x', account: undefined });
    await wait(500);
    expect(result.current).toEqual({
      state: 'invalid',
      error: 'The routing number is not a valid bank routing number. Please check it against a check or your bank.',
    });
    expect(calls).toHaveLength(0);
  });

  it('reports a routing number equal to the account number, without asking', async () => {
    const { result, rerender } = mount('021000021', ' 021000021 ');
    await wait(500);
    expect(result.current).toEqual({
      state: 'invalid',
      error: 'The account number cannot be the same as the routing number.',
    });
    expect(calls).toHaveLength(0);
    rerender({ rn: '021000021', account: '12345678' });
    expect(result.current.state).toBe('idle');
    await wait(500);
    expect(calls.map((c) => c.rn)).toEqual(['021000021']);
  });

  it("shows a refusal's message as the error, and no error when the lookup cannot be reached", async () => {
    const { result, rerender } = mount('123456780');
    await wait(500);
    await answer(calls[0], { code: 404, message: 'not found' });
    expect(result.current).toEqual({ state: 'invalid', error: 'Not found.' });

    rerender({ rn: '021000021', account: undefined });
    await wait(500);
    await answer(calls[1], ROUTING_LOOKUP_UNAVAILABLE);
    expect(result.current).toEqual({ state: 'unavailable' });

    rerender({ rn: '021000089', account: undefined });
    await wait(500);
    await act(async () => calls[2].reject(new Error('network down')));
    expect(result.current).toEqual({ state: 'unavailable' });
  });

  it("shows the lookup's message when it refuses the number with another code", async () => {
    const { result } = mount('021000021');
    await wait(500);
    await answer(calls[0], { code: 400, message: 'invalid routing number' });
    expect(result.current).toEqual({ state: 'invalid', error: 'Invalid routing number.' });
  });

  it('drops a late answer for a value that has since changed', async () => {
    const { result, rerender } = mount('021000021');
    await wait(500);
    rerender({ rn: '121000248', account: undefined });
    expect(result.current.state).toBe('idle');
    await wait(500);
    await answer(calls[1], { code: 200, message: 'OK', customer_name: 'WELLS FARGO BANK, NA' });
    await answer(calls[0], { code: 200, message: 'OK', customer_name: 'JPMORGAN CHASE' });
    expect(result.current).toEqual({ state: 'found', bankName: 'WELLS FARGO BANK, NA' });
  });

  it('hides a result as soon as the value is edited', async () => {
    const { result, rerender } = mount('021000021');
    await wait(500);
    await answer(calls[0], { code: 200, message: 'OK', customer_name: 'JPMORGAN CHASE' });
    rerender({ rn: '02100002', account: undefined });
    expect(result.current).toEqual({ state: 'idle' });
  });
});

describe('toRoutingLookupResult', () => {
  it('keeps code, message and customer_name of an answer', () => {
    expect(
      toRoutingLookupResult({
        code: 200,
        message: 'OK',
        rn: '021000021',
        customer_name: 'JPMORGAN CHASE',
        city: 'TAMPA',
      }),
    ).toEqual({ code: 200, message: 'OK', customer_name: 'JPMORGAN CHASE' });
    expect(toRoutingLookupResult({ code: '404', message: 'not found' })).toEqual({ code: 404, message: 'not found' });
  });

  it('calls anything without a usable code unavailable', () => {
    for (const body of [null, 'OK', 42, {}, { code: 'OK' }, { code: -1 }, { code: 0 }, { code: 2.5 }]) {
      expect(toRoutingLookupResult(body), JSON.stringify(body)).toEqual({ code: 0, message: 'unavailable' });
    }
  });
});
