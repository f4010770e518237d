import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A TCP port free on 127.0.0.1 right now (for a server child whose address must be known before it starts). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export interface ReceivedMail { from: string; to: string[]; subject: string; body: string }

/**
 * A real SMTP peer on 127.0.0.1 that accepts every message and keeps its sender, recipients,
 * subject and raw body; with `refuse`, it refuses every recipient (550); with `delayMs`, it
 * answers each message that long after its last byte arrived (a slow SMTP server).
 * @returns `received` (in the order they were accepted), `receiving()` (messages whose answer is
 *   still being held back), `url` for SMTP_URL, and `close()`
 */
export async function startSmtpPeer(opts: { refuse?: boolean; delayMs?: number } = {}) {
  const received: ReceivedMail[] = [];
  let receiving = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, cb) {
      if (opts.refuse) return cb(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      let raw = '';
      receiving++;
      stream.on('data', (c) => (raw += c));
      stream.on('end', () => {
        const headers = raw.split(/\r\n\r\n/)[0].replace(/\r\n[ \t]+/g, ' ');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const accept = () => {
          receiving--;
          received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), subject: /^Subject: (.*)$/im.exec(headers)?.[1] ?? '', body: raw });
          cb();
        };
        if (opts.delayMs) setTimeout(accept, opts.delayMs);
        else accept();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.server.address() as AddressInfo;
  return { received, receiving: () => receiving, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A reCAPTCHA siteverify peer on 127.0.0.1: `success` with a v3 score of 0.9 exactly when the form
 * carries `secret` and the token `okToken` the page would have obtained.
 * @returns `url` for RECAPTCHA_VERIFY_URL, and `close()`
 */
export async function startCaptchaPeer(secret: string, okToken: string) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: form.get('secret') === secret && form.get('response') === okToken, score: 0.9 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
