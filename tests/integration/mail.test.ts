import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox } from '../../src/server/db/schema.ts';
import { enqueueMail } from '../../src/server/modules/mail/enqueue-mail.ts';
import { deliverPendingMail, MAX_MAIL_ATTEMPTS } from '../../src/server/modules/mail/deliver-pending-mail.ts';
import { smtpTransport } from '../../src/server/providers/mail/transport.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { startSmtpPeer } from '../helpers/local-peers.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('mail outbox through a real SMTP peer', () => {
  it('sends due mails once and marks them sent', async () => {
    const peer = await startSmtpPeer();
    const transport = smtpTransport(peer.url);
    try {
      await enqueueMail(t.app.db, [
        { kind: 'test', to: 'one@example.com', subject: 'First', text: 'Hello one' },
        { kind: 'test', to: 'two@example.com', subject: 'Second', text: 'Hello two' },
      ]);
      const round = await deliverPendingMail(t.app.db, transport, 'GoodStanding <no-reply@goodstanding.local>');
      expect(round).toEqual({ sent: 2, failed: 0 });
      expect(peer.received.map((m) => m.to[0]).sort()).toEqual(['one@example.com', 'two@example.com']);
      expect(peer.received.find((m) => m.to[0] === 'one@example.com')!.body).toContain('Hello one');
      expect(peer.received[0].from).toBe('no-reply@goodstanding.local');
      const rows = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'test'));
      expect(rows.every((r) => r.status === 'sent' && r.sentAt && r.attempts === 1)).toBe(true);
      expect(await deliverPendingMail(t.app.db, transport, 'x@example.com')).toEqual({ sent: 0, failed: 0 });
    } finally {
      transport.close();
      await peer.close();
    }
  });

  it('keeps a refused mail, retries it later, and gives up after the last attempt', async () => {
    const peer = await startSmtpPeer({ refuse: true });
    const transport = smtpTransport(peer.url);
    try {
      await enqueueMail(t.app.db, [{ kind: 'refused', to: 'nobody@example.com', subject: 'Refused', text: 'x' }]);
      expect(await deliverPendingMail(t.app.db, transport, 'a@example.com')).toEqual({ sent: 0, failed: 1 });
      let [row] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'refused'));
      expect(row.status).toBe('pending');
      expect(row.attempts).toBe(1);
      expect(row.lastError).toMatch(/Mailbox unavailable|550/);
      expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
      // Not due yet: nothing is tried.
      expect(await deliverPendingMail(t.app.db, transport, 'a@example.com')).toEqual({ sent: 0, failed: 0 });
      for (let i = 1; i < MAX_MAIL_ATTEMPTS; i++) {
        await t.app.db.update(mailOutbox).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(mailOutbox.id, row.id));
        await deliverPendingMail(t.app.db, transport, 'a@example.com');
      }
      [row] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.id, row.id));
      expect(row.attempts).toBe(MAX_MAIL_ATTEMPTS);
      expect(row.status).toBe('failed');
    } finally {
      transport.close();
      await peer.close();
    }
  });

  it('keeps mails pending when the SMTP server cannot be reached', async () => {
    const transport = smtpTransport('smtp://127.0.0.1:1');
    try {
      await enqueueMail(t.app.db, [{ kind: 'unreachable', to: 'x@example.com', subject: 'S', text: 'T' }]);
      expect(await deliverPendingMail(t.app.db, transport, 'a@example.com')).toEqual({ sent: 0, failed: 1 });
      const [row] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'unreachable'));
      expect(row.status).toBe('pending');
    } finally {
      transport.close();
    }
  });
});
