import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GuardProxy {
  /** http://127.0.0.1:<port>, to hand to a scanner as its HTTP proxy. */
  url: string;
  /** Hosts (host:port) something asked to reach other than the target; refused with 403. */
  refused(): string[];
  close(): Promise<void>;
}

/**
 * A forward HTTP proxy on 127.0.0.1 that passes requests to `target` (http://127.0.0.1:<port>)
 * only, and refuses every other host and every CONNECT tunnel, recording them: with it as a
 * scanner's proxy nothing the scanner sends can leave the machine, and the run proves it.
 * Each forwarded request carries its own X-Forwarded-For address from 10.0.0.0/8, as if from a
 * different client, so the server's per-address limits that have no setting (the routing-number
 * lookup's 60 a minute) do not answer 429 to the scan; the server believes it because it trusts
 * the loopback proxy (TRUST_PROXY).
 */
export async function startGuardProxy(target: string): Promise<GuardProxy> {
  const allowed = new URL(target);
  const refused = new Set<string>();
  let n = 0;
  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.protocol !== 'http:' || url.host !== allowed.host) {
      refused.add(`${url.protocol}//${url.host}`);
      res.writeHead(403, { 'content-type': 'text/plain' }).end('outside the scan');
      return;
    }
    n += 1;
    const headers: http.OutgoingHttpHeaders = {
      ...req.headers,
      'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    };
    delete headers['proxy-connection'];
    const upstream = http.request(
      { host: allowed.hostname, port: allowed.port, method: req.method, path: url.pathname + url.search, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, socket) => {
    refused.add(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused: () => [...refused],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
