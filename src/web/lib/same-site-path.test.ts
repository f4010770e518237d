import { describe, expect, it } from 'vitest';
import { sameSitePath } from './same-site-path.ts';

const origin = 'https://goodstanding.example';

describe('sameSitePath', () => {
  it('keeps a page of the site with its query and fragment', () => {
    expect(sameSitePath('/account', origin)).toBe('/account');
    expect(sameSitePath('/app/payments?invoice=3#card', origin)).toBe('/app/payments?invoice=3#card');
    expect(sameSitePath('/admin/accounts/show/%2F%2Fevil.example', origin)).toBe(
      '/admin/accounts/show/%2F%2Fevil.example',
    );
  });

  it('refuses addresses that a browser would take to another host', () => {
    for (const value of [
      '//evil.example',
      '/\\evil.example',
      '/\\/evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example/account',
      'javascript:alert(1)',
      'account',
    ]) {
      expect(sameSitePath(value, origin), JSON.stringify(value)).toBeNull();
    }
  });

  it('refuses anything that is not text', () => {
    for (const value of [null, undefined, '', 42, ['/account']]) expect(sameSitePath(value, origin)).toBeNull();
  });
});
