import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, groups, invoices, workItems } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { runIrsDataRefresh } from '../../src/server/jobs/irs-data-refresh.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { buildWorkQueue } from '../../src/server/modules/work-queue/build-work-queue.ts';
import { workQueueContracts } from '../../src/shared/contracts/work-queue.ts';
import { Agent, type CallInput, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import type { RouteAddress } from '../../src/shared/contracts/contract.ts';
import type { FastifyInstance } from 'fastify';

/**
 * The staff work queue (docs/work-queue.md): each kind found from IRS releases written in the
 * IRS's layouts (tests/fixtures/irs/work-queue: a March and an April BMF release of one file for
 * the provider's GEN 7100, and an Automatic Revocation List), building again adds nothing, and the
 * staff routes list, filter, count, export, assign, note, resolve and reopen, each audited.
 * "Today" is 25 November 2026.
 */

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'irs', 'work-queue');
const TODAY = '2026-11-25';

let t: TestApp;
let staff: Agent;
let holder: Agent;
let visitor: Agent;
const user = { sam: 0, robin: 0, holder: 0 };
const account: Record<string, number> = {};

async function accountByEin(ein: string) {
  const [a] = await t.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.ein, ein));
  return a.id;
}

/** The items of a kind, by their account's id. */
async function itemsOf(kind: string) {
  return t.database.db
    .select()
    .from(workItems)
    .where(eq(workItems.kind, kind as never))
    .orderBy(workItems.id);
}

const paid = async (accountId: number) => {
  const id = await createInvoice(t.database.db, { accountId, cents: 12_500 });
  await t.database.db.update(invoices).set({ balanceCents: 0 }).where(eq(invoices.id, id));
};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  user.sam = (
    await createUser(db, {
      email: 'sam.staff@example.com',
      password: 'Sam-staff-pass-1',
      isAdmin: true,
      firstName: 'Sam',
    })
  ).id;
  user.robin = (
    await createUser(db, {
      email: 'robin.staff@example.com',
      password: 'Robin-staff-pass-1',
      isAdmin: true,
      firstName: 'Robin',
    })
  ).id;
  staff = await signedIn(t.app, { email: 'sam.staff@example.com', password: 'Sam-staff-pass-1' });
  visitor = await new Agent(t.app).start();
  // The provider's group exemption; GEN 7200 gets the BMF import's own "IRS group exemption 7200".
  await db.insert(groups).values({ label: 'Test central booster group exemption', gen: '7100' });
});
afterAll(async () => {
  await t?.close();
});

describe('buildWorkQueue', () => {
  it('after the March BMF release: roster entries with no membership, a member past its due date with another fiscal year end, paying members not on the roster', async () => {
    const db = t.database.db;
    // A group of another central organization's GEN (7200) joined through the product before the
    // release: the release fills in its IRS facts. The release creates accounts only for the
    // provider's GEN 7100 (unlisted), none for other organizations (docs/irs-data.md "IRS facts").
    await createAccount(db, { name: 'Other Central Chapter', ein: '990100006' });
    expect(
      await loadIrsRelease(db, {
        dataset: 'bmf',
        file: path.join(FIXTURES, '2026-03-09', 'eo_wq.csv'),
        releasedOn: '2026-03-09',
      }),
    ).toMatchObject({ status: 'loaded', loaded: 9 });
    const created = await db.select({ ein: accounts.ein, isListed: accounts.isListed }).from(accounts);
    expect(created.filter((c) => c.ein?.startsWith('9901000')).length).toBe(9);
    expect(created.filter((c) => c.ein?.startsWith('9901000') && c.isListed)).toEqual([]);
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) account[n] = await accountByEin(`99010000${n}`);
    // Members: 5 (told us its fiscal year ends in June), 6 and 9 paid; a customer with no EIN paid.
    await db
      .update(accounts)
      .set({ data: { account___fiscal_year_end: '6' } })
      .where(eq(accounts.id, account[5]));
    for (const n of [5, 6, 9])
      await createUser(db, { email: `member${n}@example.com`, password: `Member-${n}-pass-1`, accountId: account[n] });
    account.noEin = (await createAccount(db, { name: 'No EIN Yet Boosters' })).id;
    user.holder = (
      await createUser(db, {
        email: 'noein.holder@example.com',
        password: 'Noein-holder-pass-1',
        accountId: account.noEin,
      })
    ).id;
    holder = await signedIn(t.app, { email: 'noein.holder@example.com', password: 'Noein-holder-pass-1' });
    for (const id of [account[6], account[9], account.noEin]) await paid(id);
    // An unpaid invoice does not make a paying member.
    await createInvoice(db, { accountId: account[5], cents: 12_500 });

    const built = await buildWorkQueue(db, TODAY);
    expect(built.byKind).toEqual({
      left_roster: 0,
      past_due: 1,
      fiscal_year_mismatch: 1,
      name_changed: 0,
      address_changed: 0,
      paying_not_on_roster: 2,
      roster_no_membership: 6,
      revoked: 0,
      reinstated: 0,
      determination_letter: 0,
      link_request: 0,
      reinstatement_order: 0,
    });
    expect((await itemsOf('roster_no_membership')).map((i) => i.accountId)).toEqual(
      [1, 2, 3, 4, 7, 8].map((n) => account[n]),
    );
    const [pastDue] = await itemsOf('past_due');
    // Latest return 2022 (TAX_PERIOD 202212): 2023 and 2024 missed by the March data; 2025's due date was after it.
    expect(pastDue).toMatchObject({
      accountId: account[5],
      key: `past_due:${account[5]}:2024`,
      details: {
        state: 'past_revocation_date',
        missed_tax_years: [2023, 2024],
        revocation_date: '2026-05-15',
        bmf_released_on: '2026-03-09',
      },
    });
    expect((await itemsOf('fiscal_year_mismatch'))[0]).toMatchObject({
      accountId: account[5],
      details: { irs_month: 12, own_month: 6 },
    });
    expect((await itemsOf('paying_not_on_roster')).map((i) => [i.accountId, i.details.reason])).toEqual([
      [account[6], 'other_gen'],
      [account.noEin, 'no_ein'],
    ]);
  });

  it('after the April BMF release and the revocation list: left the roster, name and address changes, revoked and reinstated', async () => {
    const db = t.database.db;
    expect(
      await loadIrsRelease(db, {
        dataset: 'bmf',
        file: path.join(FIXTURES, '2026-04-13', 'eo_wq.csv'),
        releasedOn: '2026-04-13',
      }),
    ).toMatchObject({ status: 'loaded', loaded: 7 });
    expect(
      await loadIrsRelease(db, {
        dataset: 'revocations',
        file: path.join(FIXTURES, 'revocations-2026-10.txt'),
        releasedOn: '2026-10-14',
      }),
    ).toMatchObject({ status: 'loaded', loaded: 2 });
    const built = await buildWorkQueue(db, TODAY);
    expect(built.byKind).toEqual({
      left_roster: 2,
      past_due: 0,
      fiscal_year_mismatch: 0,
      name_changed: 1,
      address_changed: 1,
      paying_not_on_roster: 0,
      roster_no_membership: 0,
      revoked: 1,
      reinstated: 1,
      determination_letter: 0,
      link_request: 0,
      reinstatement_order: 0,
    });
    expect((await itemsOf('left_roster')).map((i) => [i.accountId, i.details])).toEqual(
      [2, 7].map((n) => [
        account[n],
        {
          gen: '7100',
          file: 'eo_wq.csv',
          last_seen_released_on: '2026-03-09',
          missing_from_released_on: '2026-04-13',
        },
      ]),
    );
    expect((await itemsOf('name_changed'))[0]).toMatchObject({
      accountId: account[3],
      details: {
        before: { name: 'RENAMED BOOSTERS' },
        after: { name: 'RENAMED BOOSTERS OF TULSA' },
        released_on: '2026-04-13',
      },
    });
    expect((await itemsOf('address_changed'))[0]).toMatchObject({
      accountId: account[4],
      details: {
        before: { street: '1 OLD RD', city: 'ANYTOWN', state: 'OK', zip: '73501-0004' },
        after: { street: '40 NEW RD', city: 'TULSA', state: 'OK', zip: '74101-0004' },
      },
    });
    expect((await itemsOf('revoked'))[0]).toMatchObject({
      accountId: account[7],
      ein: '990100007',
      details: { revoked_on: '2026-05-15', posted_on: '2026-08-10', earlier_revocations: 0 },
    });
    expect((await itemsOf('reinstated'))[0]).toMatchObject({
      accountId: account[8],
      details: { revoked_on: '2025-05-15', reinstated_on: '2026-06-01' },
    });
    // Nothing for the member on the roster, in good standing, with its membership paid.
    expect(await db.select().from(workItems).where(eq(workItems.accountId, account[9]))).toEqual([]);
  });

  it('building again finds the same things and adds nothing', async () => {
    const before = (await t.database.db.select({ n: count() }).from(workItems))[0].n;
    expect((await buildWorkQueue(t.database.db, TODAY)).added).toBe(0);
    expect((await t.database.db.select({ n: count() }).from(workItems))[0].n).toBe(before);
  });
});

describe('GET /api/admin/work-queue', () => {
  it('lists the open items oldest first, 25 a page, with the counts per kind', async () => {
    const res = await staff.call(workQueueContracts.list);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.total).toBe(16);
    expect(page.counts).toEqual({
      left_roster: 2,
      past_due: 1,
      fiscal_year_mismatch: 1,
      name_changed: 1,
      address_changed: 1,
      paying_not_on_roster: 2,
      roster_no_membership: 6,
      revoked: 1,
      reinstated: 1,
      determination_letter: 0,
      link_request: 0,
      reinstatement_order: 0,
    });
    expect(page.data).toHaveLength(16);
    const ids = page.data.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const left = page.data.find(
      (r: { kind: string; account: { id: number } }) => r.kind === 'left_roster' && r.account.id === account[2],
    );
    expect(left).toMatchObject({
      kind_label: 'Left the GEN roster',
      status: 'open',
      ein: '990100002',
      released_on: '2026-04-13',
      assignee: null,
      account: { id: account[2], name: 'LEAVING BOOSTERS', ein: '990100002' },
      summary: 'GEN 7100: not in the BMF release of 2026-04-13 (eo_wq.csv); last seen in the release of 2026-03-09.',
    });
  });

  it('filters by kind, sorts by account name, and refuses an unknown filter with 422', async () => {
    const page = (
      await staff.call(workQueueContracts.list, { query: { kind: 'roster_no_membership', sort: '-account' } })
    ).json();
    expect(page.total).toBe(6);
    expect(page.data.map((r: { account: { name: string } }) => r.account.name)).toEqual([
      'STAYS BOOSTERS',
      'REVOKED BOOSTERS',
      'RENAMED BOOSTERS OF TULSA',
      'REINSTATED BOOSTERS',
      'MOVING BOOSTERS',
      'LEAVING BOOSTERS',
    ]);
    expect(page.counts.left_roster).toBe(2);
    const bad = await staff.call(workQueueContracts.list, { query: { kind: 'nope', sort: 'name' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      kind: ['The selected kind is invalid.'],
      sort: [expect.stringContaining('The sort must be one of: created_at')],
    });
    expect(
      (await staff.call(workQueueContracts.list, { query: { assignee: 'someone' } })).json().errors.assignee,
    ).toEqual(['The selected assignee is invalid.']);
  });
});

describe('acting on an item', () => {
  let id: number;

  beforeAll(async () => {
    id = (await itemsOf('left_roster'))[0].id;
  });

  it('assigns it to me, then to another staff user, never to someone who is not staff', async () => {
    const mine = await staff.call(workQueueContracts.assign, { params: { id }, body: { assignee: 'me' } });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      message: 'The item was assigned to Sam.',
      item: { assignee: { id: user.sam, name: 'Sam' } },
    });
    expect(
      (await staff.call(workQueueContracts.list, { query: { assignee: 'me' } }))
        .json()
        .data.map((r: { id: number }) => r.id),
    ).toEqual([id]);
    const robin = await staff.call(workQueueContracts.assign, { params: { id }, body: { assignee: user.robin } });
    expect(robin.json().item.assignee).toMatchObject({ id: user.robin, name: 'Robin' });
    expect((await staff.call(workQueueContracts.list, { query: { assignee: 'me' } })).json().total).toBe(0);
    expect((await staff.call(workQueueContracts.list, { query: { assignee: user.robin } })).json().total).toBe(1);
    expect((await staff.call(workQueueContracts.list, { query: { assignee: 'none' } })).json().total).toBe(15);
    const notStaff = await staff.call(workQueueContracts.assign, { params: { id }, body: { assignee: user.holder } });
    expect(notStaff.statusCode).toBe(422);
    expect(notStaff.json().errors.assignee).toEqual(['The selected assignee is not a staff user.']);
  });

  it('adds a note, resolves it with a resolution, refuses to resolve it twice, and reopens it', async () => {
    const empty = await staff.call(workQueueContracts.addNote, { params: { id }, body: { body: '  ' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.body).toEqual(['The note field is required.']);
    const note = await staff.call(workQueueContracts.addNote, {
      params: { id },
      body: { body: 'Called the treasurer: the group merged with another club.' },
    });
    expect(note.statusCode).toBe(201);
    expect(note.json().item.notes).toEqual([
      expect.objectContaining({ body: 'Called the treasurer: the group merged with another club.', author: 'Sam' }),
    ]);

    expect((await staff.call(workQueueContracts.resolve, { params: { id } })).json().errors.resolution).toEqual([
      'The resolution field is required.',
    ]);
    const resolved = await staff.call(workQueueContracts.resolve, {
      params: { id },
      body: { resolution: 'Deletion listed in the annual GEN update.' },
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().item).toMatchObject({
      status: 'resolved',
      resolution: 'Deletion listed in the annual GEN update.',
      resolved_by: { id: user.sam },
    });
    const twice = await staff.call(workQueueContracts.resolve, { params: { id }, body: { resolution: 'Again.' } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This item is already resolved.');
    expect((await staff.call(workQueueContracts.list)).json().counts.left_roster).toBe(1);
    expect(
      (await staff.call(workQueueContracts.list, { query: { status: 'resolved' } }))
        .json()
        .data.map((r: { id: number }) => r.id),
    ).toEqual([id]);

    // A build does not bring a resolved item back.
    expect((await buildWorkQueue(t.database.db, TODAY)).added).toBe(0);
    expect((await staff.call(workQueueContracts.show, { params: { id } })).json().status).toBe('resolved');

    const reopened = await staff.call(workQueueContracts.reopen, { params: { id } });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().item).toMatchObject({ status: 'open', resolution: '', resolved_by: null });
    expect((await staff.call(workQueueContracts.reopen, { params: { id } })).statusCode).toBe(409);
  });

  it('shows the item with its notes and history, every action audited with the account', async () => {
    const item = (await staff.call(workQueueContracts.show, { params: { id } })).json();
    expect(item.details).toMatchObject({ gen: '7100', missing_from_released_on: '2026-04-13' });
    expect(
      item.history.map((e: { action: string; actor: string | null; text: string }) => [e.action, e.actor, e.text]),
    ).toEqual([
      ['found', null, 'Found by the IRS data refresh'],
      ['assigned', 'Sam', 'Assigned to Sam'],
      ['assigned', 'Sam', 'Assigned to Robin'],
      ['note_added', 'Sam', 'Note added'],
      ['resolved', 'Sam', 'Resolved: Deletion listed in the annual GEN update.'],
      ['reopened', 'Sam', 'Reopened'],
    ]);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(like(auditLog.action, 'work_item.%'), eq(auditLog.accountId, account[2])))
      .orderBy(auditLog.id);
    expect(audits.map((a) => a.action)).toEqual([
      'work_item.assigned',
      'work_item.assigned',
      'work_item.note_added',
      'work_item.resolved',
      'work_item.reopened',
    ]);
    expect(
      audits.every((a) => a.actorUserId === user.sam && a.details.item_id === id && a.details.kind === 'left_roster'),
    ).toBe(true);
    expect(audits[3].details).toMatchObject({ resolution: 'Deletion listed in the annual GEN update.' });
    expect(audits[4].details).toMatchObject({ previous_resolution: 'Deletion listed in the annual GEN update.' });
  });

  it('answers 404 for an item that does not exist', async () => {
    expect((await staff.call(workQueueContracts.show, { params: { id: 999999 } })).statusCode).toBe(404);
    expect(
      (await staff.call(workQueueContracts.resolve, { params: { id: 999999 }, body: { resolution: 'x' } })).statusCode,
    ).toBe(404);
    expect((await staff.call(workQueueContracts.show, { params: { id: 'abc' } })).statusCode).toBe(404);
  });
});

describe('GET /api/admin/work-queue/export.csv', () => {
  it('exports the filtered list as CSV, each row linking to the account', async () => {
    const res = await staff.call(workQueueContracts.exportCsv, { query: { kind: 'name_changed' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="work-queue-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Item,Kind,Status,Account,Account name,EIN,What was found,IRS release,Assigned to,Found,Updated,Resolved,Resolution,Account page',
    );
    expect(lines).toHaveLength(2);
    // The summary holds quotes and commas: quoted, with its quotes doubled.
    expect(lines[1]).toContain(
      `,Name changed,open,${account[3]},RENAMED BOOSTERS OF TULSA,990100003,"Name in the BMF changed from ""RENAMED BOOSTERS"" to ""RENAMED BOOSTERS OF TULSA""."`,
    );
    expect(lines[1]).toMatch(
      new RegExp(`,${t.config.publicUrl.replace(/[.:/]/g, '\\$&')}/admin/accounts/show/${account[3]}$`),
    );
    const all = (await staff.call(workQueueContracts.exportCsv, { query: { status: 'all' } })).body
      .trimEnd()
      .split('\r\n');
    expect(all).toHaveLength(17);
  });
});

describe('who may call the work queue', () => {
  const c = workQueueContracts;
  const item = { params: { id: 1 } };
  const routes: [RouteAddress, CallInput][] = [
    [c.list, {}],
    [c.exportCsv, {}],
    [c.staff, {}],
    [c.build, {}],
    [c.show, item],
    [c.assign, { ...item, body: { assignee: 'me' } }],
    [c.addNote, { ...item, body: { body: 'x' } }],
    [c.resolve, { ...item, body: { resolution: 'x' } }],
    [c.reopen, item],
  ];

  it('answers 401 to a visitor and 403 to an account holder, and changes nothing', async () => {
    const before = await t.database.db.select().from(workItems).orderBy(workItems.id);
    for (const [route, input] of routes) {
      expect((await visitor.call(route, input)).statusCode, `${route.method} ${route.url}`).toBe(401);
      expect((await holder.call(route, input)).statusCode, `${route.method} ${route.url}`).toBe(403);
    }
    expect(await t.database.db.select().from(workItems).orderBy(workItems.id)).toEqual(before);
  });

  it('finds new items when staff ask, audited', async () => {
    const res = await staff.call(workQueueContracts.build);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Nothing new was found.', added: 0 });
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'work_queue.built'));
    expect(audit).toMatchObject({ actorUserId: user.sam, details: { added: 0 } });
  });

  it('lists the staff users items can be assigned to', async () => {
    const res = await staff.call(workQueueContracts.staff);
    expect(res.json().staff).toEqual([
      { id: user.robin, name: 'Robin', email: 'robin.staff@example.com' },
      { id: user.sam, name: 'Sam', email: 'sam.staff@example.com' },
    ]);
  });
});

describe('the IRS data refresh job', () => {
  it('builds the work queue after loading, and says what it added', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-wq-refresh-'));
    try {
      fs.mkdirSync(path.join(dir, 'revocations', '2026-11-10'), { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'revocations', '2026-11-10', 'revocations.txt'),
        '990100003|TEST CENTRAL BOOSTERS INC|RENAMED BOOSTERS OF TULSA|3 MAIN ST|ANYTOWN|OK|73501|US|03|15-MAY-2026|09-NOV-2026|\r\n',
      );
      const app = {
        config: { ...t.config, jobs: { ...t.config.jobs, irsDataDir: dir } },
        db: t.database.db,
      } as unknown as FastifyInstance;
      const run = await runIrsDataRefresh(app);
      expect(run.itemsDone).toBe(1);
      expect(run.summary.workItemsAdded).toMatchObject({ revoked: 1, left_roster: 0 });
      expect((await itemsOf('revoked')).map((i) => i.accountId)).toContain(account[3]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
