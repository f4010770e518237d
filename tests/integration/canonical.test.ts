import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** Public pages name their one canonical address (for search engines and the SEO check). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('canonical link', () => {
  it("is the public page's own address without its query; pages with parameters, 404s and sign-in pages have none", async () => {
    const base = t.config.publicUrl.replace(/\/$/, '');
    const page = await t.app.inject({ method: 'GET', url: '/irs-form-990?utm_source=mail' });
    expect(page.body).toContain(`<link rel="canonical" href="${base}/irs-form-990" />`);
    const login = await t.app.inject({ method: 'GET', url: '/login?next=%2Faccount' });
    expect(login.body).toContain(`<link rel="canonical" href="${base}/login" />`);
    for (const url of ['/bylaws-generator/edit/abc', '/no-such-page', '/admin']) {
      expect((await t.app.inject({ method: 'GET', url })).body, url).not.toContain('rel="canonical"');
    }
  });
});
