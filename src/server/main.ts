import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';
import { buildApp, shutdownWaitMs } from './app.ts';
import { prepareDatabase, startupLines } from './startup.ts';

/**
 * Reads config (with NODE_ENV=production it refuses the local stand-ins and weak settings, naming
 * each: docs/deploy.md "Production settings"), migrates, seeds on first start, listens, and shuts
 * down gracefully on SIGINT/SIGTERM.
 */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    poolSize: config.databasePoolSize,
  });
  // Several servers may start at once on one PostgreSQL database: one migrates and seeds, the
  // others wait for it and find an installation that is no longer new.
  const report = await prepareDatabase(database, config);

  const app = await buildApp(config, { database });
  // Every scheduled job (docs/jobs.md): the level wizards are refreshed before the first request.
  await app.jobs.start();
  await app.listen({ host: config.host, port: config.port });

  console.log(startupLines(config, report).join('\n') + '\n');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Past the wait for requests still being handled (app.ts), something hangs: exit anyway.
    const force = setTimeout(() => process.exit(1), shutdownWaitMs(config) + 10_000);
    force.unref();
    try {
      // Stops the jobs' schedule and waits for their runs (docs/jobs.md "Shutdown"), then requests.
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
  } else {
    console.error('GoodStanding could not start:', err);
  }
  process.exit(1);
});
