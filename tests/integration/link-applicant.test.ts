import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  applications,
  auditLog,
  invoiceLines,
  invoices,
  levels,
  mailOutbox,
  users,
  workItems,
} from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import {
  EIN_TAKEN_MESSAGE,
  STAFF_NOTIFIED_MESSAGE,
} from '../../src/server/modules/applications/complete-application.ts';
import { deliverPendingMail } from '../../src/server/modules/mail/deliver-pending-mail.ts';
import { LINK_MESSAGES } from '../../src/server/modules/work-queue/link-blocker.ts';
import { smtpTransport } from '../../src/server/providers/mail/transport.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { workQueueContracts } from '../../src/shared/contracts/work-queue.ts';
import { actionWords, auditDetailWords } from '../../src/shared/rules/audit-words.ts';
import { firstYearCents } from '../../src/shared/rules/renewal.ts';
import { irsColumnsOf, loadRealBmfRow } from '../helpers/irs-data.ts';
import { mailParts, startSmtpPeer } from '../helpers/local-peers.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import type { WizardPage } from '../../src/shared/forms/field-definition.ts';

/**
 * An applicant whose EIN is an account imported from the IRS data (docs/wizard.md "An EIN that
 * already has an account", docs/work-queue.md "Applicants to link"): Submit is refused and staff
 * are told with one work item however often Submit is pressed; only staff link the applicant,
 * which makes them the account's primary user with the first invoice Submit would have made, and
 * mails them; two links at once make one.
 */
const PAGES: WizardPage[] = [
  {
    label: 'Your group',
    schema: [
      { name: 'account___name', label: 'Organization name', field_type: 'text', rules: 'required|max:100' },
      { name: 'account___ein', label: 'EIN', field_type: 'text', rules: 'required|ein' },
    ],
  },
  {
    label: 'Officers',
    schema: [
      {
        name: 'contact___president_first_name',
        label: "President's first name",
        field_type: 'text',
        rules: 'required|max:50',
      },
      {
        name: 'contact___president_last_name',
        label: "President's last name",
        field_type: 'text',
        rules: 'required|max:50',
      },
      {
        name: 'contact___president_phone',
        label: "President's phone",
        field_type: 'text',
        rules: 'required|min:10|max:20',
      },
    ],
  },
];

let t: TestApp;
let staff: Agent;
let staff2: Agent;
let visitor: Agent;
let member: Agent;
let level: { id: number; name: string; priceCents: number; priceDiscountCents: number };
let n = 0;

/** An account imported from the IRS data (source 'irs-bmf'), with no users. */
async function imported(name: string, ein: string) {
  const account = await createAccount(t.database.db, { name, ein });
  await t.database.db
    .update(accounts)
    .set({ source: 'irs-bmf', data: { irs_note: 'kept' } })
    .where(eq(accounts.id, account.id));
  return account;
}

/** A signed-in applicant with a draft whose answers are all valid, giving `ein`. */
async function applicant(ein: string) {
  const a = await new Agent(t.app).start();
  const email = `linked.applicant${++n}@example.com`;
  const res = await a.call(applicationWizardContracts.start, {
    body: { email, password: 'Booster-club-2026', level_id: level.id },
  });
  expect(res.statusCode, res.body).toBe(201);
  a.csrfToken = res.json().csrfToken;
  const token: string = res.json().token;
  const answers = {
    account___name: `Kenai Boosters ${n}`,
    account___ein: ein,
    contact___president_first_name: 'Petra',
    contact___president_last_name: `Quill${n}`,
    contact___president_phone: '(907) 555-0142',
  };
  const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
  const [app] = await t.database.db.select().from(applications).where(eq(applications.userId, user.id));
  return {
    a,
    token,
    email,
    user,
    applicationId: app.id,
    answers,
    submit: () =>
      a.call(applicationWizardContracts.savePage, { params: { token: token }, body: { submit: 1, ...answers } }),
  };
}

const linkItem = async (applicationId: number) => {
  const rows = await t.database.db
    .select()
    .from(workItems)
    .where(eq(workItems.key, `link_request:${applicationId}`));
  return rows;
};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.update(levels).set({ schema: PAGES }).where(eq(levels.slug, 'start-up'));
  [level] = await db
    .select({
      id: levels.id,
      name: levels.name,
      priceCents: levels.priceCents,
      priceDiscountCents: levels.priceDiscountCents,
    })
    .from(levels)
    .where(eq(levels.slug, 'start-up'));
  await createUser(db, { email: 'linker@staff.test', password: 'Linker-pass-1', isAdmin: true });
  await createUser(db, { email: 'linker2@staff.test', password: 'Linker-pass-2', isAdmin: true });
  staff = await signedIn(t.app, { email: 'linker@staff.test', password: 'Linker-pass-1' });
  staff2 = await signedIn(t.app, { email: 'linker2@staff.test', password: 'Linker-pass-2' });
  visitor = await new Agent(t.app).start();
  const own = await createAccount(db, { name: 'Seward Band Boosters', ein: '920000001' });
  await createUser(db, { email: 'member@seward.test', password: 'Member-pass-1', accountId: own.id });
  member = await signedIn(t.app, { email: 'member@seward.test', password: 'Member-pass-1' });
});
afterAll(async () => {
  await t?.close();
});

describe('Submit with an EIN the loaded IRS data knows, but no account holds', () => {
  it("the new account reads the organization's IRS facts at once, not at the next release", async () => {
    // One real row of the shared Wyoming extract (Wyoming Peace Officers Association, 74-2462506:
    // FILING_REQ_CD 01, TAX_PERIOD 201308, ACCT_PD 06), loaded as a release of its own: no account.
    const releaseId = await loadRealBmfRow(t.database.db, 'eo_wy.csv', '742462506', '2026-04');
    expect(await irsColumnsOf(t.database.db, '742462506')).toBeUndefined();

    const s = await applicant('74-2462506');
    const done = await s.submit();
    expect(done.statusCode, done.body).toBe(200);
    expect(await irsColumnsOf(t.database.db, '742462506')).toEqual({
      name: s.answers.account___name,
      filingRequirement: '01',
      taxPeriod: '201308',
      ruling: '202509',
      bmfReleaseId: releaseId,
      fiscalYearEndMonth: 6,
    });
    // What the group reads on its account page: the BMF facts, cited with the release.
    const standing = (await s.a.call(accountOverviewContracts.account)).json().account.standing;
    expect(standing.irs).toMatchObject({ status_code: '01', sources: { bmf: '2026-04' } });
    expect(standing.state).not.toBe('not_on_bmf');
  });
});

describe('Submit with an EIN imported from the IRS data', () => {
  it('is refused with 409, tells staff with exactly one item however often Submit is pressed, and names nobody in the list', async () => {
    const account = await imported('Kenai Peninsula Track Boosters', '920000011');
    const p = await applicant('92-0000011');
    for (let i = 0; i < 3; i++) {
      const res = await p.submit();
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: EIN_TAKEN_MESSAGE + STAFF_NOTIFIED_MESSAGE, staff_notified: true });
    }
    expect(EIN_TAKEN_MESSAGE + STAFF_NOTIFIED_MESSAGE).toBe(
      'An organization with this EIN already has an account. Please contact us so we can link you to it. Our staff have been told and will contact you.',
    );
    const items = await linkItem(p.applicationId);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: 'link_request',
      status: 'open',
      accountId: account.id,
      ein: '920000011',
      details: { ein: '920000011', application_id: p.applicationId, applicant_user_id: p.user.id },
    });
    const [app] = await t.database.db.select().from(applications).where(eq(applications.id, p.applicationId));
    expect(app.status).toBe('draft');

    const list = await staff.call(workQueueContracts.list, { query: { kind: 'link_request' } });
    expect(list.statusCode).toBe(200);
    const row = list.json().data.find((r: { id: number }) => r.id === items[0].id);
    expect(row.kind_label).toBe('Applicant to link');
    expect(row.summary).toContain('920000011');
    for (const personal of [p.email, 'Petra', p.answers.contact___president_last_name, '555-0142'])
      expect(row.summary).not.toContain(personal);
    const csv = await staff.call(workQueueContracts.exportCsv, { query: { kind: 'link_request' } });
    expect(csv.body).not.toContain(p.email);

    const detail = (await staff.call(workQueueContracts.show, { params: { id: items[0].id } })).json();
    expect(detail.link).toEqual({
      application_id: p.applicationId,
      applicant_email: p.email,
      president_name: `Petra ${p.answers.contact___president_last_name}`,
      president_phone: '(907) 555-0142',
      blocked: null,
    });
  });

  it('an EIN of an account that has users is refused as before, and staff are not told', async () => {
    const p = await applicant('92-0000001');
    const res = await p.submit();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: EIN_TAKEN_MESSAGE });
    expect(await linkItem(p.applicationId)).toHaveLength(0);
  });
});

describe('POST /api/admin/work-queue/{id}/link-applicant', () => {
  it('refuses visitors (401) and account users (403); Resolve is refused while linking is possible', async () => {
    await imported('Homer Swim Boosters', '920000021');
    const p = await applicant('92-0000021');
    expect((await p.submit()).statusCode).toBe(409);
    const [item] = await linkItem(p.applicationId);
    expect((await visitor.call(workQueueContracts.linkApplicant, { params: { id: item.id } })).statusCode).toBe(401);
    expect((await member.call(workQueueContracts.linkApplicant, { params: { id: item.id } })).statusCode).toBe(403);
    expect((await p.a.call(workQueueContracts.linkApplicant, { params: { id: item.id } })).statusCode).toBe(403);
    const resolve = await staff.call(workQueueContracts.resolve, {
      params: { id: item.id },
      body: { resolution: 'Called them' },
    });
    expect(resolve.statusCode).toBe(409);
    expect(resolve.json().message).toBe(LINK_MESSAGES.linkFirst);
    const [still] = await linkItem(p.applicationId);
    expect(still.status).toBe('open');
    const [u] = await t.database.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, p.user.id));
    expect(u.accountId).toBeNull();
  });

  it('links the applicant: primary user, answers merged, the invoice Submit makes, item resolved, audited, mailed with both parts', async () => {
    const db = t.database.db;
    const account = await imported('Soldotna Ski Boosters', '920000031');
    const p = await applicant('92-0000031');
    expect((await p.submit()).statusCode).toBe(409);
    const [item] = await linkItem(p.applicationId);
    const res = await staff.call(workQueueContracts.linkApplicant, { params: { id: item.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(LINK_MESSAGES.linked);
    expect(res.json().item).toMatchObject({ id: item.id, status: 'resolved', link: { blocked: null } });
    expect(res.json().item.history.at(-1)).toMatchObject({
      action: 'applicant_linked',
      text: 'Applicant linked as the primary user',
    });

    const [acc] = await db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(acc).toMatchObject({
      primaryUserId: p.user.id,
      levelId: level.id,
      name: 'Soldotna Ski Boosters',
      source: 'irs-bmf',
    });
    expect(acc.data).toMatchObject({
      irs_note: 'kept',
      account___ein: '92-0000031',
      contact___president_phone: '(907) 555-0142',
    });
    expect(acc.renewalDueAt).not.toBeNull();
    const [u] = await db.select().from(users).where(eq(users.id, p.user.id));
    expect(u).toMatchObject({ accountId: account.id, isPrimary: true, firstName: 'Petra' });
    const [app] = await db.select().from(applications).where(eq(applications.id, p.applicationId));
    expect(app).toMatchObject({ status: 'completed', accountId: account.id });

    const invs = await db.select().from(invoices).where(eq(invoices.accountId, account.id));
    expect(invs).toHaveLength(1);
    const price = firstYearCents(level);
    expect(invs[0]).toMatchObject({ applicationId: p.applicationId, valueCents: price, balanceCents: price });
    expect(invs[0].number).toMatch(/^GS-\d{6}$/);
    const lines = await db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invs[0].id));
    expect(lines.reduce((s, l) => s + l.valueCents, 0)).toBe(price);
    expect(lines.every((l) => l.type === 'new_account')).toBe(true);

    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'account.applicant_linked'), eq(auditLog.accountId, account.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0].details).toMatchObject({
      item_id: item.id,
      application_id: p.applicationId,
      user_id: p.user.id,
      invoice_id: invs[0].id,
    });
    expect(actionWords('account.applicant_linked')).toBe('Linked an applicant to the account as its primary user');
    expect(auditDetailWords(audits[0].details as Record<string, unknown>).facts.join(' ')).not.toMatch(/_id/);

    const mails = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'account.applicant_linked'), eq(mailOutbox.toAddress, p.email)));
    expect(mails).toHaveLength(1);
    expect(mails[0].textBody).toContain(invs[0].number);
    const peer = await startSmtpPeer();
    const transport = smtpTransport(peer.url);
    try {
      await deliverPendingMail(db, transport, 'GoodStanding <no-reply@goodstanding.local>');
      const got = peer.received.find((m) => m.to[0] === p.email && /linked/.test(m.subject));
      expect(got, 'the mail reaches the SMTP peer').toBeTruthy();
      const parts = mailParts(got!.body);
      expect(parts.contentType).toMatch(/^multipart\/alternative/);
      expect(parts.text).toContain('Soldotna Ski Boosters');
      expect(parts.text).toContain('/app/payments');
      expect(parts.text).toContain('/login');
      expect(parts.html).toContain(`Invoice ${invs[0].number}`);
      expect(parts.html).toMatch(/<a href="[^"]*\/app\/payments"/);
    } finally {
      transport.close();
      await peer.close();
    }

    // Done once: linking again is refused.
    const again = await staff.call(workQueueContracts.linkApplicant, { params: { id: item.id } });
    expect(again.statusCode).toBe(409);
  });

  it('two staff linking at once: one links, the other gets 409, and one invoice is made', async () => {
    const db = t.database.db;
    const account = await imported('Seldovia Robotics Boosters', '920000041');
    const p = await applicant('92-0000041');
    expect((await p.submit()).statusCode).toBe(409);
    const [item] = await linkItem(p.applicationId);
    const answers = await Promise.all([
      staff.call(workQueueContracts.linkApplicant, { params: { id: item.id } }),
      staff2.call(workQueueContracts.linkApplicant, { params: { id: item.id } }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await db.select().from(invoices).where(eq(invoices.accountId, account.id))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.kind, 'account.applicant_linked'), eq(mailOutbox.toAddress, p.email))),
    ).toHaveLength(1);
  });

  it('refuses with a clear 409 when the account has users by now, and then Resolve closes the item', async () => {
    const db = t.database.db;
    const account = await imported('Ninilchik Choir Boosters', '920000051');
    const p = await applicant('92-0000051');
    expect((await p.submit()).statusCode).toBe(409);
    const [item] = await linkItem(p.applicationId);
    await createUser(db, { email: 'someone@ninilchik.test', password: 'Someone-pass-1', accountId: account.id });
    const res = await staff.call(workQueueContracts.linkApplicant, { params: { id: item.id } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(LINK_MESSAGES.accountHasUsers);
    expect((await staff.call(workQueueContracts.show, { params: { id: item.id } })).json().link.blocked).toBe(
      LINK_MESSAGES.accountHasUsers,
    );
    const resolve = await staff.call(workQueueContracts.resolve, {
      params: { id: item.id },
      body: {
        resolution: 'The group is already a member',
      },
    });
    expect(resolve.statusCode).toBe(200);
  });

  it('refuses when the applicant has an account by now', async () => {
    const db = t.database.db;
    await imported('Anchor Point Chess Boosters', '920000061');
    const p = await applicant('92-0000061');
    expect((await p.submit()).statusCode).toBe(409);
    const [item] = await linkItem(p.applicationId);
    const other = await createAccount(db, { name: 'Another group' });
    await db.update(users).set({ accountId: other.id }).where(eq(users.id, p.user.id));
    const res = await staff.call(workQueueContracts.linkApplicant, { params: { id: item.id } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(LINK_MESSAGES.applicantHasAccount);
  });

  it('is 409 on an item of another kind and 404 on an unknown one', async () => {
    const db = t.database.db;
    const account = await createAccount(db, { name: 'Other kind' });
    const [other] = await db
      .insert(workItems)
      .values({
        key: `roster_no_membership:${account.id}`,
        kind: 'roster_no_membership',
        accountId: account.id,
        details: { gen: '5271' },
      })
      .returning();
    const res = await staff.call(workQueueContracts.linkApplicant, { params: { id: other.id } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(LINK_MESSAGES.notLinkRequest);
    expect((await staff.call(workQueueContracts.linkApplicant, { params: { id: 999999 } })).statusCode).toBe(404);
  });
});
