import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toFieldErrors } from '../validation.ts';
import { listCountCap, listSearch, listSort, sortParam } from './list-params.ts';

/** The staff lists' search and sort parameters (docs/benchmarks.md "Staff lists at scale"). */
describe('listSort', () => {
  const query = z.object({ sort: listSort(['name', 'created_at'], '-created_at') });

  it('reads a column with its direction, and the default when empty', () => {
    expect(query.parse({ sort: 'name' }).sort).toEqual({ column: 'name', desc: false });
    expect(query.parse({ sort: '-name' }).sort).toEqual({ column: 'name', desc: true });
    expect(query.parse({}).sort).toEqual({ column: 'created_at', desc: true });
    expect(query.parse({ sort: '' }).sort).toEqual({ column: 'created_at', desc: true });
    expect(sortParam(query.parse({ sort: '-name' }).sort)).toBe('-name');
  });

  it('refuses anything else, naming what is allowed', () => {
    for (const sort of ['email', '--name', 'name desc', ['name', 'created_at'], 5]) {
      const r = query.safeParse({ sort });
      expect(r.success, String(sort)).toBe(false);
      expect(toFieldErrors(r.error!)).toEqual({
        sort: ['The sort must be one of: name, -name, created_at, -created_at.'],
      });
    }
  });
});

describe('listSearch and listCountCap', () => {
  const query = z.object({ search: listSearch });

  it('trims the search, drops control characters and treats empty as none', () => {
    expect(query.parse({ search: '  eagles \u0007' }).search).toBe('eagles');
    expect(query.parse({ search: '   ' }).search).toBeUndefined();
    expect(toFieldErrors(query.safeParse({ search: 'x'.repeat(101) }).error!)).toEqual({
      search: ['The search may not be greater than 100 characters.'],
    });
  });

  it('counts four pages past the current one', () => {
    expect(listCountCap(1, 25)).toBe(125);
    expect(listCountCap(3, 20)).toBe(140);
  });
});
