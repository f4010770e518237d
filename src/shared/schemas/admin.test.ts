import { describe, expect, it } from 'vitest';
import { toFieldErrors } from '../validation.ts';
import { ADMIN_PER_PAGE, BANNER_KINDS, bannerSchema, checkbox, inboxQuery, pageQuery } from './admin.ts';

describe('checkbox', () => {
  it('reads what forms send', () => {
    for (const v of [true, 1, '1', 'true', 'on']) expect(checkbox.parse(v), String(v)).toBe(true);
    for (const v of [false, 0, '0', 'false', '', undefined, null, 'yes'])
      expect(checkbox.parse(v), String(v)).toBe(false);
  });
});

describe('bannerSchema (docs/requirements/behaviour.md Banner)', () => {
  it('has the two kinds', () => {
    expect(BANNER_KINDS).toEqual(['holiday-alert', 'urgent-alert']);
  });
  it('accepts a banner', () => {
    expect(bannerSchema.parse({ kind: 'urgent-alert', text: ' Filing deadline May 15 ', is_active: '1' })).toEqual({
      kind: 'urgent-alert',
      text: 'Filing deadline May 15',
      is_active: true,
    });
  });
  it('refuses a bad kind and empty or long text', () => {
    const r = bannerSchema.safeParse({ kind: 'info', text: '', is_active: 1 });
    expect(toFieldErrors(r.error!)).toEqual({
      kind: ['The selected kind is invalid.'],
      text: ['The text field is required.'],
    });
    const long = bannerSchema.safeParse({ kind: 'holiday-alert', text: 'x'.repeat(501) });
    expect(toFieldErrors(long.error!)).toEqual({ text: ['The text field must not be greater than 500 characters.'] });
  });
});

describe('inboxQuery and pageQuery', () => {
  it('reads the filters and the page', () => {
    const newestFirst = { column: 'created_at', desc: true };
    expect(inboxQuery.parse({ kind: 'contact', status: 'handled', page: '2' })).toEqual({
      kind: 'contact',
      status: 'handled',
      sort: newestFirst,
      page: 2,
    });
    expect(inboxQuery.parse({})).toEqual({ kind: undefined, status: undefined, sort: newestFirst, page: 1 });
    expect(inboxQuery.parse({ kind: '', status: '', search: ' ', sort: '', page: 'x' })).toEqual({
      kind: undefined,
      status: undefined,
      sort: newestFirst,
      page: 1,
    });
    expect(inboxQuery.parse({ search: ' Smith\u0000 ', sort: 'name' })).toMatchObject({
      search: 'Smith',
      sort: { column: 'name', desc: false },
    });
  });
  it('refuses an unknown kind', () => {
    const r = inboxQuery.safeParse({ kind: 'spam' });
    expect(toFieldErrors(r.error!)).toEqual({ kind: ['The selected kind is invalid.'] });
  });
  it('falls back to page 1 on a bad page', () => {
    for (const page of ['0', '-1', 'abc', '1e9']) expect(pageQuery.parse({ page }).page, page).toBe(1);
  });
  it('lists 25 a page', () => {
    expect(ADMIN_PER_PAGE).toBe(25);
  });
});
