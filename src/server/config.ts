// Longer than 400 lines: the one reader of the environment: the parse, the checks across settings, the
// refusals of production and the shape every module reads (docs/configuration.md).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { must } from '../shared/must.ts';
import { LIMIT_NAMES, LIMIT_RULES, type LimitSettings } from './modules/limits/limit-rules.ts';
import { AUTHORIZE_NET } from './providers/payments/authorize-net.ts';
import { LIMIT_SETTINGS, SETTINGS } from './settings.ts';
import type { IrsDataset } from './modules/irs-data/irs-files.ts';

type Settings = typeof SETTINGS;

/** Every setting's schema, from its one declaration in settings.ts. */
const settingsSchema = z.object(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, declared]) => [name, declared.schema])) as {
    [Name in keyof Settings]: Settings[Name]['schema'];
  },
);

/**
 * The LIMIT_* settings are parsed apart from the others: a bad limit then does not hide the
 * problems of settings that only make sense together ({@link dependencyProblems}), which are looked
 * for once the others are valid.
 */
const LIMITS_MASK = Object.fromEntries(LIMIT_SETTINGS.map((name) => [name, true])) as Record<
  (typeof LIMIT_SETTINGS)[number],
  true
>;
const envSchema = settingsSchema.omit(LIMITS_MASK);
const limitsEnvSchema = settingsSchema.pick(LIMITS_MASK);

/** Every variable {@link loadConfig} reads, in the order of settings.ts (each has its row in docs/configuration.md). */
export const READ_VARIABLES: readonly string[] = Object.keys(settingsSchema.shape);

type Env = z.infer<typeof settingsSchema>;

/** config.limits from the LIMIT_* settings, each named by its rule (modules/limits/limit-rules.ts). */
function limitsFrom(e: Env): LimitSettings {
  return Object.fromEntries(LIMIT_NAMES.map((name) => [name, e[LIMIT_RULES[name].setting]])) as LimitSettings;
}

/**
 * Authorize.Net settings. `simulator` (the default) serves the local gateway simulator from this
 * app under `SIMULATOR_PREFIX` with credentials generated at start; the client calls the server's
 * own listening address. `authorize-net` needs the three keys and calls `endpoint` (the sandbox by
 * default, production when NODE_ENV=production, or AUTHORIZE_NET_ENDPOINT).
 */
interface PaymentsConfig {
  gateway: 'simulator' | 'authorize-net';
  /** createTransactionRequest URL (…/xml/v1/request.api). */
  endpoint: string;
  /**
   * Accept.js script the billing page loads: Authorize.Net's absolute URL, or in simulator mode the
   * path of the simulator's stand-in, loaded from the origin the page was opened at (its tokenizer
   * address then follows that origin too; docs/security.md "Same origin").
   */
  acceptJsUrl: string;
  apiLoginId: string;
  /** Secret: never logged, never sent to the browser. */
  transactionKey: string;
  /** Public client key for Accept.js. */
  clientKey: string;
  /** Whole-call limit of one gateway request; past it the payment is left pending. */
  timeoutMs: number;
  /** How often the reconciliation with the gateway runs (docs/payments.md); 0 turns it off. */
  reconcileIntervalMinutes: number;
}

/** config.irsDownload.sources from the IRS_*_URL(S) settings. */
function irsSourcesFrom(e: Env): { dataset: IrsDataset; url: string }[] {
  const off = (v: string) => v.trim() === 'off';
  return [
    ...(off(e.IRS_BMF_URLS)
      ? []
      : e.IRS_BMF_URLS.split(',')
          .map((u) => u.trim())
          .filter(Boolean)
          .map((url) => ({ dataset: 'bmf' as const, url }))),
    ...(
      [
        ['epostcard', e.IRS_EPOSTCARD_URL],
        ['revocations', e.IRS_REVOCATIONS_URL],
        ['pub78', e.IRS_PUB78_URL],
      ] as const
    )
      .filter(([, url]) => !off(url))
      .map(([dataset, url]) => ({ dataset, url: url.trim() })),
  ];
}

/** Where the app serves the gateway simulator in simulator mode. */
export const SIMULATOR_PREFIX = '/gateway-simulator';

/** Where the app serves its built-in routing-number lookup (the default of ROUTING_LOOKUP_URL). */
const ROUTING_LOOKUP_PATH = '/routing-numbers/data.json';

/** The address this process can reach itself at: loopback when listening on every interface. */
function selfOrigin(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

function paymentsFromEnv(e: Env): PaymentsConfig {
  if (e.PAYMENT_GATEWAY === 'simulator') {
    return {
      gateway: 'simulator',
      endpoint: `${selfOrigin(e.HOST, e.PORT)}${SIMULATOR_PREFIX}/xml/v1/request.api`,
      acceptJsUrl: `${SIMULATOR_PREFIX}/Accept.js`,
      apiLoginId: `sim${randomBytes(6).toString('hex')}`,
      transactionKey: randomSecret(12),
      clientKey: randomSecret(24),
      timeoutMs: e.PAYMENT_TIMEOUT_MS,
      reconcileIntervalMinutes: e.RECONCILE_INTERVAL_MINUTES,
    };
  }
  const base = e.NODE_ENV === 'production' ? AUTHORIZE_NET.production : AUTHORIZE_NET.sandbox;
  return {
    gateway: 'authorize-net',
    endpoint: e.AUTHORIZE_NET_ENDPOINT ?? base.endpoint,
    acceptJsUrl: base.acceptJsUrl,
    apiLoginId: must(e.AUTHORIZE_NET_API_LOGIN_ID, 'AUTHORIZE_NET_API_LOGIN_ID'),
    transactionKey: must(e.AUTHORIZE_NET_TRANSACTION_KEY, 'AUTHORIZE_NET_TRANSACTION_KEY'),
    clientKey: must(e.AUTHORIZE_NET_CLIENT_KEY, 'AUTHORIZE_NET_CLIENT_KEY'),
    timeoutMs: e.PAYMENT_TIMEOUT_MS,
    reconcileIntervalMinutes: e.RECONCILE_INTERVAL_MINUTES,
  };
}

/** Whether PUBLIC_URL names a host the internet can reach (not localhost, a private address or .local). */
function isPublicAddress(url: string | undefined): boolean {
  if (!url) return false;
  const host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    host.endsWith('.test')
  )
    return false;
  if (/^(127\.|10\.|192\.168\.|169\.254\.|0\.)/.test(host) || /^172\.(1[6-9]|2\d|3[01])\./.test(host)) return false;
  if (host.includes(':') && (host === '::1' || /^(fc|fd|fe80)/.test(host))) return false;
  return true;
}

/**
 * TRUST_PROXY as Fastify's trustProxy: in production by default the proxies a deployment usually
 * has in front (loopback and private networks), never "everyone", which would let any client pick
 * its own address by sending X-Forwarded-For.
 */
function trustProxyOf(value: string | undefined, isProduction: boolean): string | false {
  if (value === undefined) return isProduction ? 'loopback, linklocal, uniquelocal' : false;
  const v = value.trim();
  return v === '' || v === 'false' || v === '0' || v === 'none' ? false : v;
}

const mb = (megabytes: number) => Math.round(megabytes * 1024 * 1024);

/** Thrown when the environment does not describe a valid configuration; the message names each bad variable. */
export class ConfigError extends Error {}

const truthy = (value: string | undefined) => value !== undefined && ['1', 'true', 'yes'].includes(value);

/**
 * The settings production refuses (docs/deploy.md "Production settings"): every local stand-in the
 * product starts with by default, and the weak settings, each named with what to set instead.
 * Reads the raw variables (empty ones already dropped), so a bad value elsewhere does not hide
 * these; a value the schema refuses (a short SESSION_SECRET, an SMTP_URL that is not smtp://) is
 * named by the schema instead.
 * @returns one line per refused setting, empty outside production
 */
export function productionProblems(env: Record<string, string | undefined>): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if ((env.PAYMENT_GATEWAY ?? 'simulator') === 'simulator') {
    problems.push(
      'PAYMENT_GATEWAY: the local gateway simulator takes no real payments; set PAYMENT_GATEWAY=authorize-net with AUTHORIZE_NET_API_LOGIN_ID, AUTHORIZE_NET_TRANSACTION_KEY and AUTHORIZE_NET_CLIENT_KEY',
    );
  }
  const captchaMissing = (['RECAPTCHA_SITE_KEY', 'RECAPTCHA_SECRET'] as const).filter((k) => !env[k]);
  if (captchaMissing.length) {
    problems.push(
      `${captchaMissing.join(', ')}: required; without both reCAPTCHA keys the public forms run with the local stand-in, which checks nothing; set RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET to your reCAPTCHA site's keys`,
    );
  }
  if (truthy(env.WEB_DEV_SERVER)) {
    problems.push(
      'WEB_DEV_SERVER: serves the web client from its sources through Vite (npm run dev), which production installs do not have; leave it unset and serve the build (npm run build)',
    );
  }
  if (env.SEED_DEMO === undefined || truthy(env.SEED_DEMO)) {
    problems.push(
      'SEED_DEMO: the first start would seed the demo account, its users and the demo discount codes (WELCOME100); set SEED_DEMO=0',
    );
  }
  if (!env.SMTP_URL) {
    problems.push(
      'SMTP_URL: required; without it mails only wait in the outbox and reach no one; set SMTP_URL=smtps://user:pass@smtp.example:465 (or smtp://…:587)',
    );
  }
  if (!env.SESSION_SECRET) {
    problems.push(
      'SESSION_SECRET: required; set a random value of at least 32 characters, the same on every server (e.g. openssl rand -base64 48)',
    );
  }
  if (!env.PUBLIC_URL) {
    problems.push(
      'PUBLIC_URL: required; set the https address people open the site at, e.g. PUBLIC_URL=https://goodstanding.example',
    );
  } else if (URL.canParse(env.PUBLIC_URL) && new URL(env.PUBLIC_URL).protocol !== 'https:') {
    problems.push(
      'PUBLIC_URL: must start with https:// (Secure cookies, HSTS, links in mails); set the https address people open the site at, behind your TLS proxy',
    );
  }
  if (env.METRICS_TOKEN !== undefined && env.METRICS_TOKEN.length < 32) {
    problems.push(
      'METRICS_TOKEN: too short; set a random value of at least 32 characters (e.g. openssl rand -hex 24), or remove it to turn /metrics off',
    );
  }
  const irsDownload = env.IRS_DOWNLOAD === 'on' || truthy(env.IRS_DOWNLOAD);
  if (!irsDownload && !env.IRS_DATA_DIR) {
    problems.push(
      'IRS_DOWNLOAD: the daily IRS data refresh would load nothing, and every standing would rest on IRS data that never changes; set IRS_DOWNLOAD=on (the IRS\'s own files, downloaded daily: docs/irs-data.md "Refresh") or IRS_DATA_DIR to a folder you put the IRS\'s files in',
    );
  }
  const plainHttp = (['IRS_BMF_URLS', 'IRS_EPOSTCARD_URL', 'IRS_REVOCATIONS_URL', 'IRS_PUB78_URL'] as const).filter(
    (k) => irsDownload && (env[k] ?? '').split(',').some((u) => u.trim().toLowerCase().startsWith('http://')),
  );
  if (plainHttp.length) {
    problems.push(
      `${plainHttp.join(', ')}: plain http; the IRS data every standing is computed from must arrive over https; set the IRS's https addresses (or leave them unset for the defaults)`,
    );
  }
  if (env.ADMIN_PASSWORD) {
    problems.push(
      'ADMIN_PASSWORD: production creates no user from the environment; remove it and create the first staff user with npm run admin:create -- --email you@example.org',
    );
  }
  return problems;
}

/** The settings that only make sense together, checked once each value is valid on its own. */
function dependencyProblems(e: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (e.RECAPTCHA_SITE_KEY && !e.RECAPTCHA_SECRET)
    problems.push('RECAPTCHA_SECRET: required when RECAPTCHA_SITE_KEY is set');
  if (e.STORAGE_DRIVER === 's3') {
    if (!e.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE_DRIVER is s3');
    if (e.S3_ACCESS_KEY_ID && !e.S3_SECRET_ACCESS_KEY)
      problems.push('S3_SECRET_ACCESS_KEY: required when S3_ACCESS_KEY_ID is set');
    if (e.S3_SECRET_ACCESS_KEY && !e.S3_ACCESS_KEY_ID)
      problems.push('S3_ACCESS_KEY_ID: required when S3_SECRET_ACCESS_KEY is set');
  }
  if (e.PAYMENT_GATEWAY === 'authorize-net') {
    for (const k of [
      'AUTHORIZE_NET_API_LOGIN_ID',
      'AUTHORIZE_NET_TRANSACTION_KEY',
      'AUTHORIZE_NET_CLIENT_KEY',
    ] as const) {
      if (!e[k]) problems.push(`${k}: required when PAYMENT_GATEWAY is authorize-net`);
    }
  }
  return problems;
}

/**
 * The configuration of one server process from its valid settings (their own derived values
 * included: paths resolved, megabytes in bytes, the defaults that depend on other settings).
 */
function configFrom(e: Env) {
  const isProduction = e.NODE_ENV === 'production';
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    /**
     * Origin used in links that leave the site: inside mails, canonical links and the address handed
     * to the outside document viewer, e.g. https://goodstanding.example (no trailing slash). Never
     * the address of anything the browser loads or calls: those are paths, or come from the
     * request's origin (docs/security.md "Same origin").
     */
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    /** postgres:// URL, or undefined for the embedded PGlite database in `${dataDir}/db`. */
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    /** The embedded database's page cache (shared_buffers), in MB (docs/operations.md "Memory"). */
    pgliteSharedBuffersMb: e.PGLITE_SHARED_BUFFERS_MB,
    /**
     * Limits of the PostgreSQL server connection (docs/deploy.md "Timeouts"), in milliseconds, 0 = no
     * limit: `connectMs` waiting for a pool connection, `statementMs` (statement_timeout),
     * `idleInTransactionMs` (idle_in_transaction_session_timeout), `idleMs` before an idle pooled
     * connection is closed; `migrationLockSeconds` waiting for another server's startup work.
     */
    databaseTimeouts: {
      connectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      idleMs: e.DATABASE_IDLE_TIMEOUT_MS,
      migrationLockSeconds: e.MIGRATION_LOCK_TIMEOUT_SECONDS,
    },
    /** Fastify's requestTimeout and keepAliveTimeout, in milliseconds (docs/deploy.md "Timeouts"). */
    http: { requestTimeoutMs: e.REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS },
    /** Bearer token of GET /metrics; without one /metrics does not exist (docs/deploy.md "Observability"). */
    metricsToken: e.METRICS_TOKEN,
    /**
     * HMAC key for CSRF tokens; when absent one is generated and kept in the database (not in
     * production, which requires it: docs/deploy.md).
     */
    sessionSecret: e.SESSION_SECRET,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionAbsoluteHours: e.SESSION_ABSOLUTE_HOURS,
    cookieSecure: e.COOKIE_SECURE ?? (isProduction && (e.PUBLIC_URL ?? '').startsWith('https://')),
    seedDemo: e.SEED_DEMO,
    demo: {
      adminEmail: e.ADMIN_EMAIL,
      adminPassword: e.ADMIN_PASSWORD,
      demoEmail: e.DEMO_EMAIL,
      demoPassword: e.DEMO_PASSWORD,
    },
    /**
     * `leaseSeconds`: how long a delivery round's claim on a mail holds without a heartbeat
     * (MAIL_LEASE_SECONDS, default 300; docs/mail.md "One send per mail"): a server that stops
     * mid-send leaves its mails to the others after at most this long.
     */
    mail: {
      staffEmail: e.STAFF_EMAIL,
      from: e.MAIL_FROM,
      smtpUrl: e.SMTP_URL,
      pollMs: e.MAIL_POLL_MS,
      leaseSeconds: e.MAIL_LEASE_SECONDS,
    },
    captcha: {
      siteKey: e.RECAPTCHA_SITE_KEY,
      secret: e.RECAPTCHA_SECRET,
      verifyUrl: e.RECAPTCHA_VERIFY_URL,
      minScore: e.RECAPTCHA_MIN_SCORE,
    },
    /** Requests per client address per minute (docs/requirements/platform.md §5.4); `discountPerMinute` bounds POST /app/discount/reserve. */
    rateLimits: {
      formsPerMinute: e.RATE_LIMIT_FORMS_PER_MINUTE,
      loginPerMinute: e.RATE_LIMIT_LOGIN_PER_MINUTE,
      searchPerMinute: e.RATE_LIMIT_SEARCH_PER_MINUTE,
      discountPerMinute: e.RATE_LIMIT_DISCOUNT_PER_MINUTE,
    },
    /**
     * Where rate-limit hits are counted: 'memory' in this process, or 'database' (the rate_limits
     * table) so that every server process on one PostgreSQL database counts together. Default:
     * 'database' when DATABASE_URL is set, 'memory' on the embedded database.
     */
    rateLimitStore: e.RATE_LIMIT_STORE ?? (e.DATABASE_URL ? ('database' as const) : ('memory' as const)),
    /**
     * The abuse limits' maximums, each from its LIMIT_* setting (docs/security.md "Limits on mail and
     * payments"), always counted in the database.
     */
    limits: limitsFrom(e),
    /**
     * Peers whose X-Forwarded-For / -Proto / -Host are believed (Fastify's trustProxy): addresses,
     * CIDR subnets or proxy-addr's names (loopback, linklocal, uniquelocal), comma-separated; false
     * believes none. The client address (rate limits, sessions, audit) is the nearest untrusted hop.
     */
    trustProxy: trustProxyOf(e.TRUST_PROXY, isProduction),
    logLevel: e.LOG_LEVEL,
    sentryDsn: e.SENTRY_DSN,
    /**
     * Longest wait, in ms, on SIGTERM for the requests and jobs still running before the database is
     * closed (docs/operations.md "Stopping"); the process exits within this plus 1.5 s.
     */
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    /**
     * `npm run dev`: the web client comes from Vite's development server inside this process (hot
     * reload, public pages rendered from the sources) instead of the build (WEB_DEV_SERVER, default
     * off, refused in production: docs/decisions/012-server-rendering-and-dev-loop.md).
     */
    webDevServer: e.WEB_DEV_SERVER,
    /**
     * Where uploaded bytes go (docs/requirements/platform.md §5.7): disk under `dir` (outside the web root), or an S3 bucket
     * (`s3`, set whenever `driver` is 's3') when several servers share the uploads.
     */
    storage: {
      driver: e.STORAGE_DRIVER,
      dir: path.resolve(e.STORAGE_DIR ?? path.join(e.DATA_DIR, 'files')),
      // Spread so that `s3` is an optional property of AppConfig, which disk configurations leave out.
      ...(e.STORAGE_DRIVER === 's3'
        ? {
            /** An S3 or S3-compatible bucket (STORAGE_DRIVER=s3). */
            s3: {
              bucket: must(e.S3_BUCKET, 'S3_BUCKET'),
              region: e.S3_REGION,
              /** Base URL of an S3-compatible service; AWS when absent. */
              endpoint: e.S3_ENDPOINT,
              /** Both or neither; without them the SDK's default credential chain is used. */
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
            },
          }
        : {}),
    },
    bylaws: {
      /** The other brand the short bylaws variant is published under (docs/requirements/product.md tool 3). */
      shortBrand: e.BYLAWS_SHORT_BRAND,
      /**
       * The online office-document viewer, used only when the site is publicly reachable (it fetches
       * the download itself); null otherwise, and the built-in preview is offered instead.
       */
      viewerUrl: (e.PUBLIC_SITE_REACHABLE ?? isPublicAddress(e.PUBLIC_URL)) ? e.OFFICE_VIEWER_URL : null,
    },
    /** Largest accepted upload per purpose, in bytes (docs/requirements/platform.md §5.7: photo 20 MB, video 500 MB, roster 100 MB, header image 5 MB). */
    uploadLimits: {
      contest_photo: mb(e.UPLOAD_MAX_PHOTO_MB),
      contest_video: mb(e.UPLOAD_MAX_VIDEO_MB),
      roster: mb(e.UPLOAD_MAX_ROSTER_MB),
      profile_image: mb(e.UPLOAD_MAX_IMAGE_MB),
      application_document: mb(e.UPLOAD_MAX_DOCUMENT_MB),
    },
    /**
     * Daily quotas of the anonymous contest uploads (docs/security.md "Upload quotas"), per entry
     * e-mail address and per client IP, per UTC day: files (count) and bytes. Defaults: 10 files and
     * 1 GB per address, 30 files and 3 GB per IP (CONTEST_UPLOADS_PER_ADDRESS_PER_DAY,
     * CONTEST_UPLOAD_MB_PER_ADDRESS_PER_DAY, CONTEST_UPLOADS_PER_IP_PER_DAY, CONTEST_UPLOAD_MB_PER_IP_PER_DAY).
     */
    contestQuotas: {
      perAddress: { files: e.CONTEST_UPLOADS_PER_ADDRESS_PER_DAY, bytes: mb(e.CONTEST_UPLOAD_MB_PER_ADDRESS_PER_DAY) },
      perIp: { files: e.CONTEST_UPLOADS_PER_IP_PER_DAY, bytes: mb(e.CONTEST_UPLOAD_MB_PER_IP_PER_DAY) },
    },
    /** The card payment provider (docs/requirements/platform.md §2 rule 4, §5.8; docs/requirements/product.md tool 14). */
    payments: paymentsFromEnv(e),
    /** docs/requirements/constants.md "Discount extension days": the early-bird renewal prices last this many days past the due date. */
    renewalDiscountExtensionDays: e.RENEWAL_DISCOUNT_EXTENSION_DAYS,
    /**
     * How long the retention rules keep data (docs/retention.md "Rules"); 0 turns a rule off. Days,
     * except `auditYears` (years) and `orphanFileHours` (hours).
     */
    retention: {
      /** Sent mails keep their text this many days after sending (RETAIN_SENT_MAIL_DAYS, 90). */
      sentMailDays: e.RETAIN_SENT_MAIL_DAYS,
      /** Password reset tokens and sessions are deleted this many days after they expired (RETAIN_EXPIRED_TOKENS_DAYS, 30). */
      expiredTokenDays: e.RETAIN_EXPIRED_TOKENS_DAYS,
      /** Applications never submitted are deleted this many days after they were last touched (RETAIN_DRAFT_DAYS, 365). */
      draftDays: e.RETAIN_DRAFT_DAYS,
      /** Public form submissions are deleted this many days after they arrived (RETAIN_INQUIRY_DAYS, 1095). */
      inquiryDays: e.RETAIN_INQUIRY_DAYS,
      /** Page ratings are deleted this many days after they were given (RETAIN_RATING_DAYS, 1095). */
      ratingDays: e.RETAIN_RATING_DAYS,
      /** Audit rows are deleted this many years after they were written, money records later (RETAIN_AUDIT_YEARS, 7). */
      auditYears: e.RETAIN_AUDIT_YEARS,
      /** Stored objects no files row names are removed this many hours after they were written (RETAIN_ORPHAN_FILE_HOURS, 24). */
      orphanFileHours: e.RETAIN_ORPHAN_FILE_HOURS,
      /** Checks of a list of EINs, with their result CSV, are deleted this many days after they finished (RETAIN_BULK_CHECK_DAYS, 30). */
      bulkCheckDays: e.RETAIN_BULK_CHECK_DAYS,
    },
    /** Compliance deadline reminders (docs/requirements/product.md "Compliance calendar"): the daily job that mails them (REMINDERS_ENABLED, default on). */
    reminders: { enabled: e.REMINDERS_ENABLED },
    /**
     * Scheduled jobs (docs/jobs.md): `bossSchema` is the PostgreSQL schema of the job library's own
     * tables (JOBS_SCHEMA, default pgboss; unused on PGlite); `irsDataDir` the folder the IRS data
     * refresh imports new BMF CSV files from (IRS_DATA_DIR; unset: the job does nothing).
     */
    jobs: {
      bossSchema: e.JOBS_SCHEMA,
      // Spread so that `irsDataDir` is an optional property of AppConfig, which configurations without it leave out.
      ...(e.IRS_DATA_DIR ? { irsDataDir: path.resolve(e.IRS_DATA_DIR) } : {}),
    },
    /**
     * What the IRS data refresh downloads from the IRS itself (docs/irs-data.md "Refresh",
     * docs/configuration.md): off by default (no network); IRS_DOWNLOAD=on downloads each of
     * `sources` once a day.
     */
    irsDownload: {
      /** IRS_DOWNLOAD (default off). */
      enabled: e.IRS_DOWNLOAD,
      /**
       * The addresses, in this order: the BMF extracts (IRS_BMF_URLS), the Form 990-N data
       * (IRS_EPOSTCARD_URL), the Automatic Revocation List (IRS_REVOCATIONS_URL), the Publication 78
       * data (IRS_PUB78_URL); a data set set to `off` is left out. An address ending in `.zip` is unzipped.
       */
      sources: irsSourcesFrom(e),
      /** Longest wait, in ms, for the answer and then between two pieces of the file (IRS_DOWNLOAD_TIMEOUT_MS, 60,000). */
      timeoutMs: e.IRS_DOWNLOAD_TIMEOUT_MS,
      /** More tries of a download after a network error, a timeout, a cut-short file, 408, 429 or 5xx (IRS_DOWNLOAD_RETRIES, 3). */
      retries: e.IRS_DOWNLOAD_RETRIES,
      /** Wait before the first retry, in ms, doubled for each next one; a longer Retry-After wins (IRS_DOWNLOAD_RETRY_DELAY_MS, 30,000). */
      retryDelayMs: e.IRS_DOWNLOAD_RETRY_DELAY_MS,
      /** Largest download, and largest file unzipped from one, in bytes (IRS_DOWNLOAD_MAX_MB, 2,048 MB). */
      maxBytes: mb(e.IRS_DOWNLOAD_MAX_MB),
    },
    /**
     * The public routing-number lookup the bank form calls by JSONP: a URL taking `rn` and
     * `callback`. ROUTING_LOOKUP_URL, or by default the path of this app's own built-in lookup
     * ({@link ROUTING_LOOKUP_PATH}, no network), which the browser asks on the origin it opened the
     * page at (docs/security.md "Same origin").
     */
    routingLookupUrl: e.ROUTING_LOOKUP_URL ?? ROUTING_LOOKUP_PATH,
  };
}

/** Runtime configuration of one server process; built only by {@link loadConfig}. */
export type AppConfig = ReturnType<typeof configFrom>;

/** See AppConfig.databaseTimeouts. */
export type DatabaseTimeouts = AppConfig['databaseTimeouts'];

/** How much one address or IP may upload in a UTC day. */
export type UploadQuota = AppConfig['contestQuotas']['perAddress'];

/**
 * Reads and validates the process environment (the only reader of process.env).
 * @param env variables to read, process.env by default; `overrides` win over both (tests use them).
 * @throws ConfigError naming every invalid variable and, with NODE_ENV=production, every setting
 *   production refuses ({@link productionProblems}), in one message.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string
  >;
  const parsed = envSchema.safeParse(cleaned);
  const parsedLimits = limitsEnvSchema.safeParse(cleaned);
  const invalid = [
    ...(parsed.success
      ? dependencyProblems(parsed.data)
      : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)),
    ...(parsedLimits.success ? [] : parsedLimits.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)),
  ];
  const refused = productionProblems(cleaned);
  if (invalid.length || refused.length) {
    const parts: string[] = [];
    if (invalid.length) parts.push(`Invalid configuration:\n${invalid.map((l) => `  ${l}`).join('\n')}`);
    if (refused.length) {
      parts.push(
        `NODE_ENV=production refuses to start with these settings:\n${refused.map((l) => `  ${l}`).join('\n')}\n` +
          'See "Production settings" in docs/configuration.md.',
      );
    }
    throw new ConfigError(parts.join('\n'));
  }
  const e: Env = {
    ...must(parsed.data, 'the parsed configuration'),
    ...must(parsedLimits.data, 'the parsed limits'),
  };
  return { ...configFrom(e), ...overrides };
}

/** A random secret of `bytes` bytes as base64url, for generated credentials and keys. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
