/**
 * The server process the load benches measure, started by bench/lib/server-process.ts:
 *
 *   node --import tsx bench/server.ts full|bare [--schema NAME]
 *
 * - `full`: the whole product as `src/server/main.ts` serves it (buildApp: every plugin and module,
 *   pino JSON logs on stdout at LOG_LEVEL), configured from the environment by loadConfig. It skips
 *   main.ts's first-start seeding and background jobs (the bench prepares the database itself) and
 *   can use a private PostgreSQL schema, so bench runs never touch the server's public schema.
 * - `bare`: Fastify with no plugins and one route, POST /contact, doing the same write as the
 *   product's contact form (createInquiry) with no session, CSRF, validation, rate limit, helmet or
 *   logging: the baseline of docs/requirements/platform.md §6's ratio. Same process model, same database client.
 *
 * Both open the database the product's way (PGlite in $DATA_DIR/db, or DATABASE_URL), apply the
 * migrations, listen on HOST:PORT and then send `{ ready: true }` on the IPC channel. SIGTERM
 * closes the server and the database and exits 0 (so `--cpu-prof` writes its profile).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { collectStartupGarbage } from '../src/server/memory.ts';
import { createInquiry } from '../src/server/modules/inquiries/create-inquiry.ts';

/** The bare baseline: one route, the same createInquiry write as POST /contact of the product. */
function bareApp(database: Database, publicUrl: string): FastifyInstance {
  const app = Fastify({ logger: false });
  const mail = { staffEmail: 'staff@goodstanding.local', companyName: 'GoodStanding', publicUrl };
  app.post('/contact', async (req, reply) => {
    const b = req.body as Record<string, string>;
    const id = await createInquiry(
      database.db,
      'contact',
      {
        name: b.name,
        email: b.email,
        organization: b.organization,
        details: { subject: b.subject, message: b.message },
      },
      req.ip,
      mail,
    );
    return reply.status(201).send({ id, message: "Your message has been received. We'll get back with you shortly." });
  });
  return app;
}

async function main() {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { schema: { type: 'string' } } });
  const mode = positionals[0];
  if (mode !== 'full' && mode !== 'bare') throw new Error('usage: bench/server.ts full|bare [--schema NAME]');
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    poolSize: config.databasePoolSize,
    pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
    schemaName: values.schema,
  });
  await database.migrate();
  const app = mode === 'full' ? await buildApp(config, { database }) : bareApp(database, config.publicUrl);
  collectStartupGarbage();
  await app.listen({ host: config.host, port: config.port });

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          console.error('bench server: shutdown failed', err);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', shutdown);
  // The bench that started this process is gone (it crashed or was interrupted): do not linger.
  process.on('disconnect', shutdown);
  process.send?.({ ready: true });
}

main().catch((err: unknown) => {
  console.error('bench server could not start:', err);
  process.exit(1);
});
