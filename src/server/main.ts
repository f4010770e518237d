import path from 'node:path';
import { buildApp, shutdownWaitMs } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { answerBackupRequests } from './db/backup.ts';
import { openDatabase, StartupLockTimeoutError } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';
import { collectStartupGarbage } from './memory.ts';
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
    pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
    timeouts: config.databaseTimeouts,
  });
  // Several servers may start at once on one PostgreSQL database: one migrates and seeds, the
  // others wait for it and find an installation that is no longer new.
  const report = await prepareDatabase(database, config);

  const app = await buildApp(config, { database });
  // Every scheduled job (docs/jobs.md): the level wizards are refreshed before the first request.
  await app.jobs.start();
  // Before listening: the collection holds this thread for tens of ms, which no request should wait for.
  collectStartupGarbage();
  await app.listen({ host: config.host, port: config.port });
  // npm run db:backup asks this process for a consistent dump of the embedded database.
  const stopAnsweringBackups = database.dump
    ? answerBackupRequests(path.join(config.dataDir, 'db'), database.dump, app.log)
    : () => undefined;

  console.log(startupLines(config, report).join('\n') + '\n');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Past the wait for requests still being handled (app.ts), something hangs: exit anyway, still
    // within the 10 s a service manager gives before SIGKILL (docs/operations.md "Stopping").
    const force = setTimeout(
      () => {
        console.error(`GoodStanding did not stop within ${shutdownWaitMs(config) + 1_500} ms; exiting anyway.`);
        process.exit(1);
      },
      shutdownWaitMs(config) + 1_500,
    );
    force.unref();
    let code = 0;
    stopAnsweringBackups();
    try {
      // Stops the jobs' schedule and waits for their runs (docs/jobs.md "Shutdown"), then requests.
      await app.close();
      await database.close();
      app.log.info({ signal }, 'stopped');
    } catch (err) {
      app.log.error({ err }, 'error while stopping');
      code = 1;
    } finally {
      process.exit(code);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof StartupLockTimeoutError) {
    console.error(err.message);
  } else {
    console.error('GoodStanding could not start:', err);
  }
  process.exit(1);
});
