import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/ARCHITECTURE.md "Local peers": production code never imports the local stand-ins of outside
 * services. Every static import reachable from the server's entry points (the server, its command
 * line tools, the server render) is followed; none may lead into src/server/local-peers/. The app
 * loads the gateway peer with a dynamic import(), only when PAYMENT_GATEWAY=simulator.
 */

const root = path.resolve(import.meta.dirname, '../..');
const PEERS = path.join(root, 'src/server/local-peers') + path.sep;
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]/gm;

/** Files reachable by static imports from `entries`, with the chain that reached each. */
function reachable(entries: string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue: [string, string[]][] = entries.map((e) => [e, [path.relative(root, e)]]);
  while (queue.length) {
    const [file, chain] = queue.shift()!;
    if (seen.has(file)) continue;
    seen.set(file, chain);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      queue.push([target, [...chain, path.relative(root, target)]]);
    }
  }
  return seen;
}

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
