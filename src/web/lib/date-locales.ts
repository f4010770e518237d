/**
 * The dayjs locales of the display languages, each a chunk of its own. This table is itself a
 * chunk, loaded only when the browser asks for one of these languages (src/web/lib/display-locale.ts):
 * its import list would otherwise be part of every page's initial JavaScript (docs/ARCHITECTURE.md
 * "Initial JavaScript").
 */
export const DATE_LOCALE_LOADERS: Record<string, () => Promise<unknown>> = {
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
