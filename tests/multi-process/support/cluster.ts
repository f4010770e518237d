import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { serveCommand } from '../../../scripts/serve-command.ts';
import { multipartBody, type UploadPart } from '../../helpers/files.ts';
import type { AddressInfo } from 'node:net';

/**
 * The pieces of a deployment of several app servers (docs/deploy.md), all on 127.0.0.1: a fresh
 * PostgreSQL database, an S3-compatible server, an SMTP peer, the app processes themselves
 * (src/server/main.ts, as `npm start` runs it) and a round-robin load balancer in front.
 */

/** A database created for one run on the server of `adminUrl`, dropped by `drop()`. */
export async function createDatabase(adminUrl: string): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `gs_multi_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** The part of s3rver's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as new (opts: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

/** An S3-compatible server (s3rver) with one bucket, objects in a temporary directory. */
export async function startS3(bucket: string) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-multi-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    /** Keys of the objects stored in the bucket (s3rver keeps each as `<key>._S3rver_object`). */
    objectKeys(): string[] {
      const root = path.join(directory, bucket);
      if (!fs.existsSync(root)) return [];
      return (fs.readdirSync(root, { recursive: true }) as string[])
        .filter((f) => f.endsWith('._S3rver_object'))
        .map((f) => f.slice(0, -'._S3rver_object'.length).split(path.sep).join('/'));
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** One message as the SMTP peer received it. */
export { freePort, startSmtpPeer } from '../../helpers/local-peers.ts';
export { waitFor } from '../../helpers/wait.ts';

/** One running app server process. */
export interface AppServer {
  port: number;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the server through scripts/serve.sh with `env` on `port` and waits until it prints
 * that it is running (or fails with its output when it exits or takes longer than `timeoutMs`).
 */
export function startAppServer(port: number, env: Record<string, string>, timeoutMs = 150_000): Promise<AppServer> {
  const command = serveCommand([], { ...process.env, ...env, PORT: String(port) });
  const child: ChildProcess = spawn(command.file, command.args, {
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const server: AppServer = {
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
  return new Promise<AppServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      void server.stop();
      reject(new Error(`The server on port ${port} did not start in time:\n${output}`));
    }, timeoutMs);
    const poll = setInterval(() => {
      if (!output.includes('GoodStanding is running at')) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve(server);
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`The server on port ${port} exited with ${code}:\n${output}`));
    });
  });
}

/**
 * A round-robin HTTP load balancer in front of `backends`, like nginx with
 * `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`: it appends the peer's address
 * to X-Forwarded-For and sets X-Forwarded-Proto and -Host. Each answer carries `x-backend`, the
 * index of the server that made it.
 */
export async function startBalancer(backends: { port: number }[]) {
  let next = 0;
  const served = backends.map(() => 0);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const index = next++ % backends.length;
    served[index]++;
    const peer = req.socket.remoteAddress ?? '';
    const forwarded = req.headers['x-forwarded-for'];
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: backends[index].port,
        method: req.method,
        path: req.url,
        agent,
        headers: {
          ...req.headers,
          'x-forwarded-for': forwarded ? `${forwarded}, ${peer}` : peer,
          'x-forwarded-proto': 'http',
          'x-forwarded-host': req.headers.host ?? '',
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-backend': String(index) });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    /** Requests sent to each backend so far. */
    served,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** An HTTP answer as the client saw it. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON (throws if it is not). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers field by field; a wrong shape fails the assertion
  json(): any;
  /** The backend that answered when the request went through the balancer. */
  backend?: number;
}

/**
 * A browser-like client on its own loopback address (`clientAddress`, e.g. 127.0.0.2, so servers
 * and the balancer see distinct visitors): keeps cookies, sends X-Requested-With and the CSRF
 * token it was last given, like the web client. Each request names the base URL it goes to: the
 * balancer, or one server directly.
 */
export class Browser {
  cookies = new Map<string, string>();
  csrfToken = '';
  clientAddress: string;
  constructor(clientAddress: string) {
    this.clientAddress = clientAddress;
  }

  /** Opens a session the way a page load does (GET /api/session) and keeps its CSRF token. */
  async start(base: string): Promise<Answer> {
    const res = await this.request(base, 'GET', '/api/session');
    this.csrfToken = res.json().csrfToken;
    return res;
  }

  /** Signs in and switches to the new session's CSRF token. */
  async login(base: string, email: string, password: string): Promise<Answer> {
    const res = await this.request(base, 'POST', '/login', { email, password });
    if (res.status === 200) this.csrfToken = res.json().csrfToken;
    return res;
  }

  get(base: string, url: string) {
    return this.request(base, 'GET', url);
  }
  post(base: string, url: string, payload: unknown = {}) {
    return this.request(base, 'POST', url, payload);
  }

  /** Posts multipart/form-data like a browser's FormData upload. */
  async upload(base: string, url: string, fields: Record<string, string>, files: UploadPart[]): Promise<Answer> {
    const { payload, contentType } = await multipartBody(fields, files);
    return this.request(base, 'POST', url, payload, { 'content-type': contentType });
  }

  request(
    base: string,
    method: string,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const body =
      payload === undefined ? undefined : Buffer.isBuffer(payload) ? payload : Buffer.from(JSON.stringify(payload));
    const target = new URL(url, base);
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        target,
        {
          method,
          localAddress: this.clientAddress,
          agent: false,
          headers: {
            'x-requested-with': 'XMLHttpRequest',
            accept: 'application/json',
            ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
            ...(this.csrfToken && method !== 'GET' ? { 'x-csrf-token': this.csrfToken } : {}),
            ...(body && !headers['content-type'] ? { 'content-type': 'application/json' } : {}),
            ...(body ? { 'content-length': String(body.length) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            for (const cookie of res.headers['set-cookie'] ?? []) {
              const [pair] = cookie.split(';');
              const eq = pair.indexOf('=');
              this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
            }
            const buffer = Buffer.concat(chunks);
            const backend = res.headers['x-backend'];
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: buffer,
              json: () => JSON.parse(buffer.toString('utf8')),
              backend: backend === undefined ? undefined : Number(backend),
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}
