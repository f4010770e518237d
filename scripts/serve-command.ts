import path from 'node:path';

/** The project's root folder. */
const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The command that starts the real server the way `npm start` and `npm run start:prod` do:
 * `sh scripts/serve.sh [entry args…]`, with the Node binary running this process first on PATH
 * (so a test on Node 24 starts a Node 24 server). The tests, benchmarks and security scan spawn it
 * instead of writing out node's flags again (docs/operations.md "Build and start").
 * @param args the entry and its arguments; none for src/server/main.ts
 * @param env the child's environment (PATH is prefixed, the rest kept)
 * @returns what to pass to child_process.spawn: file, args and env
 */
export function serveCommand(
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): { file: string; args: string[]; env: NodeJS.ProcessEnv } {
  return {
    file: 'sh',
    args: [path.join(ROOT, 'scripts', 'serve.sh'), ...args],
    env: { ...env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}` },
  };
}
