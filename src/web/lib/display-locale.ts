/**
 * The display language for dates, chosen at start. Kept apart from the date formatting
 * (src/web/lib/locale.ts) so that choosing it loads no date library: an English page carries
 * neither dayjs nor a locale until a screen formats a date (docs/ARCHITECTURE.md "Initial JavaScript").
 */

/**
 * Display languages for dates that have a dayjs locale (the keys of src/web/lib/date-locales.ts,
 * which loads them; a unit test keeps the two lists equal). English pages load neither.
 */
export const DATE_LANGUAGES = [
  'es',
  'fr',
  'de',
  'pt',
  'pt-br',
  'it',
  'vi',
  'ko',
  'ja',
  'zh-cn',
  'zh-tw',
  'tl',
  'ru',
  'ar',
  'pl',
  'nl',
];
const DAYJS_NAME: Record<string, string> = { tl: 'tl-ph' };

let current = 'en';

/** The dayjs name of the display language ('en' until {@link loadDisplayLocale} found another). */
export const displayLocale = () => current;

/**
 * Picks the first of the browser's languages that has a dayjs locale and loads it; English
 * otherwise. Call once at start; dates formatted afterwards use it.
 * @returns the dayjs name of the chosen language
 */
export async function loadDisplayLocale(
  languages: readonly string[] = navigator.languages ?? [navigator.language],
): Promise<string> {
  for (const lang of languages.map((l) => l.toLowerCase())) {
    const key = DATE_LANGUAGES.includes(lang)
      ? lang
      : DATE_LANGUAGES.includes(lang.split('-')[0])
        ? lang.split('-')[0]
        : null;
    if (lang.startsWith('en')) return (current = 'en');
    if (key) {
      try {
        const { DATE_LOCALE_LOADERS } = await import('./date-locales.ts');
        await DATE_LOCALE_LOADERS[key]();
        return (current = DAYJS_NAME[key] ?? key);
      } catch {
        return (current = 'en');
      }
    }
  }
  return (current = 'en');
}
