import { describe, expect, it } from 'vitest';
import { buildPage, FALLBACK_PER_PAGE, isPaginationShown, PAGINATION_SIBLINGS, pageWindow } from './pagination.ts';

describe('constants (docs/requirements/constants.md)', () => {
  it('shows 3 pages either side and falls back to 2 per page', () => {
    expect(PAGINATION_SIBLINGS).toBe(3);
    expect(FALLBACK_PER_PAGE).toBe(2);
  });
});

describe('isPaginationShown: only when the total exceeds per_page', () => {
  it.each([
    [0, 15, false],
    [1, 15, false],
    [15, 15, false],
    [16, 15, true],
    [1000, 15, true],
    // No page size: the fallback of 2 applies.
    [2, 0, false],
    [3, 0, true],
  ])('total %i, per_page %i -> %s', (total, perPage, shown) => {
    expect(isPaginationShown({ total, per_page: perPage })).toBe(shown);
  });
});

describe('pageWindow: first, last, 3 either side, dots in the gaps', () => {
  it.each([
    [1, 1, [1]],
    [1, 2, [1, 2]],
    [1, 5, [1, 2, 3, 4, 5]],
    [4, 8, [1, 2, 3, 4, 5, 6, 7, 8]],
    [1, 9, [1, 2, 3, 4, 'dots', 9]],
    [5, 9, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [10, 20, [1, 'dots', 7, 8, 9, 10, 11, 12, 13, 'dots', 20]],
    [20, 20, [1, 'dots', 17, 18, 19, 20]],
    [5, 20, [1, 2, 3, 4, 5, 6, 7, 8, 'dots', 20]],
    [6, 20, [1, 'dots', 3, 4, 5, 6, 7, 8, 9, 'dots', 20]],
    [16, 20, [1, 'dots', 13, 14, 15, 16, 17, 18, 19, 20]],
    [50, 100, [1, 'dots', 47, 48, 49, 50, 51, 52, 53, 'dots', 100]],
  ] as const)('page %i of %i', (current, last, expected) => {
    expect(pageWindow(current, last)).toEqual(expected);
  });

  it('never shows more than 7 neighbours plus first and last', () => {
    for (let last = 1; last <= 40; last++) {
      for (let current = 1; current <= last; current++) {
        const w = pageWindow(current, last);
        const numbers = w.filter((p): p is number => p !== 'dots');
        expect(numbers[0]).toBe(1);
        expect(numbers[numbers.length - 1]).toBe(last);
        expect(numbers).toContain(current);
        expect(numbers.length).toBeLessThanOrEqual(9);
        // Strictly increasing, and dots only where a page is skipped.
        for (let i = 1; i < w.length; i++) {
          const prev = w[i - 1];
          const cur = w[i];
          if (cur === 'dots') {
            expect(prev).not.toBe('dots');
            expect((w[i + 1] as number) - (prev as number)).toBeGreaterThan(1);
          } else if (prev !== 'dots') {
            expect(cur - prev).toBe(1);
          }
        }
      }
    }
  });
});

describe('buildPage: the docs/requirements/entities.md page object', () => {
  const url = (p: number) => `/search?search=verify-501c3&keyword=x&page=${p}`;
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1 }));

  it('first of several pages', () => {
    expect(buildPage(rows(15), 1, 15, 40, url)).toEqual({
      current_page: 1,
      data: rows(15),
      from: 1,
      to: 15,
      last_page: 3,
      per_page: 15,
      total: 40,
      next_page_url: url(2),
      prev_page_url: null,
    });
  });

  it('a middle page links both ways', () => {
    const p = buildPage(rows(15), 2, 15, 40, url);
    expect([p.from, p.to, p.last_page]).toEqual([16, 30, 3]);
    expect(p.next_page_url).toBe(url(3));
    expect(p.prev_page_url).toBe(url(1));
  });

  it('the last, partial page', () => {
    const p = buildPage(rows(10), 3, 15, 40, url);
    expect([p.from, p.to]).toEqual([31, 40]);
    expect(p.next_page_url).toBeNull();
    expect(p.prev_page_url).toBe(url(2));
  });

  it('an exact multiple ends on a full page', () => {
    const p = buildPage(rows(15), 2, 15, 30, url);
    expect([p.from, p.to, p.last_page, p.next_page_url]).toEqual([16, 30, 2, null]);
  });

  it('no results: one empty page, no links', () => {
    expect(buildPage([], 1, 15, 0, url)).toEqual({
      current_page: 1,
      data: [],
      from: null,
      to: null,
      last_page: 1,
      per_page: 15,
      total: 0,
      next_page_url: null,
      prev_page_url: null,
    });
  });

  it('a page past the end is empty, keeps the totals and links back to the last page', () => {
    const p = buildPage([], 9, 15, 40, url);
    expect(p).toMatchObject({
      current_page: 9,
      data: [],
      from: null,
      to: null,
      last_page: 3,
      total: 40,
      next_page_url: null,
    });
    expect(p.prev_page_url).toBe(url(3));
  });
});
