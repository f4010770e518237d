import { readdir } from 'node:fs/promises';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  auditLog,
  determinationLetters,
  files,
  mailOutbox,
  users,
  workItems,
} from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { LETTER_PENDING_MESSAGE } from '../../src/server/modules/applications/determination-letter.ts';
import { groupHomeContracts } from '../../src/shared/contracts/group-home.ts';
import { workQueueContracts } from '../../src/shared/contracts/work-queue.ts';
import { PDF_MINIMAL } from '../helpers/files.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * Staff review of an uploaded IRS determination letter (docs/work-queue.md "Determination
 * letters", docs/wizard.md "A group waiting for its IRS letter"): the upload makes a work item,
 * staff open the file and accept it (the exemption is recognized) or send it back (the group is
 * mailed and its home asks again); only staff may review; one pending letter per account, also
 * for two uploads at the same moment.
 */
let t: TestApp;
let staff: Agent;
let group: Agent;
let other: Agent;
let visitor: Agent;
let n = 0;

const letter = (name = 'IRS letter.pdf') => [
  { field: 'file', fileName: name, content: PDF_MINIMAL, type: 'application/pdf' },
];

/** An account waiting for its letter (Form 1023-EZ filed 14 September 2026), with a signed-in primary user. */
async function waitingGroup(name: string) {
  const db = t.database.db;
  const account = await createAccount(db, { name, ein: `93-00000${String(++n).padStart(2, '0')}` });
  await db
    .update(accounts)
    .set({
      email: `office${n}@letters.test`,
      data: {
        account___has_501c: '2',
        account___exemption_form: '1023-EZ',
        account___exemption_filed_on: '2026-09-14',
      },
    })
    .where(eq(accounts.id, account.id));
  const email = `primary${n}@letters.test`;
  const user = await createUser(db, { email, password: `Primary-${n}-pass-1`, accountId: account.id });
  await db.update(users).set({ isPrimary: true }).where(eq(users.id, user.id));
  await db.update(accounts).set({ primaryUserId: user.id }).where(eq(accounts.id, account.id));
  return { account, user, email, agent: await signedIn(t.app, { email, password: `Primary-${n}-pass-1` }) };
}

const itemOf = async (accountId: number) => {
  const rows = await t.database.db
    .select()
    .from(workItems)
    .where(and(eq(workItems.accountId, accountId), eq(workItems.kind, 'determination_letter')))
    .orderBy(workItems.id);
  return rows.at(-1)!;
};

let groupAccount = 0;
let groupEmail = '';

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.database.db, {
    email: 'reviewer@letters.test',
    password: 'Reviewer-pass-1',
    isAdmin: true,
    firstName: 'Rae',
  });
  staff = await signedIn(t.app, { email: 'reviewer@letters.test', password: 'Reviewer-pass-1' });
  visitor = await new Agent(t.app).start();
  const g = await waitingGroup('Kenai Swim Boosters');
  group = g.agent;
  groupAccount = g.account.id;
  groupEmail = g.email;
  other = (await waitingGroup('Homer Band Boosters')).agent;
});
afterAll(async () => {
  await t?.close();
});

describe('an uploaded letter waits in the work queue', () => {
  it('the upload makes one open item; a second upload while it waits is refused with 409', async () => {
    const up = await group.upload('/api/app/determination-letter', {}, letter());
    expect(up.statusCode, up.body).toBe(201);
    expect(up.json().letter_awaited).toMatchObject({ form: '1023-EZ', returned: null });
    const item = await itemOf(groupAccount);
    expect(item).toMatchObject({
      status: 'open',
      kind: 'determination_letter',
      key: `determination_letter:${item.details.letter_id}`,
    });
    const list = await staff.call(workQueueContracts.list, { query: { kind: 'determination_letter' } });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((r: { id: number }) => r.id)).toContain(item.id);
    expect(list.json().counts.determination_letter).toBeGreaterThanOrEqual(1);
    const again = await group.upload('/api/app/determination-letter', {}, letter('second.pdf'));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(LETTER_PENDING_MESSAGE);
    const detail = (await staff.call(workQueueContracts.show, { params: { id: item.id } })).json();
    expect(detail.letter).toEqual({
      status: 'pending',
      file_name: 'IRS letter.pdf',
      letter_date: null,
      return_reason: '',
    });
    expect(detail.history[0].text).toBe('Uploaded by the group');
    // Only the review closes it: "Resolve" would leave the letter waiting unseen.
    const resolve = await staff.call(workQueueContracts.resolve, {
      params: { id: item.id },
      body: { resolution: 'Looked at it' },
    });
    expect(resolve.statusCode).toBe(409);
    expect(resolve.json().message).toBe('Accept the letter or send it back: that resolves this item.');
  });

  it('staff open the file; visitors get 401 and account users 403 on the file and both reviews', async () => {
    const item = await itemOf(groupAccount);
    const file = await staff.call(workQueueContracts.letter, { params: { id: item.id } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(PDF_MINIMAL)).toBe(true);
    for (const [who, status] of [
      [visitor, 401],
      [group, 403],
      [other, 403],
    ] as const) {
      expect((await who.call(workQueueContracts.letter, { params: { id: item.id } })).statusCode).toBe(status);
      expect(
        (
          await who.call(workQueueContracts.acceptLetter, {
            params: { id: item.id },
            body: { letter_date: '2026-11-02' },
          })
        ).statusCode,
      ).toBe(status);
      expect(
        (await who.call(workQueueContracts.returnLetter, { params: { id: item.id }, body: { reason: 'Blurry' } }))
          .statusCode,
      ).toBe(status);
    }
    const [letterRow] = await t.database.db
      .select()
      .from(determinationLetters)
      .where(eq(determinationLetters.id, Number(item.details.letter_id)));
    expect(letterRow.status).toBe('pending');
  });
});

describe('staff send a letter back', () => {
  it('needs a reason; the group is mailed, its home shows the reason and takes a new upload; audited', async () => {
    const item = await itemOf(groupAccount);
    const empty = await staff.call(workQueueContracts.returnLetter, {
      params: { id: item.id },
      body: { reason: '  ' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({ reason: ['The reason field is required.'] });
    const reason = 'Only the first page came through; please send every page of the letter.';
    const done = await staff.call(workQueueContracts.returnLetter, { params: { id: item.id }, body: { reason } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().item).toMatchObject({
      status: 'resolved',
      letter: { status: 'returned', return_reason: reason },
    });
    expect(done.json().item.history.at(-1).text).toBe(`Letter sent back: ${reason}`);
    expect(
      (await staff.call(workQueueContracts.returnLetter, { params: { id: item.id }, body: { reason } })).statusCode,
    ).toBe(409);

    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'determination_letter.returned'));
    expect(mails.map((m) => m.toAddress)).toEqual([groupEmail]);
    expect(mails[0].textBody).toContain(reason);
    expect(mails[0].textBody).toContain('Kenai Swim Boosters');
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.accountId, groupAccount), eq(auditLog.action, 'account.determination_letter.returned')));
    expect(audit.details).toMatchObject({ item_id: item.id, reason });

    const home = (await group.call(groupHomeContracts.home)).json();
    expect(home.letter_awaited).toMatchObject({ received_on: null, returned: { reason } });
    const reupload = await group.upload('/api/app/determination-letter', {}, letter('IRS letter, all pages.pdf'));
    expect(reupload.statusCode, reupload.body).toBe(201);
    expect(reupload.json().letter_awaited.returned).toBeNull();
    expect((await itemOf(groupAccount)).id).not.toBe(item.id);
  });
});

describe('staff accept a letter', () => {
  it('checks the date; records the exemption as recognized; the home stops waiting; audited', async () => {
    const item = await itemOf(groupAccount);
    expect((await staff.call(workQueueContracts.acceptLetter, { params: { id: item.id } })).json().errors).toEqual({
      letter_date: ['The date on the letter field is required.'],
    });
    expect(
      (
        await staff.call(workQueueContracts.acceptLetter, {
          params: { id: item.id },
          body: { letter_date: '2026-02-30' },
        })
      ).json().errors,
    ).toEqual({ letter_date: ['The date on the letter field must be a valid date.'] });
    const future = await staff.call(workQueueContracts.acceptLetter, {
      params: { id: item.id },
      body: { letter_date: '2999-01-01' },
    });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors).toEqual({ letter_date: ['The date on the letter must be today or earlier.'] });

    const done = await staff.call(workQueueContracts.acceptLetter, {
      params: { id: item.id },
      body: { letter_date: '2026-11-02' },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().item).toMatchObject({
      status: 'resolved',
      letter: { status: 'accepted', letter_date: '2026-11-02' },
    });
    expect(
      (
        await staff.call(workQueueContracts.acceptLetter, {
          params: { id: item.id },
          body: { letter_date: '2026-11-02' },
        })
      ).statusCode,
    ).toBe(409);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, groupAccount));
    expect(account.data).toMatchObject({
      account___has_501c: '1',
      account___ruling_year: '2026',
      account___determination_letter_date: '2026-11-02',
    });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.accountId, groupAccount), eq(auditLog.action, 'account.determination_letter.accepted')));
    expect(audit.details).toMatchObject({ item_id: item.id, letter_date: '2026-11-02' });
    expect((await group.call(groupHomeContracts.home)).json().letter_awaited).toBeNull();
    // The account now awaits no letter.
    expect((await group.upload('/api/app/determination-letter', {}, letter())).statusCode).toBe(409);
  });

  it('an item of another kind is not a letter to review (409)', async () => {
    const [item] = await t.database.db
      .insert(workItems)
      .values({ key: 'revoked:test', kind: 'revoked', accountId: groupAccount, details: {} })
      .returning();
    expect(
      (
        await staff.call(workQueueContracts.acceptLetter, {
          params: { id: item.id },
          body: { letter_date: '2026-11-02' },
        })
      ).statusCode,
    ).toBe(409);
    expect((await staff.call(workQueueContracts.letter, { params: { id: item.id } })).statusCode).toBe(409);
  });
});

describe('two uploads at the same moment', () => {
  it('one letter waits for review, one item, one stored file; the other upload is refused and its file removed', async () => {
    const g = await waitingGroup('Seward Soccer Boosters');
    const second = await signedIn(t.app, { email: g.email, password: `Primary-${n}-pass-1` });
    const storageDir = t.config.storage.dir;
    const objectsBefore = (await readdir(storageDir, { recursive: true, withFileTypes: true })).filter((e) =>
      e.isFile(),
    ).length;
    const answers = await Promise.all([
      g.agent.upload('/api/app/determination-letter', {}, letter('a.pdf')),
      second.upload('/api/app/determination-letter', {}, letter('b.pdf')),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().message).toBe(LETTER_PENDING_MESSAGE);
    const db = t.database.db;
    const [pending] = await db
      .select({ n: count() })
      .from(determinationLetters)
      .where(and(eq(determinationLetters.accountId, g.account.id), eq(determinationLetters.status, 'pending')));
    expect(pending.n).toBe(1);
    const [items] = await db.select({ n: count() }).from(workItems).where(eq(workItems.accountId, g.account.id));
    expect(items.n).toBe(1);
    const [stored] = await db.select({ n: count() }).from(files).where(eq(files.accountId, g.account.id));
    expect(stored.n).toBe(1);
    const objectsAfter = (await readdir(storageDir, { recursive: true, withFileTypes: true })).filter((e) =>
      e.isFile(),
    ).length;
    expect(objectsAfter - objectsBefore).toBe(1);
  });

  it('the database itself refuses a second pending letter of an account', async () => {
    const g = await waitingGroup('Valdez Drama Boosters');
    const db = t.database.db;
    await db.insert(determinationLetters).values({ accountId: g.account.id });
    await expect(db.insert(determinationLetters).values({ accountId: g.account.id })).rejects.toMatchObject({
      cause: { code: '23505' },
    });
    // Reviewed letters do not count.
    await db
      .update(determinationLetters)
      .set({ status: 'returned' })
      .where(eq(determinationLetters.accountId, g.account.id));
    await db.insert(determinationLetters).values({ accountId: g.account.id });
  });
});
