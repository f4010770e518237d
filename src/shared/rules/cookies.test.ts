import { describe, expect, it } from 'vitest';
import { BANNER_COOKIE_DAYS, bannerCookieName, RATING_COOKIE_DAYS, ratingCookieName, textKey } from './cookies.ts';

const cookieNameOk = (name: string) => /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name);

describe('cookie lifetimes (docs/requirements/constants.md)', () => {
  it('remembers a dismissed banner for 1 day and a rating for 7 days', () => {
    expect(BANNER_COOKIE_DAYS).toBe(1);
    expect(RATING_COOKIE_DAYS).toBe(7);
  });
});

describe('textKey', () => {
  it('is stable and differs for different texts', () => {
    expect(textKey('Closed for the holidays')).toBe(textKey('Closed for the holidays'));
    expect(textKey('Closed for the holidays')).not.toBe(textKey('Closed for the holidays!'));
    expect(textKey('a')).not.toBe(textKey('b'));
    expect(textKey('')).toBe((0x811c9dc5).toString(36));
  });

  it('is short base36', () => {
    for (const t of ['', 'x', 'A much longer banner text with émojis 🎉 and <html>'.repeat(20)]) {
      expect(textKey(t)).toMatch(/^[0-9a-z]{1,7}$/);
    }
  });
});

describe('bannerCookieName: keyed on the banner text (docs/requirements/behaviour.md)', () => {
  it('gives one name per text, valid as a cookie name', () => {
    const a = bannerCookieName('Our office is closed Dec 24-26.');
    const b = bannerCookieName('URGENT: 990-N filings are due May 15!');
    expect(a).toMatch(/^banner_dismissed_[0-9a-z]+$/);
    expect(a).not.toBe(b);
    expect(bannerCookieName('Our office is closed Dec 24-26.')).toBe(a);
    expect(cookieNameOk(a) && cookieNameOk(b)).toBe(true);
  });

  it('changes when the text is edited, so an edited banner shows again', () => {
    expect(bannerCookieName('Closed Monday')).not.toBe(bannerCookieName('Closed Tuesday'));
  });
});

describe('ratingCookieName: keyed on the page path (docs/requirements/behaviour.md)', () => {
  it("is the path's hash: letters and digits only, which no cookie library encodes again", () => {
    expect(ratingCookieName('/pricing')).toBe(`rated_${textKey('/pricing')}`);
    for (const n of ['/pricing', '/irs-form-990?x=1&y=2', '/é'].map(ratingCookieName)) {
      expect(n).toMatch(/^rated_[0-9a-z]+$/);
      expect(encodeURIComponent(n)).toBe(n);
    }
  });

  it('gives different names for different pages, each a valid cookie name', () => {
    const names = ['/pricing', '/privacy', '/state-registration', '/a b', '/é'].map(ratingCookieName);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(cookieNameOk(n), n).toBe(true);
  });
});
