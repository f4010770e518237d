import { createHash, randomBytes } from 'node:crypto';
import { mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applications,
  auditLog,
  files,
  inquiries,
  levels,
  mailOutbox,
  passwordResets,
  paymentRefunds,
  payments,
  ratings,
  sessions,
} from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { yearsBefore } from '../../src/server/modules/retention/batches.ts';
import { deleteOldRatings } from '../../src/server/modules/retention/rules.ts';
import { runRetention } from '../../src/server/modules/retention/run-retention.ts';
import { newStorageKey } from '../../src/server/providers/storage/storage.ts';
import { createSecondServer, createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * docs/retention.md: each rule removes or blanks what passed its limit and keeps what has not.
 * Every rule gets rows an hour on either side of its limit, counted back from the run's `now`.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let t: TestApp;
let now: Date;
/** Just past the limit (removed) and just inside it (kept), `limitMs` before `now`. */
const outside = (limitMs: number) => new Date(now.getTime() - limitMs - HOUR);
const inside = (limitMs: number) => new Date(now.getTime() - limitMs + HOUR);

beforeAll(async () => {
  t = await createTestApp();
  now = new Date();
});
afterAll(async () => {
  await t?.close();
});

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
const diskPath = (key: string) => path.join(t.config.storage.dir, key);

/** Stores `content` under a new key of `purpose` and, with `row`, writes its files row. */
async function storedFile(purpose: string, opts: { applicationId?: number; createdAt?: Date; row?: boolean } = {}) {
  const key = newStorageKey(purpose);
  const content = Buffer.from(`%PDF-1.4 ${randomBytes(8).toString('hex')}`);
  await t.app.providers.storage.put(key, Readable.from([content]));
  let id: number | undefined;
  if (opts.row !== false) {
    [{ id }] = await t.app.db
      .insert(files)
      .values({
        storageKey: key,
        fileName: 'minutes.pdf',
        mimeType: 'application/pdf',
        sizeBytes: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        purpose,
        applicationId: opts.applicationId ?? null,
        createdAt: opts.createdAt ?? new Date(),
      })
      .returning({ id: files.id });
  }
  return { key, id };
}

describe('retention rules', () => {
  it('sent mail bodies: blanks the text of mails sent more than 90 days ago and keeps subject, address and dates', async () => {
    const limit = 90 * DAY;
    const [old, recent, waiting] = await t.app.db
      .insert(mailOutbox)
      .values([
        {
          kind: 'retention.old',
          toAddress: 'old@example.com',
          subject: 'Your receipt',
          textBody: 'Paid $125.00 for INV-1',
          status: 'sent',
          sentAt: outside(limit),
          createdAt: outside(limit),
        },
        {
          kind: 'retention.recent',
          toAddress: 'recent@example.com',
          subject: 'Your receipt',
          textBody: 'Paid $80.00 for INV-2',
          status: 'sent',
          sentAt: inside(limit),
          createdAt: outside(limit),
        },
        {
          kind: 'retention.failed',
          toAddress: 'bounce@example.com',
          subject: 'Never sent',
          textBody: 'Still waiting',
          status: 'failed',
          createdAt: outside(limit),
        },
      ])
      .returning();

    const result = await runRetention(t.app, now);
    expect(result.byRule.sentMailBodies).toBe(1);
    const rows = await t.app.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.id, [old.id, recent.id, waiting.id]))
      .orderBy(mailOutbox.id);
    expect(rows.map((r) => [r.toAddress, r.subject, r.textBody, r.status])).toEqual([
      ['old@example.com', 'Your receipt', '', 'sent'],
      ['recent@example.com', 'Your receipt', 'Paid $80.00 for INV-2', 'sent'],
      ['bounce@example.com', 'Never sent', 'Still waiting', 'failed'],
    ]);
    expect(rows[0].sentAt).toEqual(old.sentAt);
  });

  it('expired tokens: deletes password reset tokens and sessions 30 days after they expired', async () => {
    const limit = 30 * DAY;
    const user = await createUser(t.app.db, { email: 'retention.tokens@example.com', password: 'Retention-pass-1' });
    await t.app.db.insert(passwordResets).values([
      { userId: user.id, tokenHash: 'a'.repeat(64), expiresAt: outside(limit), usedAt: outside(limit) },
      { userId: user.id, tokenHash: 'b'.repeat(64), expiresAt: inside(limit) },
    ]);
    await t.app.db.insert(sessions).values([
      { idHash: 'c'.repeat(64), userId: user.id, expiresAt: outside(limit) },
      { idHash: 'd'.repeat(64), userId: user.id, expiresAt: inside(limit) },
    ]);

    const result = await runRetention(t.app, now);
    expect(result.byRule.expiredTokens).toBe(2);
    expect(
      (await t.app.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))).map((r) => r.tokenHash),
    ).toEqual(['b'.repeat(64)]);
    expect((await t.app.db.select().from(sessions).where(eq(sessions.userId, user.id))).map((r) => r.idHash)).toEqual([
      'd'.repeat(64),
    ]);
  });

  it('abandoned drafts: deletes applications never submitted and untouched for 365 days, with their documents', async () => {
    const limit = 365 * DAY;
    const user = await createUser(t.app.db, { email: 'retention.drafts@example.com', password: 'Retention-pass-1' });
    const [level] = await t.app.db.select({ id: levels.id }).from(levels).where(eq(levels.slug, 'maintain'));
    const draft = (token: string, status: string, updatedAt: Date) => ({
      tokenHash: token,
      userId: user.id,
      levelId: level.id,
      type: 'maintain',
      status,
      fields: { account___name: 'Old Boosters' },
      createdAt: updatedAt,
      updatedAt,
    });
    const [abandoned, cancelled, recent, withNewDocument, submitted] = await t.app.db
      .insert(applications)
      .values([
        draft('r1'.repeat(32), 'draft', outside(limit)),
        draft('r2'.repeat(32), 'deleted', outside(limit)),
        draft('r3'.repeat(32), 'draft', inside(limit)),
        draft('r4'.repeat(32), 'draft', outside(limit)),
        draft('r5'.repeat(32), 'completed', outside(limit)),
      ])
      .returning();
    const abandonedDoc = await storedFile('application_document', {
      applicationId: abandoned.id,
      createdAt: outside(limit),
    });
    const recentDoc = await storedFile('application_document', { applicationId: recent.id, createdAt: outside(limit) });
    // A document uploaded lately counts as touching the draft.
    const newDoc = await storedFile('application_document', {
      applicationId: withNewDocument.id,
      createdAt: inside(limit),
    });

    const result = await runRetention(t.app, now);
    expect(result.byRule.abandonedDrafts).toBe(2);
    expect(result.byRule.draftFiles).toBe(1);
    const left = await t.app.db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.userId, user.id))
      .orderBy(applications.id);
    expect(left.map((r) => r.id)).toEqual([recent.id, withNewDocument.id, submitted.id]);
    expect(cancelled.id).not.toBe(abandoned.id);
    expect(await exists(diskPath(abandonedDoc.key))).toBe(false);
    expect(await t.app.db.select().from(files).where(eq(files.id, abandonedDoc.id!))).toEqual([]);
    expect(await exists(diskPath(recentDoc.key))).toBe(true);
    expect(await exists(diskPath(newDoc.key))).toBe(true);
  });

  it('old inquiries: deletes public form submissions received more than 1095 days ago', async () => {
    const limit = 1095 * DAY;
    await t.app.db.insert(inquiries).values([
      {
        kind: 'contact',
        name: 'Old Asker',
        email: 'old.asker@example.com',
        details: { message: 'Hello' },
        createdAt: outside(limit),
        isHandled: true,
      },
      {
        kind: 'contact',
        name: 'New Asker',
        email: 'new.asker@example.com',
        details: { message: 'Hi' },
        createdAt: inside(limit),
      },
    ]);
    const result = await runRetention(t.app, now);
    expect(result.byRule.inquiries).toBe(1);
    expect(
      (
        await t.app.db
          .select({ email: inquiries.email })
          .from(inquiries)
          .where(like(inquiries.email, '%.asker@example.com'))
      ).map((r) => r.email),
    ).toEqual(['new.asker@example.com']);
  });

  it('old ratings: deletes page ratings given more than 1095 days ago', async () => {
    const limit = 1095 * DAY;
    await t.app.db.insert(ratings).values([
      { url: '/retention-old', rating: 2, comments: 'meh', createdAt: outside(limit) },
      { url: '/retention-new', rating: 5, comments: 'great', createdAt: inside(limit) },
    ]);
    const result = await runRetention(t.app, now);
    expect(result.byRule.ratings).toBe(1);
    expect(
      (await t.app.db.select({ url: ratings.url }).from(ratings).where(like(ratings.url, '/retention-%'))).map(
        (r) => r.url,
      ),
    ).toEqual(['/retention-new']);
  });

  it('audit rows: deletes rows older than 7 years, but keeps the trail of a payment whose money moved since or is unfinished', async () => {
    const cutoff = yearsBefore(now, 7);
    const before = new Date(cutoff.getTime() - HOUR);
    const after = new Date(cutoff.getTime() + HOUR);
    const accountId = (await createAccount(t.app.db, { name: 'Retention Audit Boosters' })).id;
    const payment = (status: string, at: Date) => ({
      accountId,
      method: 'card',
      status,
      amountCents: 12_500,
      invoiceIds: [],
      idempotencyKey: randomBytes(8).toString('hex'),
      createdAt: at,
      settledAt: status === 'pending' ? null : at,
    });
    const [settledLongAgo, refundedLately, stillPending] = await t.app.db
      .insert(payments)
      .values([payment('paid', before), payment('paid', before), payment('pending', before)])
      .returning({ id: payments.id });
    await t.app.db.insert(paymentRefunds).values({
      paymentId: refundedLately.id,
      amountCents: 2_500,
      reason: 'Duplicate',
      status: 'refunded',
      createdAt: after,
      settledAt: after,
    });
    const row = (action: string, createdAt: Date, details: Record<string, unknown> = {}) => ({
      actorUserId: null,
      accountId,
      action,
      details,
      createdAt,
    });
    await t.app.db
      .insert(auditLog)
      .values([
        row('retention.old', before),
        row('retention.recent', after),
        row('payment.approved', before, { paymentId: settledLongAgo.id }),
        row('payment.submitted_on_behalf', before, { paymentId: refundedLately.id }),
        row('payment.submitted_on_behalf', before, { paymentId: stillPending.id }),
      ]);

    const result = await runRetention(t.app, now);
    expect(result.byRule.auditRows).toBe(2);
    const left = await t.app.db
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.accountId, accountId))
      .orderBy(auditLog.id);
    expect(left).toEqual([
      { action: 'retention.recent', details: {} },
      { action: 'payment.submitted_on_behalf', details: { paymentId: refundedLately.id } },
      { action: 'payment.submitted_on_behalf', details: { paymentId: stillPending.id } },
    ]);
    // The payments themselves are money records: never removed.
    expect(
      await t.app.db.select({ id: payments.id }).from(payments).where(eq(payments.accountId, accountId)),
    ).toHaveLength(3);
  });

  it('orphaned uploads: removes stored files no row names once a day old, and partial uploads, and nothing else', async () => {
    const limit = 24 * HOUR;
    const age = async (key: string, at: Date) => utimes(diskPath(key), at, at);
    const named = await storedFile('contest_photo', { createdAt: outside(limit) });
    await age(named.key, outside(limit));
    const orphan = await storedFile('contest_photo', { row: false });
    await age(orphan.key, outside(limit));
    const young = await storedFile('contest_photo', { row: false });
    await age(young.key, inside(limit));
    const partial = `${diskPath(newStorageKey('contest_video'))}.part`;
    await mkdir(path.dirname(partial), { recursive: true });
    await writeFile(partial, 'cut off');
    await utimes(partial, outside(limit), outside(limit));
    const stranger = path.join(t.config.storage.dir, 'README');
    await writeFile(stranger, 'not an upload');
    await utimes(stranger, outside(limit), outside(limit));

    const result = await runRetention(t.app, now);
    expect(result.byRule.orphanedFiles).toBe(1);
    expect(result.byRule.partialUploads).toBe(1);
    expect(await exists(diskPath(orphan.key))).toBe(false);
    expect(await exists(partial)).toBe(false);
    expect(await exists(diskPath(named.key))).toBe(true);
    expect(await exists(diskPath(young.key))).toBe(true);
    expect(await exists(stranger)).toBe(true);
  });

  it('a setting of 0 turns its rule off', async () => {
    const off = await createSecondServer(t, undefined, {
      config: {
        retention: {
          sentMailDays: 0,
          expiredTokenDays: 0,
          draftDays: 0,
          inquiryDays: 0,
          ratingDays: 0,
          auditYears: 0,
          orphanFileHours: 0,
          bulkCheckDays: 0,
        },
      },
    });
    try {
      await t.app.db
        .insert(ratings)
        .values({ url: '/retention-off', rating: 1, createdAt: new Date(now.getTime() - 5000 * DAY) });
      expect(await runRetention(off.app, now)).toEqual({ itemsDone: 0, byRule: {} });
      expect(await t.app.db.select().from(ratings).where(eq(ratings.url, '/retention-off'))).toHaveLength(1);
    } finally {
      await off.close();
      await t.app.db.delete(ratings).where(eq(ratings.url, '/retention-off'));
    }
  });

  it('works in bounded batches until done, and stops at the per-run cap', async () => {
    const old = new Date(now.getTime() - 2000 * DAY);
    await t.app.db
      .insert(ratings)
      .values(Array.from({ length: 7 }, (_, i) => ({ url: `/retention-batch-${i}`, rating: 3, createdAt: old })));
    const left = async () =>
      (await t.app.db.select().from(ratings).where(like(ratings.url, '/retention-batch-%'))).length;
    // Two rows a statement, at most five a run: the first run stops at five, the next takes the rest.
    const cutoff = new Date(old.getTime() + 1000);
    expect(await deleteOldRatings(t.app.db, cutoff, { batch: 2, maxPerRun: 5 })).toBe(5);
    expect(await left()).toBe(2);
    expect(await deleteOldRatings(t.app.db, cutoff, { batch: 2, maxPerRun: 5 })).toBe(2);
    expect(await left()).toBe(0);
  });
});
