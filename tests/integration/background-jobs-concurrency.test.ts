import { count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, complianceReminders, mailOutbox } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { sendDueReminders } from '../../src/server/modules/compliance/send-reminders.ts';
import { deliverPendingMail } from '../../src/server/modules/mail/deliver-pending-mail.ts';
import { enqueueMail } from '../../src/server/modules/mail/enqueue-mail.ts';
import { smtpTransport } from '../../src/server/providers/mail/transport.ts';
import { addDays, form990DueDate } from '../../src/shared/rules/compliance-calendar.ts';
import { startSmtpPeer } from '../helpers/local-peers.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The background work every server process runs (docs/deploy.md): with several processes on one
 * PostgreSQL database the daily reminder job and the outbox worker run at the same moment, each
 * on its own connection. Each reminder must be written once and each mail sent once.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('jobs run by two processes at once', () => {
  it('two reminder runs at the same moment write each reminder and its mail once', async () => {
    const db = t.database.db;
    const due = form990DueDate(12, 2025);
    for (let i = 0; i < 12; i++) {
      const account = await createAccount(db, { name: `Twin Run Boosters ${i}` });
      const user = await createUser(db, {
        email: `twin.run.${i}@example.com`,
        password: 'Twin-run-pass-1',
        accountId: account.id,
      });
      await db
        .update(accounts)
        .set({ primaryUserId: user.id, fiscalYearEndMonth: 12 })
        .where(eq(accounts.id, account.id));
    }
    const opts = { today: addDays(due, -30), publicUrl: 'https://goodstanding.example', companyName: 'GoodStanding' };
    const [a, b] = await Promise.all([sendDueReminders(db, opts), sendDueReminders(db, opts)]);
    expect(a.enqueued + b.enqueued).toBe(12);
    const [{ mails }] = await db
      .select({ mails: count() })
      .from(mailOutbox)
      .where(like(mailOutbox.toAddress, 'twin.run.%'));
    expect(mails).toBe(12);
    const [{ reminders }] = await db.select({ reminders: count() }).from(complianceReminders);
    expect(reminders).toBe(12);
  });

  it('two outbox workers polling together send each mail exactly once', async () => {
    const peer = await startSmtpPeer();
    const db = t.database.db;
    const workers = [smtpTransport(peer.url), smtpTransport(peer.url)];
    try {
      const mails = Array.from({ length: 50 }, (_, i) => ({
        kind: 'test.twin',
        to: `twin.worker.${i}@example.com`,
        subject: `Twin worker mail ${i}`,
        text: `Mail number ${i}.`,
      }));
      await enqueueMail(db, mails);
      const deadline = Date.now() + 20_000;
      let pending = mails.length;
      while (pending > 0 && Date.now() < deadline) {
        // Small batches, so the two workers claim from the same rows round after round.
        await Promise.all(
          workers.map((w) => deliverPendingMail(db, w, 'GoodStanding <no-reply@goodstanding.local>', { batch: 7 })),
        );
        [{ pending }] = await db.select({ pending: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'pending'));
      }
      expect(pending).toBe(0);
      const got = peer.received
        .flatMap((m) => m.to.map((to) => ({ to, subject: m.subject })))
        .filter((m) => m.to.startsWith('twin.worker.'))
        .map((m) => `${m.to} ${m.subject}`)
        .sort();
      expect(got).toEqual(mails.map((m) => `${m.to} ${m.subject}`).sort());
    } finally {
      for (const w of workers) await w.close();
      await peer.close();
    }
  });
});
