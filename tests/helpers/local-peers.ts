import http from 'node:http';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for a server child whose address must be known before it starts). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  body: string;
}

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
          received.push({
            from,
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: /^Subject: (.*)$/im.exec(headers)?.[1] ?? '',
            body: raw,
          });
          cb();
        };
        if (opts.delayMs) setTimeout(accept, opts.delayMs);
        else accept();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.server.address() as AddressInfo;
  return {
    received,
    receiving: () => receiving,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
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
      res.end(
        JSON.stringify({ success: form.get('secret') === secret && form.get('response') === okToken, score: 0.9 }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The decoded parts of a received message: its plain-text and HTML alternatives ('' when absent). */
export interface MailParts {
  text: string;
  html: string;
  contentType: string;
}

/** A body decoded by its Content-Transfer-Encoding (quoted-printable, base64, or as is), as UTF-8. */
function decodeBody(body: string, encoding: string): string {
  const enc = encoding.toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const joined = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < joined.length; i++) {
      const hex = joined[i] === '=' ? /^[0-9A-F]{2}$/i.exec(joined.slice(i + 1, i + 3))?.[0] : undefined;
      if (hex) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}

/** Header fields of one MIME entity, names lower-cased, folded lines joined. */
function headerFields(head: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split(/\r\n/)) {
    const at = line.indexOf(':');
    if (at > 0) fields.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim());
  }
  return fields;
}

/**
 * Splits a raw message the SMTP peer received into its text/plain and text/html parts, decoded,
 * the way a mail client reads a multipart/alternative message (or a single-part one).
 */
export function mailParts(raw: string): MailParts {
  const split = raw.indexOf('\r\n\r\n');
  const top = headerFields(raw.slice(0, split));
  const contentType = top.get('content-type') ?? 'text/plain';
  const parts: MailParts = { text: '', html: '', contentType };
  const take = (fields: Map<string, string>, body: string) => {
    const type = (fields.get('content-type') ?? 'text/plain').toLowerCase();
    const boundary = /boundary="?([^";]+)"?/i.exec(fields.get('content-type') ?? '')?.[1];
    if (type.startsWith('multipart/') && boundary) {
      for (const chunk of body.split(`--${boundary}`).slice(1)) {
        if (chunk.startsWith('--')) break;
        const at = chunk.indexOf('\r\n\r\n');
        take(headerFields(chunk.slice(0, at).replace(/^\r\n/, '')), chunk.slice(at + 4).replace(/\r\n$/, ''));
      }
      return;
    }
    // Line ends travel as CRLF; a mail client shows them as line breaks.
    const decoded = decodeBody(body, fields.get('content-transfer-encoding') ?? '7bit').replace(/\r\n/g, '\n');
    if (type.startsWith('text/html')) parts.html = decoded;
    else if (type.startsWith('text/plain')) parts.text = decoded;
  };
  take(top, raw.slice(split + 4));
  return parts;
}
