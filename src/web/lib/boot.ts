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

/** The data the server embedded in the page (src/server/modules/pages). Read once. */
export const boot: BootData = (() => {
  const el = document.getElementById('boot-data');
  if (!el?.textContent) return EMPTY;
  try {
    return { ...EMPTY, ...(JSON.parse(el.textContent) as BootData) };
  } catch {
    return EMPTY;
  }
})();
