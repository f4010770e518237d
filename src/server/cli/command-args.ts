import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * The options of an `npm run` command (docs/operations.md): `--help` or `-h` prints `usage` on
 * stdout and exits 0; an unknown, misspelt or valueless option prints what is wrong and `usage` on
 * stderr and exits 2, never a stack trace.
 * @param config node:util parseArgs's config (options, allowPositionals; strict by default)
 * @param usage the command's usage line, e.g. 'Usage: npm run db:backup -- [--out FILE]'
 * @returns parseArgs's values and positionals
 */
export function commandArgs<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs<T>(config);
  } catch (err) {
    if (err instanceof TypeError && String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      console.error(`${err.message}\n${usage}`);
      process.exit(2);
    }
    throw err;
  }
}
