import fs from 'node:fs';
import { limitSettingsAt } from '../../../src/server/modules/limits/limit-rules.ts';
import { startProductServer, type ProductServer } from './product-server.ts';
import type { TestProject } from 'vitest/node';

/** Credentials the e2e server is started with (chosen by the operator, as ADMIN_PASSWORD allows). */
export const E2E_USERS = {
  admin: { email: 'admin@e2e.test', password: 'Adm1n-e2e-Pass' },
  holder: { email: 'holder@e2e.test', password: 'H0lder-e2e-Pass' },
};

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let server: ProductServer | undefined;

/**
 * Starts the real product once for all browser tests (startProductServer): `src/server/main.ts` on
 * a free port with a fresh data directory and the demo seed, exactly as `npm start` runs it, with
 * its default settings (development mode, no PUBLIC_URL: the site must work at whichever address
 * the browser opens it, docs/security.md "Same origin"), the sign-ins above, and the rate and abuse
 * limits out of reach (tests/e2e/abuse-limits.test.ts starts a server of its own at the defaults).
 * The web client must be built: `npm run test:e2e` builds it first.
 */
export async function setup(project: TestProject) {
  if (!fs.existsSync('dist/web/index.html')) throw new Error('Build the web client first: npm run build');
  server = await startProductServer({
    ADMIN_EMAIL: E2E_USERS.admin.email,
    ADMIN_PASSWORD: E2E_USERS.admin.password,
    DEMO_EMAIL: E2E_USERS.holder.email,
    DEMO_PASSWORD: E2E_USERS.holder.password,
    RATE_LIMIT_FORMS_PER_MINUTE: '1000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    ...limitSettingsAt(100_000),
  });
  project.provide('baseUrl', server.baseUrl);
}

export async function teardown() {
  await server?.stop();
}
