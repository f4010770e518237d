import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The build writes a source map beside each script (vite.config.ts); production does not serve
 * them (docs/security.md "Production settings"), development does. The scripts themselves are
 * served in both.
 */

let distDir: string;
let production: TestApp;
let development: TestApp;

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-dist-'));
  fs.mkdirSync(path.join(distDir, 'assets'));
  fs.writeFileSync(
    path.join(distDir, 'assets', 'index-AbC123.js'),
    'console.log(1);\n//# sourceMappingURL=index-AbC123.js.map\n',
  );
  fs.writeFileSync(
    path.join(distDir, 'assets', 'index-AbC123.js.map'),
    '{"version":3,"sources":["../../src/web/main.tsx"],"sourcesContent":["// the source"]}',
  );
  fs.writeFileSync(path.join(distDir, 'assets', 'index-AbC123.css.map'), '{"version":3}');
  production = await createTestApp({ config: { env: 'production', webDistDir: distDir } });
  development = await createTestApp({ config: { env: 'development', webDistDir: distDir } });
});
afterAll(async () => {
  await production?.close();
  await development?.close();
  if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
});

const get = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url });

describe('source maps', () => {
  it('are not served in production, in any spelling', async () => {
    for (const url of [
      '/assets/index-AbC123.js.map',
      '/assets/index-AbC123.css.map',
      '/assets/index-AbC123.JS.MAP',
      '/assets/index-AbC123.js.%6Dap',
      '/assets/./index-AbC123.js.map',
    ]) {
      const res = await get(production, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('sourcesContent');
    }
    const script = await get(production, '/assets/index-AbC123.js');
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('console.log(1);');
  });

  it('are served in development', async () => {
    const res = await get(development, '/assets/index-AbC123.js.map');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ version: 3 });
  });
});
