import { describe, expect, it } from 'vitest';
import { SEARCH_PER_PAGE, subordinateSearchQuery } from './search.ts';

describe('subordinateSearchQuery (docs/requirements/calls.md: search=verify-501c3, keyword, page)', () => {
  it('parses a full query', () => {
    expect(subordinateSearchQuery.parse({ search: 'verify-501c3', keyword: ' Booster  ', page: '3' })).toEqual({
      search: 'verify-501c3',
      keyword: 'Booster',
      page: 3,
    });
  });

  it('defaults keyword to empty and page to 1', () => {
    expect(subordinateSearchQuery.parse({ search: 'verify-501c3' })).toEqual({
      search: 'verify-501c3',
      keyword: '',
      page: 1,
    });
  });

  it('turns a bad page into 1 and caps a huge one', () => {
    for (const page of ['0', '-2', 'abc', '1.5', '', '1\u0000']) {
      expect(subordinateSearchQuery.parse({ search: 'verify-501c3', page }).page, page).toBe(1);
    }
    expect(subordinateSearchQuery.parse({ search: 'verify-501c3', page: '999999999' }).page).toBe(100_000);
  });

  it('strips NUL bytes from the keyword and caps it at 100 characters', () => {
    expect(subordinateSearchQuery.parse({ search: 'verify-501c3', keyword: 'boo\u0000ster' }).keyword).toBe('booster');
    expect(subordinateSearchQuery.parse({ search: 'verify-501c3', keyword: 'x'.repeat(500) }).keyword).toHaveLength(
      100,
    );
    expect(subordinateSearchQuery.parse({ search: 'verify-501c3', keyword: ['a', 'b'] }).keyword).toBe('');
  });

  it('refuses a missing or different search', () => {
    for (const search of [undefined, '', 'verify', 'VERIFY-501C3']) {
      const r = subordinateSearchQuery.safeParse({ search, keyword: 'x' });
      expect(r.success, String(search)).toBe(false);
      expect(r.error!.issues[0]).toMatchObject({ path: ['search'], message: 'The selected search is invalid.' });
    }
  });

  it('shows 15 rows a page', () => {
    expect(SEARCH_PER_PAGE).toBe(15);
  });
});
