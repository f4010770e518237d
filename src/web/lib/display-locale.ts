/**
 * The display language for dates, chosen at start. Kept apart from the date formatting
 * (src/web/lib/locale.ts) so that choosing it loads no date library: an English page carries
 * neither dayjs nor a locale until a screen formats a date (docs/ARCHITECTURE.md "Initial JavaScript").
 */

/** Display languages for dates (dayjs locales), loaded on demand so English pages carry none. */
const LOADERS: Record<string, () => Promise<unknown>> = {
  es: () => import('dayjs/locale/es.js'),
  fr: () => import('dayjs/locale/fr.js'),
  de: () => import('dayjs/locale/de.js'),
  pt: () => import('dayjs/locale/pt.js'),
  'pt-br': () => import('dayjs/locale/pt-br.js'),
  it: () => import('dayjs/locale/it.js'),
  vi: () => import('dayjs/locale/vi.js'),
  ko: () => import('dayjs/locale/ko.js'),
  ja: () => import('dayjs/locale/ja.js'),
  'zh-cn': () => import('dayjs/locale/zh-cn.js'),
  'zh-tw': () => import('dayjs/locale/zh-tw.js'),
  tl: () => import('dayjs/locale/tl-ph.js'),
  ru: () => import('dayjs/locale/ru.js'),
  ar: () => import('dayjs/locale/ar.js'),
  pl: () => import('dayjs/locale/pl.js'),
  nl: () => import('dayjs/locale/nl.js'),
};
const DAYJS_NAME: Record<string, string> = { tl: 'tl-ph' };

let current = 'en';

/** The dayjs name of the display language ('en' until {@link loadDisplayLocale} found another). */
export const displayLocale = () => current;

/**
 * Picks the first of the browser's languages that has a dayjs locale and loads it; English
 * otherwise. Call once at start; dates formatted afterwards use it.
 * @returns the dayjs name of the chosen language
 */
export async function loadDisplayLocale(languages: readonly string[] = navigator.languages ?? [navigator.language]): Promise<string> {
  for (const lang of languages.map((l) => l.toLowerCase())) {
    const key = LOADERS[lang] ? lang : LOADERS[lang.split('-')[0]] ? lang.split('-')[0] : null;
    if (lang.startsWith('en')) return (current = 'en');
    if (key) {
      try {
        await LOADERS[key]();
        return (current = DAYJS_NAME[key] ?? key);
      } catch {
        return (current = 'en');
      }
    }
  }
  return (current = 'en');
}
