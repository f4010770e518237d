import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, groups, rosterImports } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { GEN_5271_EXTRACT } from '../../src/server/db/seed/seed.ts';
import { importBmf } from '../../src/server/modules/subordinates/import-bmf.ts';
import { adminRosterImportsContracts } from '../../src/shared/contracts/admin-roster-imports.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';
import type { UploadPart } from '../helpers/files.ts';

/**
 * Roster import safety (docs/irs-data.md "Roster import"): an IRS EO BMF file
 * dropped on the uploader takes only the GEN's rows, is staged as a preview, lists nothing until
 * staff confirm, and can be undone as one batch. Uses the real state extracts.
 */

const DATA = path.resolve('../shared/data/irs-eo-bmf');
const EO_OK = path.join(DATA, 'eo_ok.csv');
const EO_WY = path.join(DATA, 'eo_wy.csv');
const GEN = '5271';
const ADMIN = { email: 'roster-admin@example.com', password: 'Roster-admin-123' };
const HOLDER = { email: 'roster-holder@example.com', password: 'Roster-holder-123' };

type BmfRow = Record<string, string>;
const readBmf = (file: string): BmfRow[] =>
  parse(readFileSync(file), { columns: true, bom: true, skip_empty_lines: true });

let t: TestApp;
let admin: Agent;
let adminId: number;
let genGroupId: number;
let plainGroupId: number;
let okRows: BmfRow[];
let okGenRows: BmfRow[];

const csv = (fileName: string, content: Buffer): UploadPart => ({
  field: 'uploads[]',
  fileName,
  content,
  type: 'text/csv',
});
const importInto = (group: number) => ({ create_new_accounts: '1', profile_id: String(group), params: '{}' });
const search = async (keyword: string) =>
  (
    (await new Agent(t.app).get(`/search?search=verify-501c3&keyword=${encodeURIComponent(keyword)}`)).json().data as {
      id: number;
      name: string;
    }[]
  ).map((r) => r.name);
const accountByEin = async (ein: string) =>
  (await t.database.db.select().from(accounts).where(eq(accounts.ein, ein)))[0];
const listedOfGen = async () =>
  (
    await t.database.db
      .select({ n: count() })
      .from(accounts)
      .where(and(eq(accounts.gen, GEN), eq(accounts.isListed, true)))
  )[0]!.n;
const rowsOf = async (id: number, action: string, page = 1) =>
  (
    await admin.call(adminRosterImportsContracts.rows, { params: { id: id }, query: { action: action, page: page } })
  ).json();

/** Shown name of a BMF row, as the importer shows it (a subordinate by its SORT_NAME). */
const shownName = (r: BmfRow) => (r.AFFILIATION === '9' && r.SORT_NAME.trim() ? r.SORT_NAME.trim() : r.NAME.trim());

beforeAll(async () => {
  t = await createTestApp({
    config: {
      uploadLimits: {
        contest_photo: 1024,
        contest_video: 1024,
        roster: 8 * 1024 * 1024,
        profile_image: 1024,
        application_document: 1024,
      },
    },
  });
  adminId = (await createUser(t.database.db, { ...ADMIN, isAdmin: true, firstName: 'Riley' })).id;
  await createUser(t.database.db, HOLDER);
  [{ id: genGroupId }] = await t.database.db
    .insert(groups)
    .values({ label: 'National booster club group exemption', gen: GEN })
    .returning({ id: groups.id });
  [{ id: plainGroupId }] = await t.database.db
    .insert(groups)
    .values({ label: 'Wyoming booster clubs' })
    .returning({ id: groups.id });
  // The GEN's roster as the demo seed loads it: the 806 subordinates of GEN 5271 of the same release.
  await importBmf(t.database.db, GEN_5271_EXTRACT, { gen: GEN });
  await t.database.db.update(accounts).set({ groupId: genGroupId }).where(eq(accounts.gen, GEN));
  admin = await new Agent(t.app).start();
  expect((await admin.login(ADMIN.email, ADMIN.password)).statusCode).toBe(200);
  okRows = existsSync(EO_OK) ? readBmf(EO_OK) : [];
  okGenRows = okRows.filter((r) => r.GROUP === GEN);
});
afterAll(async () => {
  await t?.close();
});

describe('who may see and act on roster imports', () => {
  it('a visitor gets 401 and an account user 403 on every route; nothing changes', async () => {
    const [imp] = await t.database.db
      .insert(rosterImports)
      .values({ groupId: genGroupId, gen: GEN, fileName: 'x.csv' })
      .returning();
    const visitor = await new Agent(t.app).start();
    const holder = await new Agent(t.app).start();
    expect((await holder.login(HOLDER.email, HOLDER.password)).statusCode).toBe(200);
    const routes: [string, string][] = [
      ['GET', '/api/admin/roster-imports'],
      ['GET', '/api/admin/roster-imports/export.csv'],
      ['GET', `/api/admin/roster-imports/${imp.id}`],
      ['GET', `/api/admin/roster-imports/${imp.id}/rows?action=add`],
      ['POST', `/api/admin/roster-imports/${imp.id}/confirm`],
      ['POST', `/api/admin/roster-imports/${imp.id}/discard`],
      ['POST', `/api/admin/roster-imports/${imp.id}/undo`],
    ];
    for (const [method, url] of routes) {
      expect(
        (await visitor.request(method, url, method === 'POST' ? {} : undefined)).statusCode,
        `${method} ${url}`,
      ).toBe(401);
      expect(
        (await holder.request(method, url, method === 'POST' ? {} : undefined)).statusCode,
        `${method} ${url}`,
      ).toBe(403);
    }
    const [after] = await t.database.db.select().from(rosterImports).where(eq(rosterImports.id, imp.id));
    expect(after.status).toBe('preview');
    await t.database.db.delete(rosterImports).where(eq(rosterImports.id, imp.id));
  });

  it('an unknown import is 404, an unknown list 422', async () => {
    expect((await admin.call(adminRosterImportsContracts.show, { params: { id: 999999 } })).statusCode).toBe(404);
    expect((await admin.call(adminRosterImportsContracts.confirm, { params: { id: 999999 } })).statusCode).toBe(404);
    expect((await admin.call(adminRosterImportsContracts.show, { params: { id: 'abc' } })).statusCode).toBe(404);
    const [imp] = await t.database.db
      .insert(rosterImports)
      .values({ groupId: genGroupId, gen: GEN, fileName: 'x.csv' })
      .returning();
    const bad = await admin.call(adminRosterImportsContracts.rows, {
      params: { id: imp.id },
      query: { action: 'delete' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.action).toEqual(['The list must be add, change or remove.']);
    await t.database.db.delete(rosterImports).where(eq(rosterImports.id, imp.id));
  });
});

describe.skipIf(!existsSync(EO_OK))('importing the state file eo_ok.csv for GEN 5271', () => {
  it('needs a group with a GEN: a group without one is 422 and nothing is kept', async () => {
    const res = await admin.upload('/admin/uploads', importInto(plainGroupId), [csv('eo_ok.csv', readFileSync(EO_OK))]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.profile_id).toEqual([
      'An IRS EO BMF file is imported for a group exemption, and the group "Wyoming booster clubs" has no GEN. Choose the group of the central organization\'s GEN.',
    ]);
    expect((await t.database.db.select({ n: count() }).from(rosterImports))[0]!.n).toBe(0);
  });

  it("stages a preview of the GEN's rows only, lists nothing new until confirmed, and undo restores the roster", async () => {
    // Make the roster differ from the file the ways a year of IRS changes does.
    const [added, changed, customer] = okGenRows;
    await t.database.db.delete(accounts).where(eq(accounts.ein, added.EIN));
    await t.database.db
      .update(accounts)
      .set({ city: 'OLD TOWN', searchText: 'old town' })
      .where(eq(accounts.ein, changed.EIN));
    // A customer's own account with the EIN of a subordinate: only the IRS codes are taken.
    await t.database.db
      .update(accounts)
      .set({ source: 'app', isListed: false, gen: null, name: 'Our Own Booster Club', subsection: null })
      .where(eq(accounts.ein, customer.EIN));
    // Listed subordinates no longer in the IRS data: one in Oklahoma (the file covers it), one in Texas (it does not).
    await t.database.db.insert(accounts).values([
      {
        name: 'GONE SOONER BOOSTERS',
        ein: '990000001',
        gen: GEN,
        groupId: genGroupId,
        city: 'TULSA',
        state: 'OK',
        isListed: true,
        source: 'irs-bmf',
        searchText: 'gone sooner boosters tulsa',
      },
      {
        name: 'LONE STAR BOOSTERS',
        ein: '990000002',
        gen: GEN,
        groupId: genGroupId,
        city: 'AUSTIN',
        state: 'TX',
        isListed: true,
        source: 'irs-bmf',
        searchText: 'lone star boosters austin',
      },
    ]);
    const listedBefore = await listedOfGen();
    const accountsBefore = (await t.database.db.select({ n: count() }).from(accounts))[0]!.n;
    expect(await search(shownName(added))).toEqual([]);

    const res = await admin.upload('/admin/uploads', importInto(0), [csv('eo_ok.csv', readFileSync(EO_OK))]);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.import).toBeNull();
    const preview = body.roster_import;
    const noGen = okRows.filter((r) => /^0*$/.test(r.GROUP.trim())).length;
    expect(preview).toMatchObject({
      gen: GEN,
      group: { id: genGroupId, label: 'National booster club group exemption' },
      file_name: 'eo_ok.csv',
      status: 'preview',
      counts: {
        read: okRows.length,
        gen_rows: okGenRows.length,
        other_gen: okRows.length - okGenRows.length - noGen,
        no_gen: noGen,
        rejected: 0,
        duplicates: 0,
        adds: 1,
        changes: 2,
        removals: 1,
        unchanged: okGenRows.length - 3,
      },
      covered_states: ['OK'],
      created_by: 'Riley',
      can_confirm: true,
      can_undo: false,
      blocked_reason: null,
    });
    expect(preview.other_gens[0]).toEqual({ gen: expect.stringMatching(/^\d{4}$/), rows: expect.any(Number) });

    // Nothing is written to accounts and nothing new is public.
    expect((await t.database.db.select({ n: count() }).from(accounts))[0]!.n).toBe(accountsBefore);
    expect(await listedOfGen()).toBe(listedBefore);
    expect(await search(shownName(added))).toEqual([]);
    expect(await search('gone sooner')).toEqual(['GONE SOONER BOOSTERS']);

    // The preview's lists.
    const adds = await rowsOf(preview.id, 'add');
    expect(adds).toMatchObject({ total: 1, current_page: 1 });
    expect(adds.data).toEqual([
      {
        id: expect.any(Number),
        action: 'add',
        ein: added.EIN,
        account_id: null,
        name: shownName(added),
        city: added.CITY,
        state: 'OK',
        changes: [],
      },
    ]);
    const changes = (await rowsOf(preview.id, 'change')).data;
    const cityChange = changes.find((c: { ein: string }) => c.ein === changed.EIN);
    expect(cityChange.changes).toEqual([{ field: 'city', label: 'City', before: 'OLD TOWN', after: changed.CITY }]);
    const customerChange = changes.find((c: { ein: string }) => c.ein === customer.EIN);
    expect(customerChange.name).toBe('Our Own Booster Club');
    expect(customerChange.changes.map((c: { field: string }) => c.field)).toEqual(['gen', 'subsection']);
    const removals = await rowsOf(preview.id, 'remove');
    expect(removals.data.map((r: { ein: string; name: string; state: string }) => [r.ein, r.name, r.state])).toEqual([
      ['990000001', 'GONE SOONER BOOSTERS', 'OK'],
    ]);
    const list = (await admin.call(adminRosterImportsContracts.list)).json();
    expect(list.data[0]).toMatchObject({
      id: preview.id,
      status: 'preview',
      counts: { adds: 1, changes: 2, removals: 1 },
    });

    // Confirm: one transaction, audited; the add is public, the removal is not, the Texas subordinate stays.
    const confirmed = await admin.call(adminRosterImportsContracts.confirm, { params: { id: preview.id } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().message).toBe(
      `Import #${preview.id} was confirmed: 1 subordinate added, 2 changed, 1 taken off the public list.`,
    );
    expect(confirmed.json().import).toMatchObject({
      status: 'confirmed',
      confirmed_by: 'Riley',
      can_confirm: false,
      can_undo: true,
    });
    expect(await search(shownName(added))).toEqual([shownName(added)]);
    expect(await search('gone sooner')).toEqual([]);
    expect(await search('lone star')).toEqual(['LONE STAR BOOSTERS']);
    expect(await accountByEin('990000001')).toMatchObject({ isListed: false, source: 'irs-bmf' });
    expect(await accountByEin(changed.EIN)).toMatchObject({ city: changed.CITY });
    expect(await accountByEin(customer.EIN)).toMatchObject({
      name: 'Our Own Booster Club',
      isListed: false,
      gen: GEN,
      subsection: customer.SUBSECTION,
      source: 'app',
    });
    expect(await accountByEin(added.EIN)).toMatchObject({
      isListed: true,
      gen: GEN,
      groupId: genGroupId,
      source: 'irs-bmf',
    });
    expect(await listedOfGen()).toBe(listedBefore + 1 - 1);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'roster_import.confirmed'));
    expect(audit).toMatchObject({
      actorUserId: adminId,
      details: { import_id: preview.id, gen: GEN, adds: 1, changes: 2, removals: 1 },
    });
    expect((await rowsOf(preview.id, 'add')).data[0].account_id).toBe((await accountByEin(added.EIN))!.id);

    // A second confirm, or a discard, of the same import is refused.
    const again = await admin.call(adminRosterImportsContracts.confirm, { params: { id: preview.id } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This import was already confirmed.');
    expect((await admin.call(adminRosterImportsContracts.discard, { params: { id: preview.id } })).json().message).toBe(
      'This import was already confirmed: undo it instead.',
    );

    // Undo as one batch, audited.
    const undone = await admin.call(adminRosterImportsContracts.undo, { params: { id: preview.id } });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().message).toBe(
      `Import #${preview.id} was undone: 1 added subordinate removed, 2 changes put back, 1 subordinate listed again.`,
    );
    expect(undone.json().import).toMatchObject({ status: 'undone', undone_by: 'Riley', can_undo: false });
    expect(await accountByEin(added.EIN)).toBeUndefined();
    expect(await search(shownName(added))).toEqual([]);
    expect(await search('gone sooner')).toEqual(['GONE SOONER BOOSTERS']);
    expect(await accountByEin(changed.EIN)).toMatchObject({ city: 'OLD TOWN', searchText: 'old town' });
    expect(await accountByEin(customer.EIN)).toMatchObject({ gen: null, subsection: null, isListed: false });
    expect(await listedOfGen()).toBe(listedBefore);
    expect((await t.database.db.select({ n: count() }).from(accounts))[0]!.n).toBe(accountsBefore);
    const [undoAudit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'roster_import.undone'));
    expect(undoAudit.details).toMatchObject({
      import_id: preview.id,
      deleted: 1,
      unlisted: 0,
      restored: 2,
      relisted: 1,
    });
    expect((await admin.call(adminRosterImportsContracts.undo, { params: { id: preview.id } })).json().message).toBe(
      'This import was already undone.',
    );
  });

  it('two confirms at once apply once; an older preview cannot be confirmed after a later one', async () => {
    const file = readFileSync(EO_OK);
    const older = (await admin.upload('/admin/uploads', importInto(genGroupId), [csv('eo_ok.csv', file)])).json()
      .roster_import;
    const newer = (await admin.upload('/admin/uploads', importInto(genGroupId), [csv('eo_ok.csv', file)])).json()
      .roster_import;
    expect(newer.counts.adds).toBe(1);
    const accountsBefore = (await t.database.db.select({ n: count() }).from(accounts))[0]!.n;
    const [a, b] = await Promise.all([
      admin.call(adminRosterImportsContracts.confirm, { params: { id: newer.id } }),
      admin.call(adminRosterImportsContracts.confirm, { params: { id: newer.id } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect((await t.database.db.select({ n: count() }).from(accounts))[0]!.n).toBe(accountsBefore + 1);
    expect(
      (
        await t.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'roster_import.confirmed'))
      )[0]!.n,
    ).toBe(2);

    const stale = await admin.call(adminRosterImportsContracts.confirm, { params: { id: older.id } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(
      `Import #${newer.id} of GEN ${GEN} was confirmed after this preview was made, so the roster it was compared with has changed. Upload the file again for a fresh preview.`,
    );
    expect((await admin.call(adminRosterImportsContracts.show, { params: { id: older.id } })).json()).toMatchObject({
      status: 'preview',
      can_confirm: false,
      blocked_reason: expect.stringContaining(`Import #${newer.id}`),
    });
    const discarded = await admin.call(adminRosterImportsContracts.discard, { params: { id: older.id } });
    expect(discarded.statusCode).toBe(200);
    expect(discarded.json().import.status).toBe('discarded');
    expect((await admin.call(adminRosterImportsContracts.confirm, { params: { id: older.id } })).json().message).toBe(
      'This preview was discarded: upload the file again to import it.',
    );

    // Only the latest confirmed import of the GEN can be undone.
    await t.database.db.update(accounts).set({ city: 'ELSEWHERE' }).where(eq(accounts.ein, okGenRows[5].EIN));
    const latest = (await admin.upload('/admin/uploads', importInto(genGroupId), [csv('eo_ok.csv', file)])).json()
      .roster_import;
    expect(latest.counts).toMatchObject({ adds: 0, changes: 1, removals: 0 });
    expect((await admin.call(adminRosterImportsContracts.confirm, { params: { id: latest.id } })).statusCode).toBe(200);
    const blocked = await admin.call(adminRosterImportsContracts.undo, { params: { id: newer.id } });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toMatch(
      new RegExp(
        `^Import #${latest.id} of GEN ${GEN} was confirmed later \\(\\d{4}-\\d{2}-\\d{2}\\) and built on this one: undo that import first\\.$`,
      ),
    );
    expect((await admin.call(adminRosterImportsContracts.undo, { params: { id: latest.id } })).statusCode).toBe(200);
    expect(await accountByEin(okGenRows[5].EIN)).toMatchObject({ city: 'ELSEWHERE' });

    // An added subordinate that other records refer to is unlisted, never deleted.
    const addedId = (await accountByEin(okGenRows[0].EIN))!.id;
    await createUser(t.database.db, {
      email: 'new-officer@example.com',
      password: 'Officer-pass-123',
      accountId: addedId,
    });
    const undone = await admin.call(adminRosterImportsContracts.undo, { params: { id: newer.id } });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().message).toContain(
      '1 added subordinate removed (1 kept unlisted because other records refer to it)',
    );
    expect(await accountByEin(okGenRows[0].EIN)).toMatchObject({ id: addedId, isListed: false });
    expect(await search(shownName(okGenRows[0]))).toEqual([]);
  });

  it('a preview whose accounts changed meanwhile is refused whole', async () => {
    const preview = (
      await admin.upload('/admin/uploads', importInto(genGroupId), [csv('eo_ok.csv', readFileSync(EO_OK))])
    ).json().roster_import;
    // The change of a city: someone edits that same column before staff confirm.
    const change = (await rowsOf(preview.id, 'change')).data.find((r: { changes: { field: string }[] }) =>
      r.changes.some((c) => c.field === 'city'),
    );
    expect(change).toBeDefined();
    await t.database.db.update(accounts).set({ city: 'MOVED AGAIN' }).where(eq(accounts.ein, change.ein));
    const listedBefore = await listedOfGen();
    const res = await admin.call(adminRosterImportsContracts.confirm, { params: { id: preview.id } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `The roster changed since this preview was made (EIN ${change.ein}). Nothing was written: upload the file again for a fresh preview.`,
    );
    expect(await listedOfGen()).toBe(listedBefore);
    expect((await admin.call(adminRosterImportsContracts.show, { params: { id: preview.id } })).json().status).toBe(
      'preview',
    );
    await admin.call(adminRosterImportsContracts.discard, { params: { id: preview.id } });
  });
});

describe.skipIf(!existsSync(EO_WY))('group resolution', () => {
  it('with no group chosen, the only group with a GEN is used; with two it must be chosen', async () => {
    const res = await admin.upload('/admin/uploads', importInto(0), [csv('eo_wy.csv', readFileSync(EO_WY))]);
    expect(res.statusCode, res.body).toBe(201);
    const wy = readBmf(EO_WY);
    expect(res.json().roster_import).toMatchObject({
      gen: GEN,
      covered_states: ['WY'],
      counts: { read: wy.length, gen_rows: wy.filter((r) => r.GROUP === GEN).length },
    });
    const [other] = await t.database.db.insert(groups).values({ label: 'American Legion', gen: '0925' }).returning();
    const two = await admin.upload('/admin/uploads', importInto(0), [csv('eo_wy.csv', readFileSync(EO_WY))]);
    expect(two.statusCode).toBe(422);
    expect(two.json().errors.profile_id).toEqual([
      'An IRS EO BMF file is imported for a group exemption: choose the group whose GEN it is for.',
    ]);
    // Chosen explicitly, another GEN's rows are taken.
    const legion = (
      await admin.upload('/admin/uploads', importInto(other.id), [csv('eo_wy.csv', readFileSync(EO_WY))])
    ).json().roster_import;
    expect(legion).toMatchObject({
      gen: '0925',
      counts: {
        gen_rows: wy.filter((r) => r.GROUP === '0925').length,
        adds: wy.filter((r) => r.GROUP === '0925').length,
      },
    });
  });

  it('staff search, sort by each column title and export the imports as CSV', async () => {
    const made = await t.database.db
      .insert(rosterImports)
      .values([
        { groupId: genGroupId, gen: GEN, fileName: 'sortcheck-b.csv', status: 'discarded' },
        {
          groupId: genGroupId,
          gen: '0001',
          fileName: 'sortcheck-c.csv',
          status: 'confirmed',
          counts: { adds: 2, changes: 1, removals: 0 },
        },
        { groupId: genGroupId, gen: '9999', fileName: 'sortcheck-a.csv', status: 'undone' },
      ])
      .returning({ id: rosterImports.id });
    const [b, c, a] = made.map((r) => r.id);
    try {
      const ids = async (q: string) =>
        (await admin.get(`/api/admin/roster-imports?search=sortcheck&${q}`))
          .json()
          .data.map((r: { id: number }) => r.id);
      expect(await ids('sort=id')).toEqual([b, c, a]);
      expect(await ids('sort=-id')).toEqual([a, c, b]);
      expect(await ids('sort=gen')).toEqual([c, b, a]);
      expect(await ids('sort=file_name')).toEqual([a, b, c]);
      expect(await ids('sort=-status')).toEqual([a, b, c]);
      expect(await ids('sort=created_at')).toEqual([b, c, a]);
      expect(await ids('status=confirmed')).toEqual([c]);
      expect(
        (await admin.call(adminRosterImportsContracts.list, { query: { search: '0001' } }))
          .json()
          .data.map((r: { id: number }) => r.id),
      ).toEqual([c]);
      const bad = await admin.call(adminRosterImportsContracts.list, { query: { sort: 'adds' } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.sort[0]).toBe(
        'The sort must be one of: created_at, -created_at, id, -id, gen, -gen, file_name, -file_name, status, -status.',
      );
      expect((await admin.call(adminRosterImportsContracts.list, { query: { status: 'lost' } })).statusCode).toBe(422);

      const res = await admin.call(adminRosterImportsContracts.exportCsv, {
        query: { search: 'sortcheck', sort: 'file_name', page: 2 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="roster-imports-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const lines = res.body.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'Import id,GEN,File,Status,Adds,Changes,Removals,Uploaded,Uploaded by,Confirmed,Confirmed by,Undone,Undone by',
      );
      expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([a, b, c]);
      expect(lines[3]).toMatch(
        new RegExp(`^${c},0001,sortcheck-c\\.csv,Confirmed,2,1,0,\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC,,,,,$`),
      );
      expect((await admin.call(adminRosterImportsContracts.exportCsv, { query: { sort: 'adds' } })).statusCode).toBe(
        422,
      );
    } finally {
      await t.database.db.delete(rosterImports).where(inArray(rosterImports.id, [a!, b!, c!]));
    }
  });
});
