import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { limitSettingsAt } from '../../src/server/modules/limits/limit-rules.ts';
import { freePort } from '../../tests/helpers/local-peers.ts';
import { serveCommand } from '../serve-command.ts';

/** Sign-ins the scanned server is started with (ADMIN_PASSWORD / DEMO_PASSWORD before the first start). */
export const SCAN_USERS = {
  admin: { email: 'admin@scan.test', password: 'Adm1n-scan-Pass' },
  holder: { email: 'holder@scan.test', password: 'H0lder-scan-Pass' },
};

/**
 * Settings of the scanned server besides PORT, DATA_DIR and PUBLIC_URL: as deployed behind a TLS
 * proxy (Secure `__Host-` cookies, HSTS, the proxy trusted), captcha off, and rate limits far
 * above what the scanners send, so every request reaches the route's own checks. Every outside
 * service keeps its local default (empty values count as unset), so the server calls no other
 * host. Not NODE_ENV=production, which refuses those local defaults (docs/security.md): what
 * production would turn on by default is set here explicitly (COOKIE_SECURE, TRUST_PROXY, an
 * https PUBLIC_URL).
 */
export const SCAN_SERVER_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  DATABASE_URL: '',
  SEED_DEMO: '1',
  COOKIE_SECURE: '1',
  // The scanners' guard proxy on 127.0.0.1 stands in for the deployment's load balancer.
  TRUST_PROXY: 'loopback',
  // Every request's status is logged, so each scanner's answers can be counted per path.
  LOG_LEVEL: 'info',
  REMINDERS_ENABLED: '0',
  RATE_LIMIT_FORMS_PER_MINUTE: '1000000',
  RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
  RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
  RATE_LIMIT_DISCOUNT_PER_MINUTE: '1000000',
  ...limitSettingsAt(1_000_000),
  ADMIN_EMAIL: SCAN_USERS.admin.email,
  ADMIN_PASSWORD: SCAN_USERS.admin.password,
  DEMO_EMAIL: SCAN_USERS.holder.email,
  DEMO_PASSWORD: SCAN_USERS.holder.password,
  RECAPTCHA_SITE_KEY: '',
  RECAPTCHA_SECRET: '',
  SMTP_URL: '',
  STORAGE_DRIVER: 'disk',
  STORAGE_DIR: '',
  PAYMENT_GATEWAY: 'simulator',
  ROUTING_LOOKUP_URL: '',
  SENTRY_DSN: '',
};

export interface ScanServer {
  /** http://127.0.0.1:<port>, where the scanners connect. */
  base: string;
  pid: number;
  /** The server's log lines (pino JSON) at level error or worse, so far. */
  errorLines(): string[];
  /** Bytes logged so far: a mark for {@link ScanServer.statusesSince}. */
  logMark(): number;
  /** Status codes of the requests completed since `mark`, by `METHOD path` (query left out). */
  statusesSince(mark: number): Map<string, Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * Starts the product (`src/server/main.ts`, as `npm start` runs it) on a free 127.0.0.1 port with
 * a fresh PGlite data directory under `workDir` and the demo seed, with {@link SCAN_SERVER_ENV}.
 * Its output goes to `workDir/server.log`.
 * @returns once it prints its address
 * @throws when it exits or has not started within 120 s
 */
export async function startScanServer(workDir: string): Promise<ScanServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = path.join(workDir, 'data');
  const logFile = path.join(workDir, 'server.log');
  const logFd = fs.openSync(logFile, 'w');
  const command = serveCommand([], {
    ...process.env,
    ...SCAN_SERVER_ENV,
    PORT: String(port),
    // As behind a TLS-terminating proxy: the site's public address is https.
    PUBLIC_URL: `https://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
  });
  const child = spawn(command.file, command.args, {
    env: command.env,
    stdio: ['ignore', logFd, logFd],
  });
  fs.closeSync(logFd);
  const readLog = () => fs.readFileSync(logFile, 'utf8');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));

  const deadline = Date.now() + 120_000;
  while (!readLog().includes('GoodStanding is running at')) {
    if (gone) throw new Error(`The server exited before listening:\n${readLog().slice(-3000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not start within 120 s:\n${readLog().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    base,
    pid: child.pid!,
    logMark: () => fs.statSync(logFile).size,
    statusesSince(mark) {
      const fd = fs.openSync(logFile, 'r');
      const size = fs.fstatSync(fd).size;
      const buffer = Buffer.alloc(Math.max(0, size - mark));
      fs.readSync(fd, buffer, 0, buffer.length, mark);
      fs.closeSync(fd);
      const routes = new Map<string, string>();
      const byRoute = new Map<string, Record<string, number>>();
      for (const line of buffer.toString('utf8').split('\n')) {
        if (!line.startsWith('{')) continue;
        let entry: {
          reqId?: string;
          msg?: string;
          req?: { method: string; url: string };
          res?: { statusCode: number };
        };
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        if (!entry.reqId) continue;
        if (entry.msg === 'incoming request' && entry.req) {
          routes.set(entry.reqId, `${entry.req.method} ${entry.req.url.split('?')[0]}`);
        } else if (entry.msg === 'request completed' && entry.res) {
          const route = entry.req
            ? `${entry.req.method} ${entry.req.url.split('?')[0]}`
            : (routes.get(entry.reqId) ?? '?');
          routes.delete(entry.reqId);
          const counts = byRoute.get(route) ?? {};
          counts[entry.res.statusCode] = (counts[entry.res.statusCode] ?? 0) + 1;
          byRoute.set(route, counts);
        }
      }
      return byRoute;
    },
    errorLines: () =>
      readLog()
        .split('\n')
        .filter((line) => {
          const level = /^\{"level":(\d+)/.exec(line);
          return level !== null && Number(level[1]) >= 50;
        }),
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A browser-like session on the scanned server: its cookies and the CSRF token bound to them. */
export interface ScanSession {
  /** name=value pairs of every cookie the server set. */
  cookies: Map<string, string>;
  csrfToken: string;
}

/** The Cookie header of a session. */
export const cookieHeader = (s: ScanSession) => [...s.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

const merge = (jar: Map<string, string>, setCookies: string[]) => {
  for (const line of setCookies) {
    const pair = line.split(';')[0];
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return jar;
};

/** The JSON request headers the web client sends (docs/requirements/platform.md §3). */
export const clientHeaders = (s: ScanSession): Record<string, string> => ({
  cookie: cookieHeader(s),
  'x-csrf-token': s.csrfToken,
  'x-requested-with': 'XMLHttpRequest',
  accept: 'application/json',
});

/**
 * Opens a visitor session as a page load does: GET `pagePath` as HTML, keeping the cookies and
 * the `<meta name="csrf-token">` token.
 * @throws when the page is not 200 or carries no token
 */
export async function visitorSession(base: string, pagePath = '/contact'): Promise<ScanSession> {
  const res = await fetch(base + pagePath, { headers: { accept: 'text/html' } });
  const html = await res.text();
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1];
  if (res.status !== 200 || !token) throw new Error(`GET ${pagePath} answered ${res.status} without a CSRF token`);
  return { cookies: merge(new Map(), res.headers.getSetCookie()), csrfToken: token };
}

/**
 * Signs in like the sign-in form: a visitor session, then POST /login with its token; the new
 * session cookie replaces the visitor's and the answer carries the token bound to it.
 * @throws when the sign-in is not answered 200
 */
export async function signedInSession(base: string, email: string, password: string): Promise<ScanSession> {
  const visitor = await visitorSession(base, '/login');
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { ...clientHeaders(visitor), 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`POST /login as ${email} answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { csrfToken: string };
  return { cookies: merge(visitor.cookies, res.headers.getSetCookie()), csrfToken: body.csrfToken };
}
