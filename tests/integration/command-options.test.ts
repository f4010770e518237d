import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { npmRun } from '../helpers/commands.ts';

/**
 * The `npm run` commands of docs/operations.md answer a wrong option the way a person can act on:
 * what is wrong and the usage line, exit 2, no stack trace; `--help` prints the usage and exits 0.
 * Neither touches a database (DATA_DIR points at a folder that is never created).
 */
const COMMANDS = [
  { script: 'db:migrate', usage: 'Usage: npm run db:migrate' },
  { script: 'db:backup', usage: 'Usage: npm run db:backup [-- --out FILE]' },
  { script: 'db:restore', usage: 'Usage: npm run db:restore -- --from FILE' },
  { script: 'seed:scale', usage: 'Usage: npm run seed:scale -- [--accounts N] [--force] [--allow-embedded]' },
  {
    script: 'admin:create',
    usage: 'Usage: npm run admin:create -- --email someone@example.org [--first-name Avery] [--last-name Admin]',
  },
  { script: 'import:bmf', usage: 'Usage: npm run import:bmf -- FILE.csv [MORE.csv ...] [--gen NNNN]' },
  {
    script: 'import:irs',
    usage:
      'Usage: npm run import:irs -- --dataset bmf|epostcard|revocations|pub78 --released YYYY-MM-DD|YYYY-MM FILE [MORE ...] [--gen NNNN]',
  },
];

const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? os.tmpdir(),
  DATA_DIR: `${os.tmpdir()}/gs-command-options-never-created`,
};

describe('npm run commands with a wrong option or --help', () => {
  it.each(COMMANDS)(
    '$script names the unknown option, shows its usage and exits 2',
    async ({ script, usage }) => {
      const result = await npmRun(script, ['--colour', 'blue'], env, { timeoutMs: 60_000 });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("Unknown option '--colour'");
      expect(result.stderr).toContain(usage);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    },
    60_000,
  );

  it.each(COMMANDS)(
    '$script --help prints its usage and exits 0',
    async ({ script, usage }) => {
      const result = await npmRun(script, ['--help'], env, { timeoutMs: 60_000 });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout.trim()).toBe(usage);
    },
    60_000,
  );
});
