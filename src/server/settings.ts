// Longer than 400 lines: one declaration per setting, about ninety, by design: this file is the one list
// (docs/configuration.md).
/*
 * Every setting of the server, declared once (docs/configuration.md): its environment variable, the
 * zod schema that reads it (type, validation and its messages, default), the default as a reader
 * sees it, and what it does. config.ts builds its environment schema from SETTINGS, and
 * `npm run docs:settings` (scripts/settings-table.ts) writes docs/configuration.md's settings table
 * from it, in this order: a setting added here is read, checked and documented at once.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { LIMIT_NAMES, LIMIT_RULES, type LimitName } from './modules/limits/limit-rules.ts';

/** One environment variable. */
interface Setting<S extends z.ZodType> {
  /** Reads the variable's text (absent when unset or empty): type, validation messages, default. */
  readonly schema: S;
  /** The default as docs/configuration.md shows it (markdown); `—` when there is none. */
  readonly shown: string;
  /** What it does, in docs/configuration.md's words (markdown, one table cell). */
  readonly about: string;
}

/** A setting, its schema's type kept for config.ts's inferred Env. */
function setting<S extends z.ZodType>(declared: Setting<S>): Setting<S> {
  return declared;
}

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** IRS_DOWNLOAD: on or off (the bool words are taken too). */
const onOff = z
  .enum(['on', 'off', '1', '0', 'true', 'false', 'yes', 'no'], { message: 'IRS_DOWNLOAD must be on or off' })
  .transform((v) => v === 'on' || v === '1' || v === 'true' || v === 'yes');

/**
 * The IRS's published addresses of its data sets (docs/irs-data.md "Refresh"): the "EO BMF
 * Extract" page's four regional extracts (plain CSV), and the zips of the "Tax Exempt
 * Organization Search Bulk Data Downloads" page.
 */
const IRS_ADDRESSES = {
  bmf: [1, 2, 3, 4].map((n) => `https://www.irs.gov/pub/irs-soi/eo${n}.csv`).join(','),
  epostcard: 'https://apps.irs.gov/pub/epostcard/data-download-epostcard.zip',
  revocations: 'https://apps.irs.gov/pub/epostcard/data-download-revocation.zip',
  pub78: 'https://apps.irs.gov/pub/epostcard/data-download-pub78.zip',
};

const isHttpUrl = (v: string) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol);

/** An IRS download address (http or https), or `off` to leave that data set out. */
function irsAddress(name: string, fallback: string) {
  return z
    .string()
    .refine((v) => v.trim() === 'off' || isHttpUrl(v.trim()), `${name} must be an http(s) address or off`)
    .default(fallback);
}

/** false, or a comma-separated list of IP addresses, CIDR subnets and proxy-addr's subnet names. */
function isTrustProxyList(value: string): boolean {
  if (['false', '0', 'none'].includes(value.trim())) return true;
  return value.split(',').every((entry) => {
    const [address, bits, extra] = entry.trim().split('/');
    if (['loopback', 'linklocal', 'uniquelocal'].includes(address)) return bits === undefined;
    const family = isIP(address);
    if (!family || extra !== undefined) return false;
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  });
}

/**
 * A retention setting (docs/retention.md): a whole number of `unit`, 0 to turn the rule off, or
 * between `min` and `max`.
 */
function retention(name: string, unit: string, fallback: number, min: number, max: number) {
  const message = `${name} must be 0 (keep everything) or a whole number of ${unit} from ${min} to ${max}`;
  return z.coerce
    .number({ message })
    .int(message)
    .refine((v) => v === 0 || (v >= min && v <= max), message)
    .default(fallback);
}

/** An abuse limit's maximum (modules/limits/limit-rules.ts): a whole number of at least 1. */
function limitMax(name: string, fallback: number) {
  const message = `${name} must be a whole number of at least 1`;
  return z.coerce.number({ message }).int(message).min(1, message).default(fallback);
}

/** The variable of each abuse limit. */
type LimitSetting = (typeof LIMIT_RULES)[LimitName]['setting'];

/**
 * One LIMIT_* setting per abuse limit, named, defaulted and described by its rule, in the order of
 * LIMIT_RULES: the rules stay the one place a limit is declared.
 */
function limitSettings() {
  return Object.fromEntries(
    LIMIT_NAMES.map((name) => {
      const { setting: variable, defaultMax, about } = LIMIT_RULES[name];
      return [variable, setting({ schema: limitMax(variable, defaultMax), shown: `\`${defaultMax}\``, about })];
    }),
  ) as Record<LimitSetting, Setting<ReturnType<typeof limitMax>>>;
}

/** The variable of each LIMIT_* setting, for config.ts, which reads them apart from the others. */
export const LIMIT_SETTINGS = LIMIT_NAMES.map((name) => LIMIT_RULES[name].setting) as LimitSetting[];

const DEPLOY_TIMEOUTS = '[deploy.md "Timeouts"](deploy.md#timeouts)';

/**
 * Every setting by its environment variable, in the order of docs/configuration.md's table (which
 * `npm run docs:settings` writes from here).
 */
export const SETTINGS = {
  PORT: setting({
    schema: z.coerce.number().int().min(0).max(65535).default(3000),
    shown: '`3000`',
    about: 'HTTP port',
  }),
  HOST: setting({ schema: z.string().default('0.0.0.0'), shown: '`0.0.0.0`', about: 'Interface to listen on' }),
  PUBLIC_URL: setting({
    schema: z.string().url().optional(),
    shown: '`http://localhost:$PORT` (required, https, in production)',
    about:
      'Address used in links that leave the site: mails, canonical links, the download address handed to the online document viewer. Never for what the browser loads or calls: those are paths or follow the address the site was opened at, so `http://127.0.0.1:$PORT` works as well as `localhost` ([security.md](security.md#same-origin)). `https://` also turns on HSTS and `upgrade-insecure-requests`',
  }),
  DATA_DIR: setting({
    schema: z.string().default('./data'),
    shown: '`./data`',
    about: 'Where the embedded database lives (`$DATA_DIR/db`); locked against a second process',
  }),
  DATABASE_URL: setting({
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres://')
      .optional(),
    shown: '—',
    about: '`postgres://user:pass@host:5432/db`: run on a PostgreSQL server instead of the embedded database',
  }),
  DATABASE_POOL_SIZE: setting({
    schema: z.coerce.number().int().min(1).max(200).default(10),
    shown: '`10`',
    about: 'Connections to that server',
  }),
  PGLITE_SHARED_BUFFERS_MB: setting({
    schema: z.coerce.number().int().min(1).max(4096).default(32),
    shown: '`32`',
    about:
      'The embedded database\'s page cache, held whole in the server\'s memory ([operations.md "Memory"](operations.md#memory))',
  }),
  SHUTDOWN_TIMEOUT_MS: setting({
    schema: z.coerce.number().int().min(500).max(60_000).default(8_000),
    shown: '`8000`',
    about:
      'Longest wait on SIGTERM for the requests and jobs still running before the database closes ([operations.md "Stopping"](operations.md#stopping))',
  }),
  NODE_ENV: setting({
    schema: z.enum(['development', 'production', 'test']).default('development'),
    shown: '`development`',
    about:
      '`production` refuses to start with the local stand-ins and weak settings (see [Production settings](#production-settings)), creates no user at the first start, serves no source maps and believes the `X-Forwarded-*` headers of the proxies `TRUST_PROXY` names',
  }),
  TRUST_PROXY: setting({
    schema: z
      .string()
      .refine(
        isTrustProxyList,
        'TRUST_PROXY must be false, or addresses, subnets (10.0.0.0/8) and loopback, linklocal or uniquelocal separated by commas',
      )
      .optional(),
    shown: '`loopback, linklocal, uniquelocal` when `NODE_ENV=production`, otherwise `false`',
    about:
      'Peers (addresses, CIDR subnets or those names, comma-separated) allowed to set the client address with `X-Forwarded-For`; the client address (rate limits, sessions, audit) is the nearest one not listed. `false` believes none',
  }),
  COOKIE_SECURE: setting({
    schema: bool.optional(),
    shown: 'on when `NODE_ENV=production` and `PUBLIC_URL` is https',
    about: 'Secure, `__Host-` prefixed cookies',
  }),
  SESSION_SECRET: setting({
    schema: z
      .string()
      .min(32, 'SESSION_SECRET must be at least 32 characters (e.g. openssl rand -base64 48)')
      .optional(),
    shown: 'generated, kept in the database (required in production)',
    about: 'Key for CSRF tokens (at least 32 characters); set it to share one across deployments',
  }),
  SESSION_IDLE_MINUTES: setting({
    schema: z.coerce.number().int().min(1).default(120),
    shown: '`120`',
    about: 'Sign-out after inactivity',
  }),
  SESSION_ABSOLUTE_HOURS: setting({
    schema: z.coerce
      .number()
      .int()
      .min(1)
      .default(24 * 7),
    shown: '`168`',
    about: 'Sign-out at the latest',
  }),
  SEED_DEMO: setting({
    schema: bool.default(true),
    shown: '`1` (must be `0` in production)',
    about:
      'On the first start, seed the demo data (levels, state requirements, banners, the GEN 5271 roster, the demo discount codes, demo users). `0` seeds only the reference data and an admin (in production: no user, see `npm run admin:create`)',
  }),
  ADMIN_EMAIL: setting({
    schema: z.string().email().optional(),
    shown: '`admin@goodstanding.local`',
    about: 'E-mail address of the first admin, created on the first start outside production',
  }),
  ADMIN_PASSWORD: setting({
    schema: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
    shown: 'random',
    about: 'Password of the first admin (production refuses `ADMIN_PASSWORD`)',
  }),
  DEMO_EMAIL: setting({
    schema: z.string().email().optional(),
    shown: '`demo@goodstanding.local`',
    about: 'E-mail address of the demo account holder',
  }),
  DEMO_PASSWORD: setting({
    schema: z.string().min(8, 'DEMO_PASSWORD must be at least 8 characters').optional(),
    shown: 'random',
    about: 'Password of the demo account holder',
  }),
  STAFF_EMAIL: setting({
    schema: z.string().email().default('staff@goodstanding.local'),
    shown: '`staff@goodstanding.local`',
    about: 'Where public form submissions are mailed',
  }),
  MAIL_FROM: setting({
    schema: z.string().default('GoodStanding <no-reply@goodstanding.local>'),
    shown: '`GoodStanding <no-reply@goodstanding.local>`',
    about: 'Sender of every mail',
  }),
  SMTP_URL: setting({
    schema: z
      .string()
      .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
      .optional(),
    shown: '— (required in production)',
    about:
      '`smtp://user:pass@host:587` or `smtps://…:465`. Without it mails are kept in the outbox (Admin → Mail outbox), where staff can read them whole. With it, staff see a waiting reset or application mail with its link hidden, and once sent such a mail keeps only a note (docs/security.md "Outbox")',
  }),
  MAIL_POLL_MS: setting({
    schema: z.coerce.number().int().min(50).default(5000),
    shown: '`5000`',
    about: 'How often the outbox is sent',
  }),
  MAIL_LEASE_SECONDS: setting({
    schema: z.coerce
      .number({ message: 'MAIL_LEASE_SECONDS must be a whole number of seconds' })
      .int('MAIL_LEASE_SECONDS must be a whole number of seconds')
      .min(1, 'MAIL_LEASE_SECONDS must be at least 1 second')
      .max(3600, 'MAIL_LEASE_SECONDS must be at most 3600 (an hour)')
      .default(300),
    shown: '`300`',
    about:
      "How long a delivery round's claim on a mail holds without its heartbeat (1–3600): a slow send is never taken by a second server, and a server that died mid-send leaves its mails to the others after at most this long ([mail.md](mail.md))",
  }),
  RECAPTCHA_SITE_KEY: setting({
    schema: z.string().optional(),
    shown: '— (captcha off; required in production)',
    about: 'With `RECAPTCHA_SECRET`, turns on the invisible reCAPTCHA on every public form; verification fails closed',
  }),
  RECAPTCHA_SECRET: setting({
    schema: z.string().optional(),
    shown: '— (captcha off; required in production)',
    about: 'The secret key of that reCAPTCHA site, for the verification; required when `RECAPTCHA_SITE_KEY` is set',
  }),
  RECAPTCHA_VERIFY_URL: setting({
    schema: z.string().url().default('https://www.google.com/recaptcha/api/siteverify'),
    shown: "Google's siteverify",
    about: 'The verify endpoint',
  }),
  RECAPTCHA_MIN_SCORE: setting({
    schema: z.coerce.number().min(0).max(1).default(0.5),
    shown: '`0.5`',
    about: 'The v3 score needed',
  }),
  RATE_LIMIT_FORMS_PER_MINUTE: setting({
    schema: z.coerce.number().int().min(1).default(10),
    shown: '`10`',
    about: 'Public form submissions per address per minute (429 past it)',
  }),
  RATE_LIMIT_LOGIN_PER_MINUTE: setting({
    schema: z.coerce.number().int().min(1).default(10),
    shown: '`10`',
    about:
      'Sign-in attempts per address per minute (password reset: half; adding and saving account users, which check the current password, the same again: docs/roles.md)',
  }),
  RATE_LIMIT_SEARCH_PER_MINUTE: setting({
    schema: z.coerce.number().int().min(1).default(240),
    shown: '`240`',
    about: 'Subordinate searches per address per minute',
  }),
  RATE_LIMIT_DISCOUNT_PER_MINUTE: setting({
    schema: z.coerce.number().int().min(1).default(20),
    shown: '`20`',
    about: 'Discount-code reserves (`POST /app/discount/reserve`) per address per minute',
  }),
  RATE_LIMIT_STORE: setting({
    schema: z.enum(['memory', 'database']).optional(),
    shown: '`database` when `DATABASE_URL` is set, otherwise `memory`',
    about:
      'Where rate-limit hits are counted: `database` (table `rate_limits`; one upsert counts the hits that arrived while the previous one ran) makes every server on the database count together; `memory` counts in each process. The search and the routing-number lookup always count per process',
  }),
  ...limitSettings(),
  BYLAWS_SHORT_BRAND: setting({
    schema: z.string().min(1).default('BoosterBasics'),
    shown: '`BoosterBasics`',
    about: 'The brand the short bylaws variant is published under',
  }),
  PUBLIC_SITE_REACHABLE: setting({
    schema: bool.optional(),
    shown: 'on when `PUBLIC_URL` is a public host',
    about:
      'Offer the online office-document viewer for generated bylaws (it must fetch the file from the internet); otherwise the built-in preview opens',
  }),
  OFFICE_VIEWER_URL: setting({
    schema: z.string().url().default('https://view.officeapps.live.com/op/view.aspx'),
    shown: "Microsoft's Office Online viewer",
    about: 'The viewer that opens `?src=<download address>`',
  }),
  STORAGE_DIR: setting({
    schema: z.string().optional(),
    shown: '`$DATA_DIR/files`',
    about: 'Where uploaded files are kept, under random names, outside the web root',
  }),
  STORAGE_DRIVER: setting({
    schema: z.enum(['disk', 's3']).default('disk'),
    shown: '`disk`',
    about:
      '`disk` keeps uploads under `STORAGE_DIR`; `s3` keeps them in an S3 (or S3-compatible) bucket, so several servers share them',
  }),
  S3_BUCKET: setting({
    schema: z.string().optional(),
    shown: '— (required when `STORAGE_DRIVER=s3`)',
    about:
      "The bucket; keep it private (files are served only through the app's checked routes). A lifecycle rule that aborts incomplete multipart uploads after a day is a good safety net",
  }),
  S3_REGION: setting({ schema: z.string().default('us-east-1'), shown: '`us-east-1`', about: "The bucket's region" }),
  S3_ENDPOINT: setting({
    schema: z
      .string()
      .url()
      .regex(/^https?:\/\//, 'S3_ENDPOINT must start with http:// or https://')
      .optional(),
    shown: '— (AWS)',
    about: 'Base URL of an S3-compatible service, e.g. `http://127.0.0.1:9000` for MinIO',
  }),
  S3_ACCESS_KEY_ID: setting({
    schema: z.string().optional(),
    shown: "— (the AWS SDK's default credential chain: environment, profile, instance or task role)",
    about: 'The access key id; with `S3_SECRET_ACCESS_KEY`, both or neither',
  }),
  S3_SECRET_ACCESS_KEY: setting({
    schema: z.string().optional(),
    shown: "— (the AWS SDK's default credential chain)",
    about: 'The secret access key; with `S3_ACCESS_KEY_ID`, both or neither',
  }),
  S3_FORCE_PATH_STYLE: setting({
    schema: bool.optional(),
    shown: 'on when `S3_ENDPOINT` is set',
    about: 'Address objects as `endpoint/bucket/key` instead of `bucket.endpoint/key`',
  }),
  UPLOAD_MAX_DOCUMENT_MB: setting({
    schema: z.coerce.number().positive().default(20),
    shown: '`20`',
    about: 'Largest upload of an application document, in MB',
  }),
  UPLOAD_MAX_PHOTO_MB: setting({
    schema: z.coerce.number().positive().default(20),
    shown: '`20`',
    about: 'Largest upload of a contest photo, in MB',
  }),
  UPLOAD_MAX_VIDEO_MB: setting({
    schema: z.coerce.number().positive().default(500),
    shown: '`500`',
    about: 'Largest upload of a contest video, in MB',
  }),
  UPLOAD_MAX_ROSTER_MB: setting({
    schema: z.coerce.number().positive().default(100),
    shown: '`100`',
    about: 'Largest upload of a roster, in MB',
  }),
  UPLOAD_MAX_IMAGE_MB: setting({
    schema: z.coerce.number().positive().default(5),
    shown: '`5`',
    about: 'Largest upload of a header image, in MB',
  }),
  CONTEST_UPLOADS_PER_ADDRESS_PER_DAY: setting({
    schema: z.coerce.number().int().min(0).default(10),
    shown: '`10`',
    about:
      'Daily quota of the anonymous contest uploads per entry e-mail address (UTC day): files the server began to store. Past it the entry answers 429 "You have reached today\'s upload limit …" (docs/security.md "Upload quotas"); `0` closes uploads',
  }),
  CONTEST_UPLOAD_MB_PER_ADDRESS_PER_DAY: setting({
    schema: z.coerce.number().min(0).default(1024),
    shown: '`1024`',
    about: 'The same quota in megabytes: the size of those files together, 429 past it as above; `0` closes uploads',
  }),
  CONTEST_UPLOADS_PER_IP_PER_DAY: setting({
    schema: z.coerce.number().int().min(0).default(30),
    shown: '`30`',
    about:
      'The files quota per client address (behind a proxy, the address `TRUST_PROXY` gives), as `CONTEST_UPLOADS_PER_ADDRESS_PER_DAY`',
  }),
  CONTEST_UPLOAD_MB_PER_IP_PER_DAY: setting({
    schema: z.coerce.number().min(0).default(3072),
    shown: '`3072`',
    about:
      'The megabytes quota per client address (behind a proxy, the address `TRUST_PROXY` gives), as `CONTEST_UPLOAD_MB_PER_ADDRESS_PER_DAY`',
  }),
  PAYMENT_GATEWAY: setting({
    schema: z.enum(['simulator', 'authorize-net']).default('simulator'),
    shown: '`simulator` (refused in production)',
    about:
      '`simulator` serves a local Authorize.Net stand-in from this app under `/gateway-simulator` (Accept.js, tokenizer, `xml/v1/request.api`) with credentials generated at each start; the server charges through its own listening address (`http://127.0.0.1:$PORT`, or `$HOST:$PORT` when `HOST` is a specific address). Test cards such as 4111 1111 1111 1111 approve; zip 46282 declines, zip 46205 is held for review, eChecks above $100 decline, $13.13 never answers. `authorize-net` charges through the real gateway',
  }),
  AUTHORIZE_NET_API_LOGIN_ID: setting({
    schema: z.string().optional(),
    shown: '— (required when `PAYMENT_GATEWAY=authorize-net`)',
    about: "The merchant's API login id",
  }),
  AUTHORIZE_NET_TRANSACTION_KEY: setting({
    schema: z.string().optional(),
    shown: '— (required when `PAYMENT_GATEWAY=authorize-net`)',
    about: "The merchant's transaction key (secret, never logged)",
  }),
  AUTHORIZE_NET_CLIENT_KEY: setting({
    schema: z.string().optional(),
    shown: '— (required when `PAYMENT_GATEWAY=authorize-net`)',
    about: "The merchant's Accept.js public client key",
  }),
  AUTHORIZE_NET_ENDPOINT: setting({
    schema: z
      .string()
      .url()
      .regex(/^https?:\/\//, 'AUTHORIZE_NET_ENDPOINT must start with http:// or https://')
      .optional(),
    shown:
      'the sandbox (`https://apitest.authorize.net/xml/v1/request.api`); production (`https://api2.authorize.net/…`) when `NODE_ENV=production`',
    about: 'The createTransactionRequest address',
  }),
  PAYMENT_TIMEOUT_MS: setting({
    schema: z.coerce.number().int().min(100).max(120_000).default(30_000),
    shown: '`30000`',
    about:
      'Longest wait for one gateway answer; past it the payment stays `pending`, holding its invoices (never retried, never charged twice) until the reconciliation settles it',
  }),
  RECONCILE_INTERVAL_MINUTES: setting({
    schema: z.coerce.number().int().min(0).max(1440).default(10),
    shown: '`10`',
    about:
      'How often the servers (once per interval across all of them, docs/jobs.md) ask the gateway about held and pending payments and looks for charges no payment accounts for (`0`: only staff\'s "Check with the gateway now"); see [payments.md](payments.md)',
  }),
  RENEWAL_DISCOUNT_EXTENSION_DAYS: setting({
    schema: z.coerce.number().int().min(0).max(365).default(0),
    shown: '`0`',
    about:
      "Days past an account's renewal date during which the early-bird renewal prices still apply (docs/requirements/constants.md)",
  }),
  WEB_DEV_SERVER: setting({
    schema: bool.default(false),
    shown: '`0`',
    about:
      "`1` (set by `npm run dev`) serves the web client from its sources through Vite's development server inside the server, with hot reload, instead of the build; refused when `NODE_ENV=production` ([decision 012](decisions/012-server-rendering-and-dev-loop.md))",
  }),
  WEB_DIST_DIR: setting({
    schema: z.string().default('./dist/web'),
    shown: '`./dist/web`',
    about: 'The built web client the server serves (`npm run build` writes it there)',
  }),
  REMINDERS_ENABLED: setting({
    schema: bool.default(true),
    shown: '`1`',
    about:
      "The daily compliance reminder job (once per UTC day, from midnight UTC; a server starting later that day runs it a minute after start if no server has yet; docs/jobs.md): mails an account's primary user 30 and 7 days before its Form 990 and renewal due dates, once each, and after a missed Form 990 due date the day after and every 30 days until the return is seen (docs/irs-standing.md), through the outbox. Service mail: sent whatever the user's mail subscriptions; skipped for a Form 990 year already recorded as filed. `0` turns it off",
  }),
  RETAIN_SENT_MAIL_DAYS: setting({
    schema: retention('RETAIN_SENT_MAIL_DAYS', 'days', 90, 1, 36_500),
    shown: '`90`',
    about:
      'Sent mails keep their text this many days, then only subject, recipient and dates ([retention.md](retention.md)); `0` turns a rule off, as for every `RETAIN_*` setting',
  }),
  RETAIN_EXPIRED_TOKENS_DAYS: setting({
    schema: retention('RETAIN_EXPIRED_TOKENS_DAYS', 'days', 30, 1, 36_500),
    shown: '`30`',
    about: 'Password reset tokens and sessions are deleted this many days after they expired',
  }),
  RETAIN_DRAFT_DAYS: setting({
    schema: retention('RETAIN_DRAFT_DAYS', 'days', 365, 30, 36_500),
    shown: '`365`',
    about: 'Applications never submitted and untouched this many days are deleted with their documents (at least 30)',
  }),
  RETAIN_INQUIRY_DAYS: setting({
    schema: retention('RETAIN_INQUIRY_DAYS', 'days', 1095, 1, 36_500),
    shown: '`1095`',
    about: 'Public form submissions are deleted this many days after they arrived',
  }),
  RETAIN_RATING_DAYS: setting({
    schema: retention('RETAIN_RATING_DAYS', 'days', 1095, 1, 36_500),
    shown: '`1095`',
    about: 'Page ratings are deleted this many days after they were given',
  }),
  RETAIN_AUDIT_YEARS: setting({
    schema: retention('RETAIN_AUDIT_YEARS', 'years', 7, 7, 100),
    shown: '`7`',
    about:
      "Audit rows are deleted this many years after they were written (at least 7), a payment's trail only once its money last moved that long ago",
  }),
  RETAIN_ORPHAN_FILE_HOURS: setting({
    schema: retention('RETAIN_ORPHAN_FILE_HOURS', 'hours', 24, 24, 87_600),
    shown: '`24`',
    about: 'Stored files no row names are removed once this many hours old (at least 24)',
  }),
  RETAIN_BULK_CHECK_DAYS: setting({
    schema: retention('RETAIN_BULK_CHECK_DAYS', 'days', 30, 1, 36_500),
    shown: '`30`',
    about:
      'Checks of a list of EINs (Admin → Standing check (CSV)), with their result CSV, are deleted this many days after they finished ([irs-standing.md](irs-standing.md#checking-a-list-of-eins))',
  }),
  JOBS_SCHEMA: setting({
    schema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'JOBS_SCHEMA must be a lower-case PostgreSQL schema name (letters, digits, _)')
      .default('pgboss'),
    shown: '`pgboss`',
    about:
      'With `DATABASE_URL`: the PostgreSQL schema where the job library (pg-boss) keeps its queues and schedules, created at start (docs/jobs.md). Lower-case letters, digits and `_`. Unused on the embedded database',
  }),
  IRS_DOWNLOAD: setting({
    schema: onOff.default(false),
    shown: '`off` (`on` required in production unless `IRS_DATA_DIR` is set)',
    about:
      '`on`: the daily IRS data refresh downloads the IRS\'s own files from the addresses below, only when changed since the last load (conditional requests), and loads each as a release dated by its `Last-Modified` day (US Eastern time); `off` needs no network ([irs-data.md "Refresh"](irs-data.md#refresh))',
  }),
  IRS_BMF_URLS: setting({
    schema: z
      .string()
      .refine(
        (v) => v.trim() === 'off' || v.split(',').every((u) => isHttpUrl(u.trim())),
        'IRS_BMF_URLS must be http(s) addresses separated by commas, or off',
      )
      .default(IRS_ADDRESSES.bmf),
    shown: '`https://www.irs.gov/pub/irs-soi/eo1.csv` … `eo4.csv` (four, comma-separated)',
    about:
      'The EO BMF extracts to download (plain CSV), comma-separated; `off` leaves the BMF out. https only in production',
  }),
  IRS_EPOSTCARD_URL: setting({
    schema: irsAddress('IRS_EPOSTCARD_URL', IRS_ADDRESSES.epostcard),
    shown: '`https://apps.irs.gov/pub/epostcard/data-download-epostcard.zip`',
    about:
      'The Form 990-N (e-Postcard) data; an address ending in `.zip` is unzipped (one file inside). `off` leaves it out',
  }),
  IRS_REVOCATIONS_URL: setting({
    schema: irsAddress('IRS_REVOCATIONS_URL', IRS_ADDRESSES.revocations),
    shown: '`https://apps.irs.gov/pub/epostcard/data-download-revocation.zip`',
    about: 'The Automatic Revocation List (zip); `off` leaves it out',
  }),
  IRS_PUB78_URL: setting({
    schema: irsAddress('IRS_PUB78_URL', IRS_ADDRESSES.pub78),
    shown: '`https://apps.irs.gov/pub/epostcard/data-download-pub78.zip`',
    about: 'The Publication 78 data (zip); `off` leaves it out',
  }),
  IRS_DOWNLOAD_TIMEOUT_MS: setting({
    schema: z.coerce
      .number({ message: 'IRS_DOWNLOAD_TIMEOUT_MS must be a whole number of milliseconds' })
      .int('IRS_DOWNLOAD_TIMEOUT_MS must be a whole number of milliseconds')
      .min(1_000, 'IRS_DOWNLOAD_TIMEOUT_MS must be at least 1000 (milliseconds)')
      .max(3_600_000, 'IRS_DOWNLOAD_TIMEOUT_MS must be at most 3600000 (an hour)')
      .default(60_000),
    shown: '`60000`',
    about:
      'A download try gives up when the IRS server sends nothing (no answer, or no next piece of the file) for this long (1000–3600000)',
  }),
  IRS_DOWNLOAD_RETRIES: setting({
    schema: z.coerce
      .number({ message: 'IRS_DOWNLOAD_RETRIES must be a whole number from 0 to 10' })
      .int('IRS_DOWNLOAD_RETRIES must be a whole number from 0 to 10')
      .min(0, 'IRS_DOWNLOAD_RETRIES must be a whole number from 0 to 10')
      .max(10, 'IRS_DOWNLOAD_RETRIES must be a whole number from 0 to 10')
      .default(3),
    shown: '`3`',
    about:
      "More tries after a network error, a timeout, a download cut short, 408, 429 or 5xx (0–10). Then the run fails with the reason, and the job's own retry comes later",
  }),
  IRS_DOWNLOAD_RETRY_DELAY_MS: setting({
    schema: z.coerce
      .number({ message: 'IRS_DOWNLOAD_RETRY_DELAY_MS must be a whole number of milliseconds' })
      .int('IRS_DOWNLOAD_RETRY_DELAY_MS must be a whole number of milliseconds')
      .min(0, 'IRS_DOWNLOAD_RETRY_DELAY_MS must be 0 or more milliseconds')
      .max(600_000, 'IRS_DOWNLOAD_RETRY_DELAY_MS must be at most 600000 (10 minutes)')
      .default(30_000),
    shown: '`30000`',
    about:
      'The first of those tries comes after this many milliseconds, each next one after twice as long (a longer `Retry-After` wins)',
  }),
  IRS_DOWNLOAD_MAX_MB: setting({
    schema: z.coerce
      .number({ message: 'IRS_DOWNLOAD_MAX_MB must be a whole number of megabytes' })
      .int('IRS_DOWNLOAD_MAX_MB must be a whole number of megabytes')
      .min(1, 'IRS_DOWNLOAD_MAX_MB must be at least 1')
      .max(65_536, 'IRS_DOWNLOAD_MAX_MB must be at most 65536 (64 GB)')
      .default(2_048),
    shown: '`2048`',
    about:
      "Largest download, and largest file unzipped from one (a zip bomb is refused at its entry's declared size and while inflating)",
  }),
  IRS_DATA_DIR: setting({
    schema: z.string().optional(),
    shown: '— (with `IRS_DOWNLOAD` off, the IRS data refresh does nothing)',
    about:
      'A folder the daily IRS data refresh job loads new IRS releases from (the offline path, with or without `IRS_DOWNLOAD`): `bmf/`, `epostcard/`, `revocations/` and `pub78/`, each with a folder per release date (`2026-10-06/`), as `npm run import:irs` would; a file is loaded once, known by its SHA-256 (docs/irs-data.md)',
  }),
  ROUTING_LOOKUP_URL: setting({
    schema: z
      .string()
      .url()
      .regex(/^https?:\/\//, 'ROUTING_LOOKUP_URL must start with http:// or https://')
      .optional(),
    shown: 'the built-in lookup at `/routing-numbers/data.json` on the address the site was opened at',
    about:
      "The routing-number lookup the bank form asks by JSONP (`?rn=…&callback=…`, answering `code`, `message`, `customer_name`), e.g. `https://www.routingnumbers.info/api/data.json`; another origin is added to the CSP `script-src`. The built-in one needs no network: it knows about two dozen banks (the big national ones and 111000025, the Authorize.Net sandbox number) and only checks the ABA checksum of other numbers, answering 200 without a bank name for those that pass (a non-200 answer is shown as the field's error, docs/requirements/validation.md)",
  }),
  LOG_LEVEL: setting({
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    shown: '`info`',
    about:
      'pino level; logs are JSON and never carry passwords, tokens or cookies (addresses are logged with their tokens redacted: docs/security.md "Logs")',
  }),
  DATABASE_CONNECT_TIMEOUT_MS: setting({
    schema: z.coerce
      .number()
      .int()
      .min(100, 'DATABASE_CONNECT_TIMEOUT_MS must be at least 100 (milliseconds)')
      .max(600_000)
      .default(5_000),
    shown: '`5000`',
    about: `Limit of the PostgreSQL connections: the wait for a pool connection; see ${DEPLOY_TIMEOUTS}`,
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: setting({
    schema: z.coerce
      .number()
      .int()
      .min(0, 'DATABASE_STATEMENT_TIMEOUT_MS must be 0 (no limit) or more milliseconds')
      .max(86_400_000)
      .default(30_000),
    shown: '`30000`',
    about: `Limit of the PostgreSQL connections: their \`statement_timeout\` (\`0\`: no limit); see ${DEPLOY_TIMEOUTS}`,
  }),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: setting({
    schema: z.coerce
      .number()
      .int()
      .min(0, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS must be 0 (no limit) or more milliseconds')
      .max(86_400_000)
      .default(60_000),
    shown: '`60000`',
    about: `Limit of the PostgreSQL connections: their \`idle_in_transaction_session_timeout\` (\`0\`: no limit); see ${DEPLOY_TIMEOUTS}`,
  }),
  DATABASE_IDLE_TIMEOUT_MS: setting({
    schema: z.coerce
      .number()
      .int()
      .min(0, 'DATABASE_IDLE_TIMEOUT_MS must be 0 (never closed) or more milliseconds')
      .max(86_400_000)
      .default(30_000),
    shown: '`30000`',
    about: `Limit of the PostgreSQL connections: how long an unused pooled connection stays open (\`0\`: never closed); see ${DEPLOY_TIMEOUTS}`,
  }),
  REQUEST_TIMEOUT_MS: setting({
    schema: z.coerce
      .number()
      .int()
      .min(0, 'REQUEST_TIMEOUT_MS must be 0 (no limit) or more milliseconds')
      .max(86_400_000)
      .default(300_000),
    shown: '`300000`',
    about: `Fastify's request timeout (${DEPLOY_TIMEOUTS})`,
  }),
  KEEP_ALIVE_TIMEOUT_MS: setting({
    schema: z.coerce
      .number()
      .int()
      .min(1_000, 'KEEP_ALIVE_TIMEOUT_MS must be at least 1000 (milliseconds)')
      .max(3_600_000)
      .default(72_000),
    shown: '`72000`',
    about: `Fastify's keep-alive timeout (${DEPLOY_TIMEOUTS})`,
  }),
  MIGRATION_LOCK_TIMEOUT_SECONDS: setting({
    schema: z.coerce
      .number()
      .int()
      .min(1, 'MIGRATION_LOCK_TIMEOUT_SECONDS must be at least 1')
      .max(86_400)
      .default(600),
    shown: '`600`',
    about: "How long a starting server waits for another one's migrations before it gives up",
  }),
  METRICS_TOKEN: setting({
    schema: z
      .string()
      .regex(/^[\x21-\x7e]+$/, 'METRICS_TOKEN must be printable ASCII without spaces')
      .optional(),
    shown: '—',
    about:
      'Turns on `GET /metrics` (Prometheus) behind this bearer token, 32+ characters in production ([deploy.md "Observability"](deploy.md#observability))',
  }),
  SENTRY_DSN: setting({
    schema: z
      .string()
      .url('SENTRY_DSN must be the DSN Sentry shows, e.g. https://public@o1.ingest.sentry.io/2')
      .regex(/^https?:\/\//, 'SENTRY_DSN must start with https:// or http://')
      .optional(),
    shown: '—',
    about: 'Sends unexpected errors to Sentry, tagged with the request id, without cookies or secrets',
  }),
};
