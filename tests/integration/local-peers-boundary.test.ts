import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATIC_IMPORT, staticImports } from '../helpers/static-imports.ts';

/**
 * docs/ARCHITECTURE.md "Local peers": production code never imports the local stand-ins of outside
 * services. Every static import reachable from the server's entry points (the server, its command
 * line tools, the server render) is followed; none may lead into src/server/local-peers/. The app
 * loads the gateway peer with a dynamic import(), only when PAYMENT_GATEWAY=simulator.
 */

const root = path.resolve(import.meta.dirname, '../..');
const PEERS = path.join(root, 'src/server/local-peers') + path.sep;
const reachable = (entries: string[]) => staticImports(root, entries).files;

describe('local peers stay out of production code', () => {
  const entries = [
    'src/server/main.ts',
    'src/web/entry-server.tsx',
    'src/web/main.tsx',
    ...readdirSync(path.join(root, 'src/server/cli'))
      .filter((f) => f.endsWith('.ts') && !f.includes('.test.'))
      .map((f) => `src/server/cli/${f}`),
  ].map((f) => path.join(root, f));

  it('follows the imports of every entry point', () => {
    const files = reachable(entries);
    expect(files.size).toBeGreaterThan(200);
    expect(files.has(path.join(root, 'src/server/app.ts'))).toBe(true);
    expect(files.has(path.join(root, 'src/server/providers/payments/authorize-net.ts'))).toBe(true);
  });

  it('reaches no file of src/server/local-peers/', () => {
    const leaks = [...reachable(entries)]
      .filter(([file]) => file.startsWith(PEERS))
      .map(([, chain]) => chain.join(' → '));
    expect(leaks).toEqual([]);
  });

  it('would notice a static import of the gateway peer', () => {
    const app = readFileSync(path.join(root, 'src/server/app.ts'), 'utf8');
    expect(app).toContain("await import('./local-peers/gateway-simulator.ts')");
    expect(
      [...`import { gatewaySimulator } from './local-peers/gateway-simulator.ts';`.matchAll(STATIC_IMPORT)].map(
        (m) => m[1],
      ),
    ).toEqual(['./local-peers/gateway-simulator.ts']);
  });
});
