import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, groups, groupUsers, mailOutbox, users } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { accountUserContracts } from '../../src/shared/contracts/account-settings.ts';
import { adminIrsBulkChecksContracts } from '../../src/shared/contracts/admin-irs-bulk-checks.ts';
import { groupWorkspaceContracts } from '../../src/shared/contracts/group-workspace.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { GROUP_WORKSPACE_TEXT } from '../../src/shared/schemas/group-workspace.ts';
import { acceptInvitation, invitationLink } from '../helpers/invitations.ts';
import { databaseFingerprint, sessionAgent } from '../helpers/routes.ts';
import { Agent, createTestApp, fillPath, signedIn, type TestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * The central organization's workspace (docs/roles.md "Central organizations"): staff invite a
 * group's first manager, who invites the group's other users; a viewer reads only; a user of one
 * group reaches nothing of another (404, nothing written); the group's users check a CSV of EINs
 * and download the standings, as staff do (docs/irs-standing.md "Checking a list of EINs"), on the
 * real rows of eo_ak.csv.
 */

const EO_AK = path.resolve('../shared/data/irs-eo-bmf/eo_ak.csv');
const c = groupWorkspaceContracts;
const INVITATION = 'group_users.invitation';
const GROUP_404 = 'The group could not be found.';

let t: TestApp;
const db = () => t.database.db;
const fx = {} as {
  groupA: number;
  groupB: number;
  staff: Agent;
  managerB: Agent;
  holder: number;
};
/** Real EINs of eo_ak.csv. */
let akEins: string[];

const csvFile = (content: string) => [
  { field: 'file', fileName: 'chapters.csv', content: Buffer.from(content), type: 'text/csv' },
];

/** `contract`'s URL for group `groupId`, with any other parameters. */
const urlOf = (contract: { url: string }, groupId: number, more: Record<string, number> = {}) =>
  fillPath(contract.url, { groupId, ...more });

/** Invites `email` to group `groupId` as `role` through the workspace route. */
function invite(agent: Agent, groupId: number, email: string, role: 'manager' | 'viewer') {
  return agent.call(c.invite, { params: { groupId }, body: { email, first_name: 'Pat', last_name: 'Lee', role } });
}

/** The newest audit row of `action`. */
async function lastAudit(action: string) {
  const [row] = await db()
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

/** Uploads `content` as `agent` to group `groupId` and waits for the check to end; answers its final state. */
async function checkToEnd(agent: Agent, groupId: number, content: string) {
  const res = await agent.upload(urlOf(c.uploadBulkCheck, groupId), {}, csvFile(content));
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  let last = res.json();
  expect(
    await waitFor(async () => {
      last = (await agent.call(c.bulkCheck, { params: { groupId, id } })).json();
      return last.status !== 'running';
    }, 60_000),
  ).toBe(true);
  return last;
}

beforeAll(async () => {
  t = await createTestApp({ config: { limits: { bulk_checks_per_group: 3 } } });
  expect(await loadIrsRelease(db(), { dataset: 'bmf', file: EO_AK, releasedOn: '2026-04' })).toMatchObject({
    status: 'loaded',
  });
  akEins = (parse(readFileSync(EO_AK), { columns: true }) as { EIN: string }[]).slice(0, 4).map((r) => r.EIN);
  [{ id: fx.groupA }] = await db()
    .insert(groups)
    .values({ label: 'Alaska Congress of Parents', gen: '4701', centralName: 'Alaska PTA' })
    .returning({ id: groups.id });
  [{ id: fx.groupB }] = await db()
    .insert(groups)
    .values({ label: 'Birchwood Secret League', gen: '4702', centralName: 'Birchwood League' })
    .returning({ id: groups.id });
  const staffId = (
    await createUser(db(), { email: 'group.staff@example.com', password: 'Staff-pass-2026', isAdmin: true })
  ).id;
  fx.staff = await sessionAgent(t, staffId);
  const managerB = (await createUser(db(), { email: 'manager.b@example.com', password: 'Manager-pass-2026' })).id;
  await db().insert(groupUsers).values({ groupId: fx.groupB, userId: managerB, role: 'manager' });
  fx.managerB = await sessionAgent(t, managerB);
  const account = await createAccount(db(), { name: 'Juneau Chapter', state: 'AK' });
  fx.holder = (
    await createUser(db(), {
      email: 'juneau.officer@example.com',
      password: 'Officer-pass-2026',
      accountId: account.id,
    })
  ).id;
});
afterAll(async () => {
  await t?.close();
});

describe("a central organization's users", () => {
  it("staff invite the group's first manager, who sets a password and lands on the workspace", async () => {
    const res = await invite(fx.staff, fx.groupA, 'First.Manager@Example.com', 'manager');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: GROUP_WORKSPACE_TEXT.invited('first.manager@example.com'),
      user: { email: 'first.manager@example.com', role: 'manager', first_name: 'Pat' },
    });
    expect(res.json().user.invited_at).not.toBeNull();
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, INVITATION), eq(mailOutbox.toAddress, 'first.manager@example.com')));
    expect(mail.subject).toBe("You are invited to a central organization's workspace on GoodStanding");
    expect(mail.textBody).toContain('“Alaska Congress of Parents” (group exemption number 4701)');
    expect(mail.textBody).toContain('as manager');
    expect(mail.textBody).toContain('sent by GoodStanding staff');
    expect((await lastAudit('group_users.invited'))?.details).toMatchObject({ groupId: fx.groupA, byStaff: true });

    // Until the link is used, the address cannot sign in.
    const before = await new Agent(t.app).start();
    expect((await before.login('first.manager@example.com', 'Chosen-pass-2026')).statusCode).toBe(422);

    const { token } = await invitationLink(db(), 'first.manager@example.com', INVITATION);
    const agent = await new Agent(t.app).start();
    const set = await agent.call(signInContracts.resetPassword, {
      body: {
        token,
        email: 'first.manager@example.com',
        password: 'Chosen-pass-2026',
        password_confirmation: 'Chosen-pass-2026',
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ url: '/app/group', message: 'Your password is set. Welcome!' });
    const again = await new Agent(t.app).start();
    const login = await again.login('first.manager@example.com', 'Chosen-pass-2026');
    expect(login.json().redirect).toBe('/app/group');
    expect((await again.get(c.list.url)).json()).toEqual({
      data: [
        {
          id: fx.groupA,
          label: 'Alaska Congress of Parents',
          gen: '4701',
          central_name: 'Alaska PTA',
          role: 'manager',
        },
      ],
    });
    expect((await again.call(c.show, { params: { groupId: fx.groupA } })).json()).toMatchObject({
      role: 'manager',
      gen: '4701',
    });
  });

  it("a manager invites a viewer, who reads the group's users and may not invite or remove", async () => {
    const manager = await signedIn(t.app, { email: 'first.manager@example.com', password: 'Chosen-pass-2026' });
    const res = await invite(manager, fx.groupA, 'viewer.a@example.com', 'viewer');
    expect(res.statusCode, res.body).toBe(201);
    const mail = await invitationLink(db(), 'viewer.a@example.com', INVITATION);
    expect(mail.link).toContain('invitation=1');
    const viewer = await acceptInvitation(t.app, db(), 'viewer.a@example.com', 'Viewer-pass-2026', {
      kind: INVITATION,
    });

    const list = await viewer.call(c.users, { params: { groupId: fx.groupA } });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      ['first.manager@example.com', 'manager'],
      ['viewer.a@example.com', 'viewer'],
    ]);
    expect(list.json().data.every((u: { invited_at: string | null }) => u.invited_at === null)).toBe(true);

    const before = await databaseFingerprint(db());
    const refused = await invite(viewer, fx.groupA, 'someone.else@example.com', 'viewer');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(GROUP_WORKSPACE_TEXT.managersOnly);
    const managerId = list.json().data[0].user_id as number;
    const remove = await viewer.call(c.remove, { params: { groupId: fx.groupA, userId: managerId } });
    expect(remove.statusCode).toBe(403);
    expect(await databaseFingerprint(db())).toBe(before);
  });

  it("a chapter's officer who already signs in is added without a new password, and keeps their own home", async () => {
    const res = await invite(fx.staff, fx.groupA, 'juneau.officer@example.com', 'viewer');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(GROUP_WORKSPACE_TEXT.added('juneau.officer@example.com'));
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'juneau.officer@example.com'))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(mail.kind).toBe('group_users.added');
    expect(mail.carriesToken).toBe(false);
    expect(mail.textBody).not.toContain('/password/reset/');
    const officer = await new Agent(t.app).start();
    expect((await officer.login('juneau.officer@example.com', 'Officer-pass-2026')).json().redirect).toBe('/app');
    expect((await officer.get(c.list.url)).json().data.map((g: { id: number }) => g.id)).toEqual([fx.groupA]);
  });

  it('someone invited elsewhere who has not chosen a password yet is invited again, with a new link', async () => {
    const first = await invite(fx.managerB, fx.groupB, 'twice.invited@example.com', 'viewer');
    expect(first.statusCode, first.body).toBe(201);
    const again = await invite(fx.staff, fx.groupA, 'twice.invited@example.com', 'viewer');
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().message).toBe(GROUP_WORKSPACE_TEXT.invited('twice.invited@example.com'));
    const mails = await db()
      .select({ kind: mailOutbox.kind })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'twice.invited@example.com'));
    expect(mails.map((m) => m.kind)).toEqual([INVITATION, INVITATION]);
    const agent = await acceptInvitation(t.app, db(), 'twice.invited@example.com', 'Twice-pass-2026', {
      kind: INVITATION,
    });
    expect(
      (await agent.get(c.list.url))
        .json()
        .data.map((g: { id: number }) => g.id)
        .sort(),
    ).toEqual([fx.groupA, fx.groupB].sort());
  });

  it('refuses a staff address and a user of the group already, on the e-mail field', async () => {
    const staffAddress = await invite(fx.staff, fx.groupA, 'group.staff@example.com', 'manager');
    expect(staffAddress.statusCode).toBe(422);
    expect(staffAddress.json().errors.email).toEqual([GROUP_WORKSPACE_TEXT.staffAccount]);
    const twice = await invite(fx.staff, fx.groupA, 'viewer.a@example.com', 'manager');
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.email).toEqual([GROUP_WORKSPACE_TEXT.alreadyUser]);
    const bad = await fx.staff.call(c.invite, {
      params: { groupId: fx.groupA },
      body: {
        email: 'nope',
        first_name: '',
        last_name: 'X',
        role: 'owner',
      },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['email', 'first_name', 'role']);
  });

  it('a manager removes a user, who loses the workspace at once; the last manager stays', async () => {
    const users_ = (await fx.staff.call(c.users, { params: { groupId: fx.groupA } })).json().data as {
      user_id: number;
      email: string;
    }[];
    const viewerId = users_.find((u) => u.email === 'viewer.a@example.com')!.user_id;
    const managerId = users_.find((u) => u.email === 'first.manager@example.com')!.user_id;
    const viewer = await sessionAgent(t, viewerId);
    expect((await viewer.call(c.show, { params: { groupId: fx.groupA } })).statusCode).toBe(200);

    const manager = await sessionAgent(t, managerId);
    const res = await manager.call(c.remove, { params: { groupId: fx.groupA, userId: viewerId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(GROUP_WORKSPACE_TEXT.removed('viewer.a@example.com'));
    const gone = await viewer.call(c.show, { params: { groupId: fx.groupA } });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(GROUP_404);
    // They chose a password: they keep their sign-in.
    expect(await db().select({ id: users.id }).from(users).where(eq(users.id, viewerId))).toHaveLength(1);

    const last = await manager.call(c.remove, { params: { groupId: fx.groupA, userId: managerId } });
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe(GROUP_WORKSPACE_TEXT.lastManager);
  });

  it('removing a pending invitation deletes the invited user, so the link stops working', async () => {
    const res = await invite(fx.staff, fx.groupA, 'pending.viewer@example.com', 'viewer');
    const userId = res.json().user.user_id as number;
    const { token } = await invitationLink(db(), 'pending.viewer@example.com', INVITATION);
    expect((await fx.staff.call(c.remove, { params: { groupId: fx.groupA, userId } })).statusCode).toBe(200);
    expect(await db().select({ id: users.id }).from(users).where(eq(users.id, userId))).toHaveLength(0);
    expect((await lastAudit('group_users.removed'))?.details).toMatchObject({
      userId,
      userDeleted: true,
      byStaff: true,
    });
    const use = await (
      await new Agent(t.app).start()
    ).post('/password/reset', {
      token,
      email: 'pending.viewer@example.com',
      password: 'Late-pass-2026',
      password_confirmation: 'Late-pass-2026',
    });
    expect(use.statusCode).toBe(422);
  });

  it('"This was not me" ends a group invitation and tells staff', async () => {
    await invite(fx.staff, fx.groupA, 'not.me@example.com', 'viewer');
    const { token } = await invitationLink(db(), 'not.me@example.com', INVITATION);
    const visitor = await new Agent(t.app).start();
    const res = await visitor.call(accountUserContracts.notMe, { body: { token } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await db().select({ id: users.id }).from(users).where(eq(users.email, 'not.me@example.com'))).toHaveLength(
      0,
    );
    const [staffMail] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'group_users.invitation_ended.staff'))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(staffMail.textBody).toContain('Invited address: not[.]me@example[.]com');
    expect(staffMail.textBody).toContain('Group: “Alaska Congress of Parents” (GEN 4701)');
    expect((await lastAudit('group_users.invitation_ended'))?.details).toMatchObject({
      reason: 'declined',
      groupIds: [fx.groupA],
    });
  });
});

describe("a central organization's supervision of its member groups", () => {
  it('lists its member groups with their reports, and a manager sends the yearly notice once', async () => {
    const members = [];
    for (const name of ['Anchorage Booster Club', 'Fairbanks Booster Club']) {
      const account = await createAccount(db(), { name, state: 'AK' });
      await db().update(accounts).set({ groupId: fx.groupA }).where(eq(accounts.id, account.id));
      members.push(account.id);
    }
    await createUser(db(), {
      email: 'anchorage.officer@example.com',
      password: 'Officer-pass-2026',
      accountId: members[0],
    });
    const [manager] = await db()
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'first.manager@example.com'));
    const agent = await sessionAgent(t, manager.id);

    const list = await agent.call(c.supervision, { params: { groupId: fx.groupA }, query: { status: 'missing' } });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().group_id).toBe(fx.groupA);
    expect(list.json().data.map((r: { name: string }) => r.name)).toEqual([
      'Anchorage Booster Club',
      'Fairbanks Booster Club',
    ]);
    // A page of 25: the next page's link is the workspace's own list, with the filter kept.
    await db()
      .insert(accounts)
      .values(Array.from({ length: 24 }, (_, k) => ({ name: `Zz Chapter ${k + 10}`, groupId: fx.groupA })));
    const first = (
      await agent.call(c.supervision, { params: { groupId: fx.groupA }, query: { status: 'missing' } })
    ).json();
    expect(first.data).toHaveLength(25);
    expect(first.next_page_url).toMatch(
      new RegExp(`^/api/app/groups/${fx.groupA}/supervision\\?tax_year=\\d{4}&status=missing&page=2$`),
    );
    expect((await agent.get(first.next_page_url)).json().data.map((r: { name: string }) => r.name)).toEqual([
      'Zz Chapter 33',
    ]);

    const overview = (await agent.call(c.supervisionOverview, { params: { groupId: fx.groupA } })).json();
    expect(overview.groups).toHaveLength(1);
    expect(overview.groups[0]).toMatchObject({ id: fx.groupA, members: 26, recipients: 1, education: null });

    const year = overview.year as number;
    const [officer] = await db()
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'juneau.officer@example.com'));
    const viewer = await sessionAgent(t, officer.id);
    const refused = await viewer.call(c.sendEducation, { params: { groupId: fx.groupA }, body: { year } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(GROUP_WORKSPACE_TEXT.managersOnly);

    const sent = await agent.call(c.sendEducation, { params: { groupId: fx.groupA }, body: { year } });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toEqual({
      message: `The ${year} compliance education notice of Alaska Congress of Parents was queued for 1 users.`,
      recipients: 1,
    });
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'anchorage.officer@example.com'))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(mail.kind).toMatch(/education/);
    expect((await agent.call(c.sendEducation, { params: { groupId: fx.groupA }, body: { year } })).statusCode).toBe(
      409,
    );
    expect(
      (await agent.call(c.supervisionOverview, { params: { groupId: fx.groupA } })).json().groups[0].education,
    ).toMatchObject({
      recipients: 1,
      sent_by: 'first.manager@example.com',
    });
  });
});

describe("a central organization's check of a list of EINs", () => {
  let checkA: number;
  let managerA: Agent;

  beforeAll(async () => {
    const [row] = await db().select({ id: users.id }).from(users).where(eq(users.email, 'first.manager@example.com'));
    managerA = await sessionAgent(t, row.id);
  });

  it("answers each chapter's standing as a CSV, seen by the group and staff only", async () => {
    const done = await checkToEnd(managerA, fx.groupA, ['EIN', ...akEins, '990009999'].join('\n'));
    expect(done).toMatchObject({ status: 'done', total: 5, done: 5, error: null });
    checkA = done.id;
    const res = await managerA.call(c.bulkCheckResult, { params: { groupId: fx.groupA, id: checkA } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header, ...lines] = parse(res.body) as string[][];
    expect(header[0]).toBe('EIN');
    expect(lines.map((l) => l[0].replace('-', ''))).toEqual([...akEins, '990009999']);
    expect(lines.at(-1)![4]).toBe('Not found in the IRS data');
    expect(done.counts.not_found).toBe(1);
    expect((await lastAudit('irs_bulk_check.started'))?.details).toMatchObject({
      bulk_check_id: checkA,
      group_id: fx.groupA,
    });

    expect(
      (await managerA.call(c.bulkChecks, { params: { groupId: fx.groupA } }))
        .json()
        .data.map((r: { id: number }) => r.id),
    ).toEqual([checkA]);
    expect((await fx.managerB.call(c.bulkChecks, { params: { groupId: fx.groupB } })).json().data).toEqual([]);
    const staffList = (await fx.staff.call(adminIrsBulkChecksContracts.list)).json().data as { id: number }[];
    expect(staffList.map((r) => r.id)).toContain(checkA);
    // B's manager naming A's check under B's own group finds nothing.
    const other = await fx.managerB.call(c.bulkCheckResult, { params: { groupId: fx.groupB, id: checkA } });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('The check could not be found.');
  });

  it('a user of another group reaches nothing of the group on any route, and writes nothing', async () => {
    const [viewer] = await db()
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'juneau.officer@example.com'));
    const routes = Object.values(c).filter((r) => r.access === 'group-user');
    expect(routes.length).toBeGreaterThan(6);
    for (const route of routes) {
      const url = urlOf(route, fx.groupA, { id: checkA, userId: viewer.id });
      const before = await databaseFingerprint(db());
      const res =
        route === c.uploadBulkCheck
          ? await fx.managerB.upload(url, {}, csvFile(akEins.join('\n')))
          : route === c.invite
            ? await invite(fx.managerB, fx.groupA, 'intruder@example.com', 'manager')
            : await fx.managerB.request(route.method, url);
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(404);
      expect(res.json().message).toBe(GROUP_404);
      expect(res.body).not.toContain('Alaska Congress');
      expect(await databaseFingerprint(db()), `${route.method} ${route.url} wrote`).toBe(before);
    }
  });

  it('a group checks at most LIMIT_BULK_CHECKS_PER_GROUP_PER_DAY lists a day; staff are not counted', async () => {
    // One check so far today; the limit is 3 in this app.
    await checkToEnd(managerA, fx.groupA, akEins[0]);
    await checkToEnd(managerA, fx.groupA, akEins[1]);
    const refused = await managerA.upload(urlOf(c.uploadBulkCheck, fx.groupA), {}, csvFile(akEins[2]));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^This group has checked as many lists of EINs as it may in one day\./);
    const staffCheck = await checkToEnd(fx.staff, fx.groupA, akEins[2]);
    expect(staffCheck.status).toBe('done');
    // B's limit is its own.
    expect((await checkToEnd(fx.managerB, fx.groupB, akEins[3])).status).toBe('done');
  });
});
