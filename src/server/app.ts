import { createHmac } from 'node:crypto';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { pino } from 'pino';
import { randomSecret, SIMULATOR_PREFIX } from './config.ts';
import { getOrCreateSetting } from './db/app-settings.ts';
import { sentryReporter, type ErrorReporter } from './error-reporting.ts';
import { featureRoutes } from './feature-routes.ts';
import { JOBS, type JobDefinition } from './jobs/definitions.ts';
import { registerJobMetrics } from './jobs/job-metrics.ts';
import { JobRunner, type JobRunnerOptions } from './jobs/runner.ts';
import { registerPaymentAlertMetrics } from './modules/admin-payments/payment-alert-metrics.ts';
import { PAGE_SCRIPT_LOADER_CSP_SOURCE } from './modules/pages/render-page.ts';
import { pageRoutes } from './modules/pages/routes.ts';
import { startWebDevServer } from './modules/pages/web-dev-server.ts';
import { routingLookupScriptSources } from './modules/routing-numbers/lookup.ts';
import { accessPlugin } from './plugins/access.ts';
import { apiDocsPlugin } from './plugins/api-docs.ts';
import { cacheControlPlugin } from './plugins/cache-control.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { answerFrameworkError, errorsPlugin } from './plugins/errors.ts';
import { waitForHandlersOnClose } from './plugins/handlers-in-flight.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { rateLimitsPlugin } from './plugins/rate-limits.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionPlugin } from './plugins/session.ts';
import { captchaOff, recaptchaVerifier, type CaptchaVerifier } from './providers/captcha/captcha.ts';
import { smtpTransport, type MailTransport } from './providers/mail/transport.ts';
import { authorizeNetGateway, type PaymentGateway } from './providers/payments/authorize-net.ts';
import { diskStorage, type FileStorage } from './providers/storage/storage.ts';
import { requestContextHooks, requestIdGenerator, requestIdMixin } from './request-context.ts';
import { OneLinePerRequest, serializeRequest } from './request-log.ts';
import { ShutdownBudget } from './shutdown-budget.ts';
import type { AppConfig } from './config.ts';
import type { Database, Db } from './db/client.ts';

/**
 * Origins the real Accept.js needs on the billing page (its script, and the Authorize.Net API it
 * posts card data to); none with the simulator, which the site serves itself.
 */
function tokenizerSources(config: AppConfig): string[] {
  if (config.payments.gateway !== 'authorize-net') return [];
  return [...new Set([new URL(config.payments.acceptJsUrl).origin, new URL(config.payments.endpoint).origin])];
}

export interface Providers {
  captcha: CaptchaVerifier;
  /** Undefined when no SMTP server is configured: mails stay in the outbox. */
  mail?: MailTransport;
  /** Uploaded bytes: disk under config.storage.dir, or the S3 bucket of config.storage.s3. */
  storage: FileStorage;
  /**
   * Card and bank (eCheck) charges: the Authorize.Net client pointed at config.payments.endpoint
   * (the real gateway, or this app's own gateway simulator). Tests pass a client pointed at a
   * simulator listening on a real port, since app.inject() does not listen.
   */
  payments: PaymentGateway;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    db: Db;
    /** What app.close() may still wait for jobs and requests (SHUTDOWN_TIMEOUT_MS, shared). */
    shutdownBudget: ShutdownBudget;
    providers: Providers;
    /** The scheduled jobs of docs/jobs.md; `main.ts` starts their schedule, staff run them now. */
    jobs: JobRunner;
  }
}

export interface BuildOptions {
  database: Database;
  /** Replace providers (tests point them at local peers). */
  providers?: Partial<Providers>;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read what is logged). */
  logStream?: { write(line: string): void };
  /** Called for every route as it is added (tests take the route inventory from it). */
  onRoute?: (route: RouteOptions) => void;
  /** Where unexpected errors are reported; by default Sentry when config.sentryDsn is set. */
  reporter?: ErrorReporter;
  /** The jobs instead of src/server/jobs/definitions.ts's (tests give jobs of their own). */
  jobs?: JobDefinition[];
  jobRunner?: JobRunnerOptions;
}

/** Picks each outside service's adapter from config, with local defaults that need no network. */
async function providersFromConfig(config: AppConfig): Promise<Providers> {
  return {
    captcha: config.captcha.secret
      ? recaptchaVerifier({
          secret: config.captcha.secret,
          verifyUrl: config.captcha.verifyUrl,
          minScore: config.captcha.minScore,
        })
      : captchaOff,
    mail: config.mail.smtpUrl ? smtpTransport(config.mail.smtpUrl) : undefined,
    storage: await storageFromConfig(config.storage),
    payments: authorizeNetGateway({
      endpoint: config.payments.endpoint,
      apiLoginId: config.payments.apiLoginId,
      transactionKey: config.payments.transactionKey,
      timeoutMs: config.payments.timeoutMs,
    }),
  };
}

/**
 * Disk under `dir`, or the S3 bucket when STORAGE_DRIVER=s3 (several servers sharing uploads). The
 * AWS SDK is loaded only then: about 15 MB that a server on disk storage does not hold
 * (docs/operations.md "Memory").
 */
async function storageFromConfig(storage: AppConfig['storage']): Promise<FileStorage> {
  if (storage.driver === 'disk') return diskStorage(storage.dir);
  if (!storage.s3) throw new Error('config.storage.s3 is required when the storage driver is s3');
  const { s3Storage } = await import('./providers/storage/s3-storage.ts');
  return s3Storage(storage.s3);
}

/**
 * How long `app.close()` waits for the route handlers still running, in ms: SHUTDOWN_TIMEOUT_MS
 * (default 8 s, docs/operations.md "Stopping"). A card charge still at the gateway past it stays
 * pending with its invoices held, and the reconciliation settles it from the gateway's record.
 */
export const shutdownWaitMs = (config: AppConfig) => config.shutdownTimeoutMs;

/**
 * Builds the Fastify app: plugins, then providers, then feature modules (docs/requirements/platform.md §2). Does not
 * listen; tests call `app.inject()`. The database must already be migrated.
 */
export async function buildApp(config: AppConfig, opts: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: [
              'req.headers.cookie',
              'req.headers["x-csrf-token"]',
              'req.headers.authorization',
              'res.headers["set-cookie"]',
            ],
            // Addresses are logged with their tokens redacted (docs/security.md "Logs").
            serializers: { req: serializeRequest },
            // Lines logged through app.log during a request carry its id too (docs/deploy.md "Observability").
            mixin: requestIdMixin,
            // Lines go out asynchronously, several per write under load, instead of one blocking write
            // each (a sixth of the product's extra CPU per form submit, docs/benchmarks.md); pino flushes
            // what is left when the process exits.
            stream: opts.logStream ?? pino.destination({ dest: 1, sync: false }),
          },
    logController: new OneLinePerRequest(),
    bodyLimit: 2 * 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    // Only the proxies TRUST_PROXY names may set the client address (X-Forwarded-For) or the request id.
    trustProxy: config.trustProxy,
    genReqId: requestIdGenerator(config.trustProxy),
    // docs/deploy.md "Timeouts": a client gets this long to send its whole request; idle keep-alive
    // connections are kept past the balancer's idle timeout, so the balancer closes them first.
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
  });

  // Before any plugin, so no route is added unseen.
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  const shutdownBudget = new ShutdownBudget(shutdownWaitMs(config));
  app.decorate('shutdownBudget', shutdownBudget);
  waitForHandlersOnClose(app, { timeoutMs: () => shutdownBudget.remainingMs() });
  app.decorate('config', config);
  app.decorate('db', opts.database.db);
  app.decorate('providers', { ...(await providersFromConfig(config)), ...opts.providers });
  app.addHook('onClose', async () => app.providers.mail?.close());
  requestContextHooks(app);
  const reporter = opts.reporter ?? (await sentryReporter(config.sentryDsn, { environment: config.env }));
  app.addHook('onClose', async () => reporter.close());
  app.decorate('jobs', new JobRunner(app, opts.database, opts.jobs ?? JOBS, opts.jobRunner));
  // Before the server closes and anything it uses (the mail transport, then the database): the
  // runs in flight, an outbox send included, end and are recorded first (docs/jobs.md "Shutdown").
  app.addHook('preClose', async () => {
    shutdownBudget.begin();
    await app.jobs.stop();
  });

  const hmacKey =
    config.sessionSecret ?? (await getOrCreateSetting(opts.database.db, 'csrf_hmac_key', () => randomSecret(32)));

  // npm run dev: Vite answers for the client's sources before any route (docs/decisions/012-server-rendering-and-dev-loop.md).
  const webDev = config.webDevServer ? await startWebDevServer(app) : null;
  await app.register(errorsPlugin, { reporter });
  await app.register(metricsPlugin, { database: opts.database });
  if (config.metricsToken) {
    registerJobMetrics(app);
    registerPaymentAlertMetrics(app);
  }
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          // The one inline script: a server-rendered page's loader of its scripts (render-page.ts).
          PAGE_SCRIPT_LOADER_CSP_SOURCE,
          // In development only: React Refresh's preamble, which Vite puts into each page.
          ...(webDev?.inlineScriptSources ?? []),
          ...(config.captcha.siteKey
            ? ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/']
            : []),
          // The routing-number lookup answers by JSONP, i.e. as a script (docs/requirements/calls.md).
          ...routingLookupScriptSources(config),
          ...tokenizerSources(config),
        ],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // Contest forms preview the chosen video from a blob: URL before it is sent.
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", ...tokenizerSources(config)],
        frameSrc: [
          "'self'",
          ...(config.captcha.siteKey ? ['https://www.google.com/recaptcha/'] : []),
          ...tokenizerSources(config),
        ],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: config.publicUrl.startsWith('https://') ? [] : null,
      },
    },
    hsts: config.publicUrl.startsWith('https://'),
  });
  // Signed cookies (the browsers known to an address, modules/auth/known-devices.ts) use a key of their own, derived from the app's secret.
  await app.register(cookie, { secret: createHmac('sha256', hmacKey).update('signed-cookies').digest('base64url') });
  // After the cookie plugin, whose Set-Cookie it reads: no-store on every answer not declared public (docs/security.md "Caching of answers").
  await app.register(cacheControlPlugin);
  await app.register(rateLimitsPlugin);
  // Limits per upload are set by each route (receiveUpload); these bound any multipart request.
  await app.register(multipart, {
    limits: {
      fileSize: Math.max(...Object.values(config.uploadLimits)) + 1,
      files: 50,
      fields: 50,
      fieldSize: 1024 * 1024,
      parts: 120,
    },
  });
  await app.register(sessionPlugin);
  await app.register(csrfPlugin, { hmacKey });
  // Before the modules: every route's config.access becomes its first preHandler (docs/ARCHITECTURE.md "Access").
  await app.register(accessPlugin);
  await app.register(apiDocsPlugin);

  for (const routes of featureRoutes({ migrationsTable: opts.database.migrationsTable })) await app.register(routes);
  if (config.payments.gateway === 'simulator') {
    // The local stand-in for Authorize.Net, with this process's generated credentials. Loaded only
    // here: production refuses the simulator (config.ts), and no production code imports the
    // local peers (docs/ARCHITECTURE.md "Local peers").
    const { gatewaySimulator } = await import('./local-peers/gateway-simulator.ts');
    await app.register(gatewaySimulator, {
      prefix: SIMULATOR_PREFIX,
      // The app calls it through its loopback address; the payer's browser is on the request's origin.
      consentOnReturnOrigin: true,
      apiLoginId: config.payments.apiLoginId,
      transactionKey: config.payments.transactionKey,
      clientKey: config.payments.clientKey,
    });
  }
  await app.register(pageRoutes, { webDev });
  return app;
}
