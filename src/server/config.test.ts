import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/** A complete production environment: the real gateway, captcha and mail, no demo, a secret, https. */
const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://goodstanding.example',
  SESSION_SECRET: 'k'.repeat(24) + 'production-secret',
  SEED_DEMO: '0',
  SMTP_URL: 'smtps://mailer:secret@smtp.example:465',
  RECAPTCHA_SITE_KEY: 'site-key',
  RECAPTCHA_SECRET: 'captcha-secret',
  PAYMENT_GATEWAY: 'authorize-net',
  AUTHORIZE_NET_API_LOGIN_ID: 'login',
  AUTHORIZE_NET_TRANSACTION_KEY: 'txkey',
  AUTHORIZE_NET_CLIENT_KEY: 'client',
  IRS_DOWNLOAD: 'on',
};

/** The ConfigError's message for `env`. @throws when loadConfig does not throw ConfigError */
function refusal(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has defaults that run the product locally', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.captcha.secret).toBeUndefined();
    expect(c.cookieSecure).toBe(false);
    expect(c.seedDemo).toBe(true);
    expect(c.pgliteSharedBuffersMb).toBe(32);
    expect(c.shutdownTimeoutMs).toBe(8_000);
  });

  it("takes the embedded database's page cache and the shutdown wait in bounds, naming a bad value", () => {
    expect(loadConfig({ PGLITE_SHARED_BUFFERS_MB: '16', SHUTDOWN_TIMEOUT_MS: '5000' })).toMatchObject({
      pgliteSharedBuffersMb: 16,
      shutdownTimeoutMs: 5_000,
    });
    expect(() => loadConfig({ PGLITE_SHARED_BUFFERS_MB: '0' })).toThrow(/PGLITE_SHARED_BUFFERS_MB: /);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '120000' })).toThrow(/SHUTDOWN_TIMEOUT_MS: /);
  });

  it('holds an outbox mail for 5 minutes without a heartbeat unless MAIL_LEASE_SECONDS says otherwise (1 to 3600)', () => {
    expect(loadConfig({}).mail.leaseSeconds).toBe(300);
    expect(loadConfig({ MAIL_LEASE_SECONDS: '1' }).mail.leaseSeconds).toBe(1);
    expect(refusal({ MAIL_LEASE_SECONDS: '0' })).toContain(
      'MAIL_LEASE_SECONDS: MAIL_LEASE_SECONDS must be at least 1 second',
    );
    expect(refusal({ MAIL_LEASE_SECONDS: '1.5' })).toContain('MAIL_LEASE_SECONDS must be a whole number of seconds');
    expect(refusal({ MAIL_LEASE_SECONDS: '7200' })).toContain('MAIL_LEASE_SECONDS must be at most 3600');
  });

  it('keeps data as docs/retention.md says by default; 0 turns a rule off; limits below the floors are refused', () => {
    expect(loadConfig({}).retention).toEqual({
      sentMailDays: 90,
      expiredTokenDays: 30,
      draftDays: 365,
      inquiryDays: 1095,
      ratingDays: 1095,
      auditYears: 7,
      orphanFileHours: 24,
      bulkCheckDays: 30,
    });
    expect(
      loadConfig({ RETAIN_AUDIT_YEARS: '0', RETAIN_SENT_MAIL_DAYS: '0', RETAIN_DRAFT_DAYS: '30' }).retention,
    ).toMatchObject({ auditYears: 0, sentMailDays: 0, draftDays: 30 });
    expect(refusal({ RETAIN_AUDIT_YEARS: '3' })).toContain(
      'RETAIN_AUDIT_YEARS must be 0 (keep everything) or a whole number of years from 7 to 100',
    );
    expect(refusal({ RETAIN_DRAFT_DAYS: '7' })).toContain(
      'RETAIN_DRAFT_DAYS must be 0 (keep everything) or a whole number of days from 30',
    );
    expect(refusal({ RETAIN_ORPHAN_FILE_HOURS: '1' })).toContain(
      'RETAIN_ORPHAN_FILE_HOURS must be 0 (keep everything) or a whole number of hours from 24',
    );
    expect(refusal({ RETAIN_INQUIRY_DAYS: 'forever' })).toContain('RETAIN_INQUIRY_DAYS must be 0');
    expect(loadConfig({ RETAIN_BULK_CHECK_DAYS: '0' }).retention.bulkCheckDays).toBe(0);
    expect(refusal({ RETAIN_BULK_CHECK_DAYS: '7.5' })).toContain(
      'RETAIN_BULK_CHECK_DAYS must be 0 (keep everything) or a whole number of days from 1 to 36500',
    );
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/DATABASE_URL must start with postgres:\/\//);
    }
  });

  it('requires the captcha secret with the site key, and turns on secure cookies for https in production', () => {
    expect(() => loadConfig({ RECAPTCHA_SITE_KEY: 'k' })).toThrow(/RECAPTCHA_SECRET/);
    const c = loadConfig({ ...PRODUCTION, PUBLIC_URL: 'https://goodstanding.example/' });
    expect(c.cookieSecure).toBe(true);
    expect(c.publicUrl).toBe('https://goodstanding.example');
  });

  it('offers the online document viewer only when the public address is reachable from the internet', () => {
    const viewer = 'https://view.officeapps.live.com/op/view.aspx';
    expect(loadConfig({ PUBLIC_URL: 'https://goodstanding.example' }).bylaws.viewerUrl).toBe(viewer);
    for (const url of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://192.168.1.20',
      'http://10.0.0.5',
      'http://172.20.0.2',
      'http://app.local',
      'http://[::1]:3000',
    ]) {
      expect(loadConfig({ PUBLIC_URL: url }).bylaws.viewerUrl, url).toBeNull();
    }
    expect(loadConfig({}).bylaws.viewerUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://fcbooster.example' }).bylaws.viewerUrl).toBe(viewer);
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000', PUBLIC_SITE_REACHABLE: '1' }).bylaws.viewerUrl).toBe(
      viewer,
    );
    expect(
      loadConfig({ PUBLIC_URL: 'https://goodstanding.example', PUBLIC_SITE_REACHABLE: '0' }).bylaws.viewerUrl,
    ).toBeNull();
    expect(loadConfig({ BYLAWS_SHORT_BRAND: 'ClubBasics' }).bylaws.shortBrand).toBe('ClubBasics');
  });

  it('keeps the job library in the pgboss schema by default, refuses a schema name it cannot use, and resolves IRS_DATA_DIR', () => {
    expect(loadConfig({}).jobs).toEqual({ bossSchema: 'pgboss', irsDataDir: undefined });
    expect(loadConfig({ JOBS_SCHEMA: 'jobs_app1', IRS_DATA_DIR: 'irs' }).jobs).toEqual({
      bossSchema: 'jobs_app1',
      irsDataDir: path.resolve('irs'),
    });
    expect(() => loadConfig({ JOBS_SCHEMA: 'Jobs; DROP' })).toThrow(
      /JOBS_SCHEMA must be a lower-case PostgreSQL schema name/,
    );
  });

  it("downloads nothing by default; IRS_DOWNLOAD=on takes the IRS's published addresses unless told others", () => {
    expect(loadConfig({}).irsDownload).toEqual({
      enabled: false,
      sources: [
        { dataset: 'bmf', url: 'https://www.irs.gov/pub/irs-soi/eo1.csv' },
        { dataset: 'bmf', url: 'https://www.irs.gov/pub/irs-soi/eo2.csv' },
        { dataset: 'bmf', url: 'https://www.irs.gov/pub/irs-soi/eo3.csv' },
        { dataset: 'bmf', url: 'https://www.irs.gov/pub/irs-soi/eo4.csv' },
        { dataset: 'epostcard', url: 'https://apps.irs.gov/pub/epostcard/data-download-epostcard.zip' },
        { dataset: 'revocations', url: 'https://apps.irs.gov/pub/epostcard/data-download-revocation.zip' },
        { dataset: 'pub78', url: 'https://apps.irs.gov/pub/epostcard/data-download-pub78.zip' },
      ],
      timeoutMs: 60_000,
      retries: 3,
      retryDelayMs: 30_000,
      maxBytes: 2048 * 1024 * 1024,
    });
    const c = loadConfig({
      IRS_DOWNLOAD: 'on',
      IRS_BMF_URLS: 'https://mirror.example/eo1.csv, https://mirror.example/eo2.csv',
      IRS_EPOSTCARD_URL: 'off',
      IRS_REVOCATIONS_URL: 'https://mirror.example/revocation.zip',
      IRS_DOWNLOAD_TIMEOUT_MS: '5000',
      IRS_DOWNLOAD_RETRIES: '0',
      IRS_DOWNLOAD_RETRY_DELAY_MS: '0',
      IRS_DOWNLOAD_MAX_MB: '100',
    }).irsDownload;
    expect(c).toEqual({
      enabled: true,
      sources: [
        { dataset: 'bmf', url: 'https://mirror.example/eo1.csv' },
        { dataset: 'bmf', url: 'https://mirror.example/eo2.csv' },
        { dataset: 'revocations', url: 'https://mirror.example/revocation.zip' },
        { dataset: 'pub78', url: 'https://apps.irs.gov/pub/epostcard/data-download-pub78.zip' },
      ],
      timeoutMs: 5_000,
      retries: 0,
      retryDelayMs: 0,
      maxBytes: 100 * 1024 * 1024,
    });
    expect(loadConfig({ IRS_DOWNLOAD: 'off', IRS_BMF_URLS: 'off' }).irsDownload).toMatchObject({
      enabled: false,
      sources: [{ dataset: 'epostcard' }, { dataset: 'revocations' }, { dataset: 'pub78' }],
    });
    const message = refusal({
      IRS_DOWNLOAD: 'sometimes',
      IRS_BMF_URLS: 'https://mirror.example/eo1.csv,ftp://mirror.example/eo2.csv',
      IRS_PUB78_URL: 'pub78.zip',
      IRS_DOWNLOAD_TIMEOUT_MS: '10',
      IRS_DOWNLOAD_RETRIES: '50',
      IRS_DOWNLOAD_MAX_MB: '0',
    });
    expect(message).toContain('IRS_DOWNLOAD: IRS_DOWNLOAD must be on or off');
    expect(message).toContain('IRS_BMF_URLS: IRS_BMF_URLS must be http(s) addresses separated by commas, or off');
    expect(message).toContain('IRS_PUB78_URL: IRS_PUB78_URL must be an http(s) address or off');
    expect(message).toContain('IRS_DOWNLOAD_TIMEOUT_MS must be at least 1000');
    expect(message).toContain('IRS_DOWNLOAD_RETRIES must be a whole number from 0 to 10');
    expect(message).toContain('IRS_DOWNLOAD_MAX_MB must be at least 1');
  });

  it('refuses a production whose IRS data refresh would load nothing, or would download over plain http', () => {
    const { IRS_DOWNLOAD: _on, ...noIrs } = PRODUCTION;
    expect(refusal(noIrs)).toMatch(
      /^ {2}IRS_DOWNLOAD: the daily IRS data refresh would load nothing, .*; set IRS_DOWNLOAD=on .* or IRS_DATA_DIR /m,
    );
    expect(refusal({ ...noIrs, IRS_DOWNLOAD: 'off' })).toMatch(/^ {2}IRS_DOWNLOAD: /m);
    expect(loadConfig({ ...noIrs, IRS_DATA_DIR: '/srv/irs' }).irsDownload.enabled).toBe(false);
    expect(loadConfig(PRODUCTION).irsDownload.enabled).toBe(true);
    expect(refusal({ ...PRODUCTION, IRS_EPOSTCARD_URL: 'http://apps.irs.gov/pub/epostcard/x.zip' })).toMatch(
      /^ {2}IRS_EPOSTCARD_URL: plain http; .*; set /m,
    );
  });

  it('keeps uploads on disk by default, under STORAGE_DIR or $DATA_DIR/files', () => {
    const c = loadConfig({ DATA_DIR: '/srv/gs' });
    expect(c.storage).toEqual({ driver: 'disk', dir: '/srv/gs/files', s3: undefined });
    expect(loadConfig({ STORAGE_DIR: '/mnt/uploads' }).storage.dir).toBe('/mnt/uploads');
  });

  it('fails fast naming S3_BUCKET when STORAGE_DRIVER=s3 has no bucket, and rejects unknown drivers', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET: required when STORAGE_DRIVER is s3/);
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: '' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER/);
  });

  it('s3 defaults: us-east-1, virtual-hosted style on AWS, the SDK credential chain', () => {
    const c = loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'gs-uploads' });
    expect(c.storage.driver).toBe('s3');
    expect(c.storage.s3).toEqual({
      bucket: 'gs-uploads',
      region: 'us-east-1',
      endpoint: undefined,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
    });
  });

  it('s3 with an endpoint turns on path-style unless told otherwise, and wants both keys or neither', () => {
    const env = {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'gs',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(env).storage.s3).toEqual({
      bucket: 'gs',
      region: 'eu-central-1',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(loadConfig({ ...env, S3_FORCE_PATH_STYLE: '0' }).storage.s3?.forcePathStyle).toBe(false);
    expect(
      loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'gs', S3_FORCE_PATH_STYLE: 'yes' }).storage.s3?.forcePathStyle,
    ).toBe(true);
    expect(() => loadConfig({ ...env, S3_SECRET_ACCESS_KEY: undefined })).toThrow(
      /S3_SECRET_ACCESS_KEY: required when S3_ACCESS_KEY_ID is set/,
    );
    expect(() => loadConfig({ ...env, S3_ACCESS_KEY_ID: undefined })).toThrow(
      /S3_ACCESS_KEY_ID: required when S3_SECRET_ACCESS_KEY is set/,
    );
    expect(() => loadConfig({ ...env, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
  });
  it('defaults to the local gateway simulator served by this process, with generated credentials', () => {
    const c = loadConfig({ PORT: '4100', PUBLIC_URL: 'https://gs.example/' });
    expect(c.payments).toMatchObject({
      gateway: 'simulator',
      endpoint: 'http://127.0.0.1:4100/gateway-simulator/xml/v1/request.api',
      // A path: the page loads it from whichever origin it was opened at, not from PUBLIC_URL.
      acceptJsUrl: '/gateway-simulator/Accept.js',
      timeoutMs: 30_000,
    });
    expect(c.payments.apiLoginId.length).toBeLessThanOrEqual(25);
    expect(c.payments.transactionKey).not.toBe(loadConfig({}).payments.transactionKey);
    expect(loadConfig({ HOST: '10.0.0.5', PORT: '8080' }).payments.endpoint).toBe(
      'http://10.0.0.5:8080/gateway-simulator/xml/v1/request.api',
    );
    expect(loadConfig({ PAYMENT_TIMEOUT_MS: '5000' }).payments.timeoutMs).toBe(5000);
  });

  it('points the routing-number lookup at the built-in one unless ROUTING_LOOKUP_URL says otherwise', () => {
    expect(loadConfig({}).routingLookupUrl).toBe('/routing-numbers/data.json');
    expect(loadConfig({ PUBLIC_URL: 'https://gs.example/' }).routingLookupUrl).toBe('/routing-numbers/data.json');
    expect(loadConfig({ ROUTING_LOOKUP_URL: 'https://www.routingnumbers.info/api/data.json' }).routingLookupUrl).toBe(
      'https://www.routingnumbers.info/api/data.json',
    );
    expect(() => loadConfig({ ROUTING_LOOKUP_URL: 'www.routingnumbers.info/api/data.json' })).toThrow(
      /ROUTING_LOOKUP_URL/,
    );
    expect(() => loadConfig({ ROUTING_LOOKUP_URL: 'javascript:alert(1)' })).toThrow(/ROUTING_LOOKUP_URL/);
  });

  it('authorize-net needs its three keys and defaults to the sandbox, production in production', () => {
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'authorize-net' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'authorize-net', AUTHORIZE_NET_API_LOGIN_ID: 'login' })).toThrow(
      /AUTHORIZE_NET_TRANSACTION_KEY: required when PAYMENT_GATEWAY is authorize-net[\s\S]*AUTHORIZE_NET_CLIENT_KEY/,
    );
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'paypal' })).toThrow(/PAYMENT_GATEWAY/);
    const keys = {
      PAYMENT_GATEWAY: 'authorize-net',
      AUTHORIZE_NET_API_LOGIN_ID: 'login',
      AUTHORIZE_NET_TRANSACTION_KEY: 'txkey',
      AUTHORIZE_NET_CLIENT_KEY: 'client',
    };
    expect(loadConfig(keys).payments).toEqual({
      gateway: 'authorize-net',
      endpoint: 'https://apitest.authorize.net/xml/v1/request.api',
      acceptJsUrl: 'https://jstest.authorize.net/v1/Accept.js',
      apiLoginId: 'login',
      transactionKey: 'txkey',
      clientKey: 'client',
      timeoutMs: 30_000,
      reconcileIntervalMinutes: 10,
    });
    expect(loadConfig({ ...keys, RECONCILE_INTERVAL_MINUTES: '0' }).payments.reconcileIntervalMinutes).toBe(0);
    expect(() => loadConfig({ ...keys, RECONCILE_INTERVAL_MINUTES: '-1' })).toThrow(/RECONCILE_INTERVAL_MINUTES/);
    expect(loadConfig({ ...PRODUCTION, ...keys }).payments.endpoint).toBe(
      'https://api2.authorize.net/xml/v1/request.api',
    );
    expect(
      loadConfig({ ...keys, AUTHORIZE_NET_ENDPOINT: 'http://127.0.0.1:9999/xml/v1/request.api' }).payments.endpoint,
    ).toBe('http://127.0.0.1:9999/xml/v1/request.api');
  });

  it('counts rate limits in the database when several processes share a PostgreSQL server', () => {
    expect(loadConfig({}).rateLimitStore).toBe('memory');
    expect(loadConfig({ DATABASE_URL: 'postgres://app@db:5432/gs' }).rateLimitStore).toBe('database');
    expect(loadConfig({ DATABASE_URL: 'postgres://app@db:5432/gs', RATE_LIMIT_STORE: 'memory' }).rateLimitStore).toBe(
      'memory',
    );
    expect(loadConfig({ RATE_LIMIT_STORE: 'database' }).rateLimitStore).toBe('database');
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(/RATE_LIMIT_STORE/);
  });

  it('sets each abuse limit from its LIMIT_* setting, its documented default otherwise, and refuses anything but a whole number of at least 1', () => {
    const defaults = loadConfig({}).limits;
    expect(defaults.invitations_per_address).toBe(3);
    expect(defaults.payment_declines_per_account).toBe(5);
    expect(defaults.address_checks_per_ip).toBe(30);
    expect(loadConfig({ LIMIT_INVITATIONS_PER_ADDRESS_PER_DAY: '2' }).limits.invitations_per_address).toBe(2);
    for (const bad of ['0', '-3', '2.5', 'many'])
      expect(() => loadConfig({ LIMIT_PAYMENT_DECLINES_PER_IP_PER_DAY: bad })).toThrow(
        'LIMIT_PAYMENT_DECLINES_PER_IP_PER_DAY: LIMIT_PAYMENT_DECLINES_PER_IP_PER_DAY must be a whole number of at least 1',
      );
  });

  it('believes X-Forwarded-* only from the proxies TRUST_PROXY names (private networks in production)', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig(PRODUCTION).trustProxy).toBe('loopback, linklocal, uniquelocal');
    expect(loadConfig({ ...PRODUCTION, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7, ::1, loopback' }).trustProxy).toBe(
      '10.0.0.0/8, 192.0.2.7, ::1, loopback',
    );
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.example', '1', '10.0.0.1/8/2']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be false, or addresses/);
    }
  });
});

describe('loadConfig in production', () => {
  it('starts with a complete production configuration', () => {
    const c = loadConfig(PRODUCTION);
    expect(c).toMatchObject({
      env: 'production',
      publicUrl: 'https://goodstanding.example',
      cookieSecure: true,
      seedDemo: false,
      sessionSecret: PRODUCTION.SESSION_SECRET,
      mail: { smtpUrl: 'smtps://mailer:secret@smtp.example:465' },
      captcha: { siteKey: 'site-key', secret: 'captcha-secret' },
      payments: { gateway: 'authorize-net', acceptJsUrl: 'https://js.authorize.net/v1/Accept.js' },
    });
  });

  it('refuses the defaults in one error naming every setting and what to set instead', () => {
    const message = refusal({ NODE_ENV: 'production' });
    expect(message).toMatch(/^NODE_ENV=production refuses to start with these settings:\n/);
    const lines = message
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim());
    expect(lines.map((l) => l.slice(0, l.indexOf(':')))).toEqual([
      'PAYMENT_GATEWAY',
      'RECAPTCHA_SITE_KEY, RECAPTCHA_SECRET',
      'SEED_DEMO',
      'SMTP_URL',
      'SESSION_SECRET',
      'PUBLIC_URL',
      'IRS_DOWNLOAD',
    ]);
    expect(message).toContain(
      'PAYMENT_GATEWAY: the local gateway simulator takes no real payments; set PAYMENT_GATEWAY=authorize-net',
    );
    expect(message).toContain('set RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET');
    expect(message).toContain('SEED_DEMO: the first start would seed the demo account');
    expect(message).toContain('set SEED_DEMO=0');
    expect(message).toContain('SMTP_URL: required; without it mails only wait in the outbox');
    expect(message).toContain('SESSION_SECRET: required; set a random value of at least 32 characters');
    expect(message).toContain('PUBLIC_URL: required; set the https address');
    expect(message).toMatch(/See "Production settings" in docs\/configuration\.md\.$/);
  });

  it('refuses the development server of npm run dev, which a production install does not have', () => {
    expect(refusal({ ...PRODUCTION, WEB_DEV_SERVER: '1' })).toMatch(
      /^ {2}WEB_DEV_SERVER: serves the web client from its sources/m,
    );
    expect(loadConfig({ ...PRODUCTION, WEB_DEV_SERVER: '0' }).webDevServer).toBe(false);
    expect(loadConfig({ WEB_DEV_SERVER: '1' }).webDevServer).toBe(true);
  });

  it('names each refused setting on its own', () => {
    const without = (key: keyof typeof PRODUCTION) => ({ ...PRODUCTION, [key]: undefined });
    expect(refusal({ ...PRODUCTION, PAYMENT_GATEWAY: 'simulator' })).toMatch(
      /^ {2}PAYMENT_GATEWAY: the local gateway simulator/m,
    );
    expect(refusal(without('PAYMENT_GATEWAY'))).toMatch(/^ {2}PAYMENT_GATEWAY: /m);
    expect(refusal(without('RECAPTCHA_SECRET'))).toMatch(
      /^ {2}RECAPTCHA_SECRET: required; without both reCAPTCHA keys/m,
    );
    expect(refusal(without('RECAPTCHA_SITE_KEY'))).toMatch(
      /^ {2}RECAPTCHA_SITE_KEY: required; without both reCAPTCHA keys/m,
    );
    expect(refusal(without('SEED_DEMO'))).toMatch(/^ {2}SEED_DEMO: /m);
    expect(refusal({ ...PRODUCTION, SEED_DEMO: 'yes' })).toMatch(/^ {2}SEED_DEMO: /m);
    expect(refusal(without('SMTP_URL'))).toMatch(/^ {2}SMTP_URL: required/m);
    expect(refusal(without('SESSION_SECRET'))).toMatch(/^ {2}SESSION_SECRET: required/m);
    expect(refusal({ ...PRODUCTION, SESSION_SECRET: 'x'.repeat(31) })).toMatch(
      /^ {2}SESSION_SECRET: SESSION_SECRET must be at least 32 characters/m,
    );
    expect(refusal(without('PUBLIC_URL'))).toMatch(/^ {2}PUBLIC_URL: required/m);
    expect(refusal({ ...PRODUCTION, PUBLIC_URL: 'http://goodstanding.example' })).toMatch(
      /^ {2}PUBLIC_URL: must start with https:\/\//m,
    );
    expect(refusal({ ...PRODUCTION, ADMIN_PASSWORD: 'Chosen-admin-pass-1' })).toMatch(
      /^ {2}ADMIN_PASSWORD: production creates no user from the environment; .*npm run admin:create/m,
    );
    // An empty variable counts as unset.
    expect(refusal({ ...PRODUCTION, SESSION_SECRET: '' })).toMatch(/^ {2}SESSION_SECRET: required/m);
    // Each refusal names only what is wrong.
    expect(
      refusal(without('SMTP_URL'))
        .split('\n')
        .filter((l) => l.startsWith('  ')),
    ).toHaveLength(1);
  });

  it('lists invalid values and production refusals together', () => {
    const message = refusal({
      ...PRODUCTION,
      PORT: 'eighty',
      SMTP_URL: undefined,
      AUTHORIZE_NET_CLIENT_KEY: undefined,
    });
    expect(message).toMatch(/^Invalid configuration:\n {2}PORT: /);
    expect(message).toContain('\nNODE_ENV=production refuses to start with these settings:\n  SMTP_URL: required');
  });

  it('keeps the one-command demo outside production', () => {
    for (const env of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
      const c = loadConfig(env);
      expect(c).toMatchObject({
        seedDemo: true,
        payments: { gateway: 'simulator' },
        captcha: { siteKey: undefined },
        mail: { smtpUrl: undefined },
      });
    }
  });
});
