import { describe, expect, it } from 'vitest';
import { isValidRoutingNumber } from '../../../shared/rules/aba.ts';
import { KNOWN_BANKS } from './known-banks.ts';
import {
  answerRoutingLookup,
  JSONP_CALLBACK_PATTERN,
  jsonpScript,
  routingLookupScriptSources,
  routingLookupUrlForBrowser,
} from './lookup.ts';

describe('the built-in lookup table (docs/requirements/calls.md third-party calls)', () => {
  it('holds 15 to 30 banks, each a 9-digit number passing the ABA checksum, none twice', () => {
    expect(KNOWN_BANKS.length).toBeGreaterThanOrEqual(15);
    expect(KNOWN_BANKS.length).toBeLessThanOrEqual(30);
    for (const bank of KNOWN_BANKS) {
      expect(bank.rn, bank.rn).toMatch(/^\d{9}$/);
      expect(isValidRoutingNumber(bank.rn), `${bank.rn} ${bank.customer_name}`).toBe(true);
      expect(bank.customer_name.trim()).not.toBe('');
      expect(bank.state).toMatch(/^[A-Z]{2}$/);
    }
    expect(new Set(KNOWN_BANKS.map((b) => b.rn)).size).toBe(KNOWN_BANKS.length);
  });

  it('knows the numbers testers type: the big banks and the Authorize.Net sandbox 111000025', () => {
    const names = Object.fromEntries(KNOWN_BANKS.map((b) => [b.rn, b.customer_name]));
    expect(names['021000021']).toBe('JPMORGAN CHASE');
    expect(names['026009593']).toMatch(/^BANK OF AMERICA/);
    expect(names['121000248']).toMatch(/^WELLS FARGO/);
    expect(names['011000015']).toBe('FEDERAL RESERVE BANK');
    expect(names['111000025']).toBeDefined();
  });
});

describe('answerRoutingLookup', () => {
  it('answers 200 with name, city and state for a known number', () => {
    expect(answerRoutingLookup('021000021')).toEqual({
      code: 200,
      message: 'OK',
      rn: '021000021',
      customer_name: 'JPMORGAN CHASE',
      city: 'TAMPA',
      state: 'FL',
    });
  });

  it('answers 200 without a name for a well-formed number it does not know', () => {
    expect(isValidRoutingNumber('123456780')).toBe(true);
    expect(answerRoutingLookup('123456780')).toEqual({
      code: 200,
      message: 'OK',
      rn: '123456780',
      customer_name: '',
      city: '',
      state: '',
    });
  });

  it('answers 400 for anything else, echoing at most 32 characters', () => {
    for (const rn of [
      '021000022',
      '02100002',
      '0210000210',
      '02100002a',
      ' 021000021',
      '000000000',
      '',
      undefined,
      ['021000021'],
      21000021,
    ]) {
      expect(answerRoutingLookup(rn), String(rn)).toMatchObject({ code: 400, message: 'invalid routing number' });
    }
    expect(answerRoutingLookup('9'.repeat(1000)).rn).toHaveLength(32);
    expect(answerRoutingLookup(['021000021']).rn).toBe('');
  });
});

describe('JSONP', () => {
  it('accepts plain callback names only', () => {
    for (const ok of ['cb', 'jsonp_1712345678901_4242', '$', '_x', 'a.b.c', 'x'.repeat(64)])
      expect(JSONP_CALLBACK_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['', '1cb', 'alert(1)', 'a b', 'a;b', 'a-b', 'x'.repeat(65), 'cb\n', '<script>'])
      expect(JSONP_CALLBACK_PATTERN.test(bad), bad).toBe(false);
  });

  it('wraps the answer in a call behind an empty comment, escaping line separators', () => {
    expect(jsonpScript('cb', { code: 200 })).toBe('/**/cb({"code":200});');
    expect(jsonpScript('cb', { m: 'a\u2028b\u2029c' })).toBe('/**/cb({"m":"a\\u2028b\\u2029c"});');
  });
});

describe('where the browser finds the lookup', () => {
  it('gives the built-in lookup as a path and needs no CSP addition', () => {
    // The default: a path, whatever PUBLIC_URL says.
    const byDefault = { publicUrl: 'http://localhost:3000', routingLookupUrl: '/routing-numbers/data.json' };
    expect(routingLookupUrlForBrowser(byDefault)).toBe('/routing-numbers/data.json');
    expect(routingLookupScriptSources(byDefault)).toEqual([]);
    // Named in full on PUBLIC_URL's origin: still the site's own, given as a path.
    const config = {
      publicUrl: 'http://localhost:3000',
      routingLookupUrl: 'http://localhost:3000/routing-numbers/data.json?v=2',
    };
    expect(routingLookupUrlForBrowser(config)).toBe('/routing-numbers/data.json?v=2');
    expect(routingLookupScriptSources(config)).toEqual([]);
  });

  it('gives another origin in full and allows that origin as a script source', () => {
    const config = {
      publicUrl: 'https://gs.example',
      routingLookupUrl: 'https://www.routingnumbers.info/api/data.json',
    };
    expect(routingLookupUrlForBrowser(config)).toBe('https://www.routingnumbers.info/api/data.json');
    expect(routingLookupScriptSources(config)).toEqual(['https://www.routingnumbers.info']);
    expect(
      routingLookupScriptSources({
        publicUrl: 'https://gs.example',
        routingLookupUrl: 'http://gs.example:8080/x.json',
      }),
    ).toEqual(['http://gs.example:8080']);
  });
});
