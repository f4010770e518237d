import type { BootData } from '../../shared/routes.ts';

const EMPTY: BootData = {
  csrfToken: '',
  user: null,
  company: { name: 'GoodStanding', phone: '', email: '' },
  banners: [],
  captchaSiteKey: null,
  routingLookupUrl: '/routing-numbers/data.json',
  status: 200,
};

/**
 * The data the server embedded in the page (src/server/modules/pages). Read once in the browser;
 * in the server's render (no document) it is set per page by {@link setServerBoot}.
 */
export const boot: BootData = (() => {
  if (typeof document === 'undefined') return { ...EMPTY };
  const el = document.getElementById('boot-data');
  if (!el?.textContent) return { ...EMPTY };
  try {
    return { ...EMPTY, ...(JSON.parse(el.textContent) as BootData) };
  } catch {
    return { ...EMPTY };
  }
})();

/**
 * Server render only (src/web/entry-server.tsx): makes `boot` the page's data. The render that
 * follows is synchronous, so concurrent requests cannot see each other's data.
 */
export function setServerBoot(data: BootData): void {
  for (const key of Object.keys(boot)) Reflect.deleteProperty(boot, key);
  Object.assign(boot, EMPTY, data);
}
