import { describe, expect, it } from 'vitest';
import { DATE_LOCALE_LOADERS } from './date-locales.ts';
import { DATE_LANGUAGES, displayLocale, loadDisplayLocale } from './display-locale.ts';

describe('display language for dates', () => {
  it('lists exactly the languages whose dayjs locale it can load', () => {
    expect([...DATE_LANGUAGES].sort()).toEqual(Object.keys(DATE_LOCALE_LOADERS).sort());
  });

  it('takes the first browser language with a dayjs locale, by its region or its base language', async () => {
    expect(await loadDisplayLocale(['xx', 'fr-CA', 'de'])).toBe('fr');
    expect(displayLocale()).toBe('fr');
    expect(await loadDisplayLocale(['zh-TW'])).toBe('zh-tw');
    expect(await loadDisplayLocale(['tl'])).toBe('tl-ph');
  });

  it('stays English when English comes first or no language has a locale', async () => {
    expect(await loadDisplayLocale(['en-GB', 'fr'])).toBe('en');
    expect(await loadDisplayLocale(['xx'])).toBe('en');
    expect(displayLocale()).toBe('en');
  });
});
