import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/server/db/schema.ts';
import { JOBS } from '../../src/server/jobs/definitions.ts';
import { deliverPendingMail } from '../../src/server/modules/mail/deliver-pending-mail.ts';
import { enqueueMail } from '../../src/server/modules/mail/enqueue-mail.ts';
import { smtpTransport } from '../../src/server/providers/mail/transport.ts';
import { startSmtpPeer } from '../helpers/local-peers.ts';
import { createSecondServer, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait.ts';
import type { AppConfig } from '../../src/server/config.ts';

/**
 * docs/mail.md "One send per mail": a round's claim on a mail is a lease kept alive by a heartbeat
 * while the SMTP server is still answering, so a send slower than the lease is never taken by a
 * second server; shutting down waits for the send in progress. On PostgreSQL the two servers have
 * their own connection pools on one database; on PGlite they are two rounds in one process.
 */

const FROM = 'GoodStanding <no-reply@goodstanding.local>';
const mailConfig = (smtpUrl: string, leaseSeconds: number): AppConfig['mail'] => ({
  staffEmail: 'staff@goodstanding.local',
  from: FROM,
  smtpUrl,
  pollMs: 100,
  leaseSeconds,
});

let base: TestApp;
beforeAll(async () => {
  base = await createTestApp();
});
afterAll(async () => {
  await base?.close();
});

const cleanups: (() => Promise<void>)[] = [];
/** `close` made safe to call again (the test closes early, the cleanup closes whatever is left). */
/** The outbox job alone, as main.ts starts it (app.jobs.start()). */
const OUTBOX_ONLY = JOBS.filter((job) => job.name === 'outbox-delivery');

const once = (close: () => Promise<void>) => {
  let done: Promise<void> | null = null;
  return () => (done ??= close());
};
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('the outbox lease', () => {
  it('two servers polling one database deliver each mail exactly once when every send takes longer than the lease', async () => {
    // Each message is answered 2.5 s after it arrives; a lease lasts 1 s.
    const peer = await startSmtpPeer({ delayMs: 2_500 });
    cleanups.push(peer.close);
    // Two app servers on that database, each running its outbox worker as main.ts starts it: a
    // round every 100 ms each, concurrently.
    const servers = [];
    for (let i = 0; i < 2; i++) {
      const server = await createSecondServer(base, undefined, {
        config: { mail: mailConfig(peer.url, 1) },
        jobs: OUTBOX_ONLY,
      });
      await server.app.jobs.start();
      const close = once(server.close);
      cleanups.push(close);
      servers.push(close);
    }
    const mails = Array.from({ length: 3 }, (_, i) => ({
      kind: 'test.lease',
      to: `lease.${i}@example.com`,
      subject: `Lease mail ${i}`,
      text: `Mail number ${i}.`,
    }));
    const ids = await enqueueMail(base.app.db, mails);

    const delivered = () =>
      peer.received
        .flatMap((m) => m.to)
        .filter((to) => to.startsWith('lease.'))
        .sort();
    const allSent = async () =>
      (
        await base.app.db.select({ status: mailOutbox.status }).from(mailOutbox).where(inArray(mailOutbox.id, ids))
      ).every((r) => r.status === 'sent');
    // Done when every mail is recorded as sent, or as soon as one arrived twice.
    expect(await waitFor(async () => new Set(delivered()).size < delivered().length || allSent(), 20_000, 100)).toBe(
      true,
    );
    // Closing waits for any send still in progress, so a second copy would have arrived by now.
    await Promise.all(servers.map((close) => close()));

    expect(delivered()).toEqual(mails.map((m) => m.to).sort());
    const rows = await base.app.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
    expect(
      rows.map((r) => ({ status: r.status, attempts: r.attempts, leasedBy: r.leasedBy, leaseUntil: r.leaseUntil })),
    ).toEqual(ids.map(() => ({ status: 'sent', attempts: 1, leasedBy: null, leaseUntil: null })));
  });

  it('closing the server waits for the send in progress and records it as sent', async () => {
    const peer = await startSmtpPeer({ delayMs: 1_500 });
    cleanups.push(peer.close);
    const t = await createSecondServer(base, undefined, {
      config: { mail: mailConfig(peer.url, 300) },
      jobs: OUTBOX_ONLY,
    });
    await t.app.jobs.start();
    cleanups.push(once(t.close));
    const [id] = await enqueueMail(t.app.db, [
      { kind: 'test.shutdown', to: 'closing.time@example.com', subject: 'Sent while closing', text: 'Hello.' },
    ]);
    expect(await waitFor(() => peer.receiving() === 1, 10_000)).toBe(true);

    await t.app.close();
    // The database is still open here, as in main.ts (app.close(), then database.close()).
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: '', leasedBy: null });
    expect(peer.received.map((m) => m.to[0])).toEqual(['closing.time@example.com']);
  });

  it('a stopped round finishes its send in progress and hands back the mails it had not sent', async () => {
    const peer = await startSmtpPeer({ delayMs: 1_000 });
    cleanups.push(peer.close);
    const t = base;
    const transport = smtpTransport(peer.url);
    cleanups.push(async () => transport.close());
    const ids = await enqueueMail(t.app.db, [
      { kind: 'test.abort', to: 'abort.first@example.com', subject: 'First', text: 'One.' },
      { kind: 'test.abort', to: 'abort.second@example.com', subject: 'Second', text: 'Two.' },
    ]);
    const stop = new AbortController();
    const round = deliverPendingMail(t.app.db, transport, FROM, { leaseMs: 60_000, signal: stop.signal });
    expect(await waitFor(() => peer.receiving() === 1, 10_000)).toBe(true);
    stop.abort();
    expect(await round).toEqual({ sent: 1, failed: 0 });

    const rows = await t.app.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids)).orderBy(mailOutbox.id);
    expect(rows.map((r) => [r.toAddress, r.status, r.leasedBy])).toEqual([
      ['abort.first@example.com', 'sent', null],
      ['abort.second@example.com', 'pending', null],
    ]);
    // Handed back due at once, not after the lease: the next round (here or on another server) sends it.
    expect(await deliverPendingMail(t.app.db, transport, FROM, { leaseMs: 60_000 })).toEqual({ sent: 1, failed: 0 });
    expect(peer.received.map((m) => m.to[0])).toEqual(['abort.first@example.com', 'abort.second@example.com']);
  });

  it('a round whose lease was taken over does not write its outcome over the new holder', async () => {
    const peer = await startSmtpPeer({ delayMs: 1_000 });
    cleanups.push(peer.close);
    const t = base;
    const transport = smtpTransport(peer.url);
    cleanups.push(async () => transport.close());
    const [id] = await enqueueMail(t.app.db, [
      { kind: 'test.takeover', to: 'taken.over@example.com', subject: 'Taken over', text: 'Hi.' },
    ]);
    const round = deliverPendingMail(t.app.db, transport, FROM, { leaseMs: 60_000 });
    expect(await waitFor(() => peer.receiving() === 1, 10_000)).toBe(true);
    // Another server holds the mail now (as if this round's lease had lapsed and been claimed).
    await t.app.db
      .update(mailOutbox)
      .set({ leasedBy: 'other-server:1:abc', leaseUntil: sql`now() + interval '1 hour'` })
      .where(eq(mailOutbox.id, id));
    await round;

    const [row] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'pending', attempts: 0, leasedBy: 'other-server:1:abc' });
    // And nobody else takes it while that lease lasts.
    expect(await deliverPendingMail(t.app.db, transport, FROM, { leaseMs: 60_000 })).toEqual({ sent: 0, failed: 0 });
  });
});
