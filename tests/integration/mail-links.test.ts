import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accounts,
  applications,
  groups,
  levels,
  mailOutbox,
  stateRequirements,
  users,
  workItems,
} from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { runComplianceReminders } from '../../src/server/modules/compliance/reminder-job.ts';
import { runGenReminders } from '../../src/server/modules/gen-updates/reminder-job.ts';
import { IRS_PAGES } from '../../src/server/modules/mail/irs-pages.ts';
import { accountSettingsContracts, accountUserContracts } from '../../src/shared/contracts/account-settings.ts';
import { adminPaymentContracts } from '../../src/shared/contracts/admin-payments.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { groupWorkspaceContracts } from '../../src/shared/contracts/group-workspace.ts';
import { inquiryContracts } from '../../src/shared/contracts/public-forms.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { supervisionContracts } from '../../src/shared/contracts/supervision.ts';
import { workQueueContracts } from '../../src/shared/contracts/work-queue.ts';
import { PDF_MINIMAL } from '../helpers/files.ts';
import {
  cardPayload,
  createGatewayTestApp,
  testCard,
  tokenizeAtSimulator,
  type GatewayTestApp,
} from '../helpers/gateway.ts';
import { invitationLink } from '../helpers/invitations.ts';
import { Agent, signedIn, type TestApp } from '../helpers/test-app.ts';
import type { WizardPage } from '../../src/shared/forms/field-definition.ts';
import type { FastifyInstance, InjectOptions } from 'fastify';

/**
 * docs/security.md "Mail carries only our links": every link in every mail is made from
 * PUBLIC_URL (or is one of the IRS pages the tax rules cite), never from the request. Every mail
 * kind the code can write is triggered here through its real route, or, for the scheduled jobs,
 * through the job's own function, with every request forging `Host` and `X-Forwarded-Host`
 * (from a peer TRUST_PROXY believes, the worst case) and every typed field holding an attacker's
 * text with web addresses. Then every address in every outbox row (subject, text, HTML) must be
 * ours, and the attacker's addresses must be nowhere in a clickable form.
 */

const PUBLIC_URL = 'https://goodstanding.test';
const FORGED = { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' };
/** What an attacker types as a person's name, and as an account's name (docs/security.md "Mail carries only our links"). */
const EVIL_NAME = 'customer, your card was charged $950. Dispute at https://evil.example/dispute';
const EVIL_ACCOUNT = 'Account suspended - verify now at https://evil.example/verify';

/** A short wizard (the start-up level's), so an application can be submitted in one request. */
const PAGES: WizardPage[] = [
  {
    label: 'Your group',
    schema: [
      { name: 'account___name', label: 'Organization name', field_type: 'text', rules: 'required|max:100' },
      { name: 'account___ein', label: 'EIN', field_type: 'text', rules: 'required|ein' },
    ],
  },
];

/** Every mail kind the server's source can write: `kind: '…'` literals with a dot, and the values of `…MAIL_KINDS` maps. */
function mailKindsInSource(): { kinds: Set<string>; writers: string[]; templated: string[] } {
  const root = path.join(import.meta.dirname, '..', '..', 'src', 'server');
  const files = (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(root, f));
  const kinds = new Set<string>();
  const writers: string[] = [];
  const templated: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const rel = path.relative(root, file);
    // A mail kind has a dot ('payment.receipt'); work item and deadline kinds have none.
    for (const m of text.matchAll(/\bkind:\s*'([a-z0-9_]+(?:\.[a-z0-9_]+)+)'/g)) kinds.add(m[1]);
    for (const map of text.matchAll(/const \w*MAIL_KINDS\b[^=]*=\s*\{([^}]*)\}/g))
      for (const m of map[1].matchAll(/'([a-z0-9_]+(?:\.[a-z0-9_]+)+)'/g)) kinds.add(m[1]);
    if (/\bkind:\s*`/.test(text)) templated.push(rel);
    if (/insert\(mailOutbox\)|INSERT INTO \$\{mailOutbox\}|INSERT INTO mail_outbox/.test(text)) writers.push(rel);
  }
  return { kinds, writers: writers.sort(), templated };
}

let gw: GatewayTestApp;
let t: TestApp;
const db = () => t.database.db;

/** Every request of this file, whoever sends it, forges the host it names. */
function forgeHostOnEveryRequest(app: FastifyInstance) {
  const inject = app.inject.bind(app) as (opts: InjectOptions) => ReturnType<FastifyInstance['inject']>;
  Object.defineProperty(app, 'inject', {
    configurable: true,
    value: (opts: InjectOptions) => inject({ ...opts, headers: { ...opts.headers, ...FORGED } }),
  });
}

/** Runs `work` with the clock at `iso` (only Date: the jobs read today's date). */
async function on<T>(iso: string, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

beforeAll(async () => {
  gw = await createGatewayTestApp(3000, { config: { publicUrl: PUBLIC_URL, trustProxy: 'loopback' } });
  t = gw.t;
  forgeHostOnEveryRequest(t.app);
  await db().update(levels).set({ schema: PAGES }).where(eq(levels.slug, 'start-up'));
});
afterAll(async () => {
  await gw?.close();
});

describe('every link in every mail is made from PUBLIC_URL (docs/security.md "Mail carries only our links")', () => {
  it('the source writes mail only through enqueueMail and the public forms, each kind spelled out', () => {
    const { kinds, writers, templated } = mailKindsInSource();
    expect(
      templated,
      'a kind built from parts cannot be found here: spell it out, or list it in a …MAIL_KINDS map',
    ).toEqual([]);
    expect(writers).toEqual([
      'db/seed/scale.ts',
      'modules/inquiries/create-inquiry.ts',
      'modules/mail/enqueue-mail.ts',
    ]);
    expect(kinds.size).toBeGreaterThan(25);
  });

  it('sends each mail kind with a forged Host, and every address in every mail is ours', async () => {
    const staffUser = { email: 'links.staff@example.com', password: 'Links-staff-pass-1' };
    await createUser(db(), { ...staffUser, isAdmin: true, firstName: EVIL_NAME });
    const staff = await signedIn(t.app, staffUser);
    const visitor = await new Agent(t.app).start();

    // The attacker: the primary user of an account they named.
    const [group] = await db()
      .insert(groups)
      .values({
        label: 'Links GEN',
        gen: '9901',
        centralName: 'Links Central',
        centralEin: '990000901',
        accountingPeriodEndMonth: 12,
      })
      .returning();
    const account = await createAccount(db(), { name: 'Plain Name', state: 'KY' });
    const attacker = { email: 'links.attacker@example.com', password: 'Links-attacker-1' };
    const attackerRow = await createUser(db(), { ...attacker, accountId: account.id, firstName: EVIL_NAME });
    await db().update(users).set({ isPrimary: true }).where(eq(users.id, attackerRow.id));
    await db()
      .update(accounts)
      .set({
        primaryUserId: attackerRow.id,
        groupId: group.id,
        fiscalYearEndMonth: 12,
        renewalDueAt: new Date('2026-06-14T12:00:00Z'),
      })
      .where(eq(accounts.id, account.id));
    const a = await signedIn(t.app, attacker);
    const form = (await a.call(accountSettingsContracts.editableFields)).json();
    const named = await a.call(accountSettingsContracts.saveData, {
      body: {
        ...form.fields,
        account___name: EVIL_ACCOUNT,
        account___street: '1 Main St',
        account___city: 'Frankfort',
        account___state: 'KY',
        account___zip: '40601',
        contact___president_first_name: EVIL_NAME.slice(0, 90),
        contact___president_last_name: 'Lee',
        contact___president_email: 'president@example.com',
      },
    });
    expect(named.statusCode, named.body).toBe(200);

    // account_users.invitation (added, then sent again), then "This was not me": invitation_ended (+ staff).
    const addUser = async (email: string, extra: Record<string, unknown> = {}) => {
      const res = await a.call(accountUserContracts.store, {
        body: {
          email,
          first_name: EVIL_NAME,
          last_name: 'https://evil.example/last',
          phone: '',
          sms_phone: '',
          ...extra,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().user.id as number;
    };
    const strangerId = await addUser('links.stranger@example.com');
    expect((await a.call(accountUserContracts.invitation, { params: { id: strangerId } })).statusCode).toBe(200);
    const { token } = await invitationLink(db(), 'links.stranger@example.com');
    expect((await visitor.call(accountUserContracts.notMe, { body: { token } })).statusCode).toBe(200);
    // A central organization's users: group_users.invitation, group_users.added, then "This was not
    // me": group_users.invitation_ended.staff. The group's name is typed by staff: it may hold an address.
    const [council] = await db()
      .insert(groups)
      .values({ label: `Council ${EVIL_NAME}`, gen: '9904' })
      .returning({ id: groups.id });
    const inviteToGroup = async (email: string) => {
      const res = await staff.call(groupWorkspaceContracts.invite, {
        params: { groupId: council.id },
        body: {
          email,
          first_name: EVIL_NAME,
          last_name: 'https://evil.example/last',
          role: 'manager',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await inviteToGroup('links.council@example.com');
    await inviteToGroup('links.stranger2@example.com');
    const groupToken = (await invitationLink(db(), 'links.stranger2@example.com', 'group_users.invitation')).token;
    expect((await visitor.call(accountUserContracts.notMe, { body: { token: groupToken } })).statusCode).toBe(200);
    await createUser(db(), { email: 'links.officer@example.com', password: 'Links-officer-2026' });
    await inviteToGroup('links.officer@example.com');
    // A pending invitation ended by its address starting an application (the same kinds).
    await addUser('links.applicant@example.com');
    const [startUp] = await db().select({ id: levels.id }).from(levels).where(eq(levels.slug, 'start-up'));
    const applicant = await new Agent(t.app).start();
    const started = await applicant.call(applicationWizardContracts.start, {
      body: {
        email: 'links.applicant@example.com',
        password: 'Booster-club-2026',
        level_id: startUp.id,
      },
    });
    expect(started.statusCode, started.body).toBe(201);
    applicant.csrfToken = started.json().csrfToken;

    // application.started (above), application.completed: the applicant submits a group of their own.
    const submitted = await applicant.call(applicationWizardContracts.savePage, {
      params: { token: started.json().token },
      body: {
        submit: 1,
        account___name: EVIL_ACCOUNT,
        account___ein: '99-0000902',
      },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);

    // account.applicant_linked: an applicant whose EIN is a group imported from the IRS data.
    const imported = await createAccount(db(), { name: EVIL_ACCOUNT, ein: '990000903' });
    await db().update(accounts).set({ source: 'irs-bmf' }).where(eq(accounts.id, imported.id));
    const linked = await new Agent(t.app).start();
    const linkStart = await linked.call(applicationWizardContracts.start, {
      body: {
        email: 'links.linked@example.com',
        password: 'Booster-club-2026',
        level_id: startUp.id,
      },
    });
    linked.csrfToken = linkStart.json().csrfToken;
    const refused = await linked.call(applicationWizardContracts.savePage, {
      params: { token: linkStart.json().token },
      body: {
        submit: 1,
        account___name: EVIL_ACCOUNT,
        account___ein: '99-0000903',
      },
    });
    expect(refused.statusCode).toBe(409);
    const [linkedUser] = await db().select().from(users).where(eq(users.email, 'links.linked@example.com'));
    const [draft] = await db().select().from(applications).where(eq(applications.userId, linkedUser.id));
    const [linkItem] = await db()
      .select()
      .from(workItems)
      .where(eq(workItems.key, `link_request:${draft.id}`));
    expect((await staff.call(workQueueContracts.linkApplicant, { params: { id: linkItem.id } })).statusCode).toBe(200);

    // determination_letter.returned: the group uploads its letter, staff send it back with a reason.
    await db()
      .update(accounts)
      .set({
        data: {
          account___has_501c: '2',
          account___exemption_form: '1023-EZ',
          account___exemption_filed_on: '2026-09-14',
        },
      })
      .where(eq(accounts.id, account.id));
    const up = await a.upload('/api/app/determination-letter', {}, [
      { field: 'file', fileName: 'letter.pdf', content: PDF_MINIMAL, type: 'application/pdf' },
    ]);
    expect(up.statusCode, up.body).toBe(201);
    const [letterItem] = await db()
      .select()
      .from(workItems)
      .where(and(eq(workItems.accountId, account.id), eq(workItems.kind, 'determination_letter')));
    const returned = await staff.call(workQueueContracts.returnLetter, {
      params: { id: letterItem.id },
      body: {
        reason: 'Blurry. Staff typed https://evil.example/staff too.',
      },
    });
    expect(returned.statusCode, returned.body).toBe(200);

    // supervision.education: the notice to every user of the GEN's member groups.
    const education = await staff.call(supervisionContracts.sendEducation, {
      body: {
        group_id: group.id,
        year: new Date().getUTCFullYear(),
      },
    });
    expect(education.statusCode, education.body).toBe(201);

    // payment.receipt, .failed, .held, .declined, .voided, .refunded: the attacker pays, staff act.
    let card = 0;
    const cards = ['4111111111111111', '5424000000000015', '4007000000027', '370000000000002', '6011000000000012'];
    const pay = async (cents: number, extra: Record<string, unknown> = {}) => {
      const invoiceId = await createInvoice(db(), { accountId: account.id, cents, type: 'renewal', prefix: 'ML' });
      const opaque = await tokenizeAtSimulator(gw.urls, testCard(cards[card++ % cards.length]));
      const res = await a.call(paymentContracts.credit, {
        body: cardPayload(opaque, [invoiceId], (cents / 100).toFixed(2), extra),
      });
      return res.json().payment_id as number;
    };
    await pay(1_000);
    await pay(2_000, { zip: '46282' });
    const held = await pay(3_000, { zip: '46205' });
    expect(
      (await staff.post(`/api/admin/payments/${held}/decline`, { reason: 'https://evil.example' })).statusCode,
    ).toBe(200);
    const toVoid = await pay(4_000);
    expect((await staff.post(`/api/admin/payments/${toVoid}/void`, { reason: 'Twice' })).statusCode).toBe(200);
    const toRefund = await pay(5_000);
    gw.sim.settle();
    const refund = await staff.call(adminPaymentContracts.refund, {
      params: { id: toRefund },
      body: { amount: '10.00', reason: 'Part' },
    });
    expect(refund.statusCode, refund.body).toBe(200);

    // inquiry.staff, inquiry.ack: the contact form with an attacker's words in every field.
    const contact = await visitor.call(inquiryContracts.contact, {
      body: {
        name: EVIL_NAME,
        email: 'links.sender@example.com',
        organization: EVIL_ACCOUNT,
        subject: '990 help',
        message: 'Your account is locked.\nUnlock it at https://evil.example/unlock or www.evil.example',
      },
    });
    expect(contact.statusCode, contact.body).toBe(201);

    // password.reset and password.changed: a reset asked for and used.
    expect((await visitor.call(signInContracts.forgotPassword, { body: { email: attacker.email } })).statusCode).toBe(
      200,
    );
    await expect
      .poll(async () => (await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'password.reset'))).length)
      .toBe(1);
    const [resetMail] = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'password.reset'));
    const resetToken = /\/password\/reset\/([A-Za-z0-9_-]+)/.exec(resetMail.textBody)![1];
    const reset = await visitor.call(signInContracts.resetPassword, {
      body: {
        token: resetToken,
        email: attacker.email,
        password: 'Links-attacker-2',
        password_confirmation: 'Links-attacker-2',
      },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const a2 = await signedIn(t.app, { email: attacker.email, password: 'Links-attacker-2' });

    // account_users.removed (staff on behalf), .primary_transferred, .email_changed, .password_changed.
    const leaver = await addUserAs(a2, 'links.leaver@example.com');
    const del = await staff.request('DELETE', `/app/account/users/delete/${leaver}`, { account_id: account.id });
    expect(del.statusCode, del.body).toBe(200);
    const own = await a2.call(accountUserContracts.update, {
      params: { id: attackerRow.id },
      body: {
        email: 'links.attacker2@example.com',
        first_name: EVIL_NAME,
        last_name: 'Lee',
        phone: '',
        sms_phone: '',
        password: 'Links-attacker-3',
        password_confirmation: 'Links-attacker-3',
        current_password: 'Links-attacker-2',
      },
    });
    expect(own.statusCode, own.body).toBe(200);
    const heir = await addUserAs(a2, 'links.heir@example.com');
    const transfer = await a2.call(accountUserContracts.update, {
      params: { id: heir },
      body: {
        email: 'links.heir@example.com',
        first_name: EVIL_NAME,
        last_name: 'Heir',
        phone: '',
        sms_phone: '',
        is_primary: 1,
        current_password: 'Links-attacker-3',
      },
    });
    expect(transfer.statusCode, transfer.body).toBe(200);

    // The scheduled jobs, through their own functions: compliance reminders (Form 990, renewal and
    // the state's filing, 30 and 60 days ahead) and the GEN update reminders (opened, closing).
    await db()
      .update(stateRequirements)
      .set({ filingLabel: 'Annual report', filingDueMonth: 5, filingDueDay: 15 })
      .where(eq(stateRequirements.code, 'KY'));
    await on('2026-04-15T12:00:00Z', () => runComplianceReminders(t.app));
    await on('2026-10-02T12:00:00Z', () => runGenReminders(t.app));
    await on('2026-11-24T12:00:00Z', () => runGenReminders(t.app));

    // Every kind in the source was written at least once, and nothing else.
    const rows = await db().select().from(mailOutbox);
    const written = new Set(rows.map((r) => r.kind));
    expect([...written].sort()).toEqual([...mailKindsInSource().kinds].sort());

    const irs = new Set<string>(Object.values(IRS_PAGES));
    for (const row of rows) {
      const where = `${row.kind} to ${row.toAddress}`;
      const html = row.htmlBody ?? '';
      expect(html, `${where}: both parts are in the outbox`).toContain('<!DOCTYPE html>');
      // Every address written out in the subject, the text and the HTML.
      const addresses = [row.subject, row.textBody, html].flatMap((part) =>
        [...part.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'“”)]+/gi)].map((m) => m[0].replace(/[.,;:!?]+$/, '')),
      );
      for (const address of addresses) {
        const ok = irs.has(address) || (URL.canParse(address) && new URL(address).origin === PUBLIC_URL);
        expect(ok, `${where}: ${address}`).toBe(true);
      }
      // Every link of the HTML part (and anything else it would load).
      for (const m of html.matchAll(/\b(?:href|src|action)\s*=\s*"([^"]*)"/gi)) {
        const href = m[1].replace(/&amp;/g, '&');
        expect(
          irs.has(href) || href.startsWith(`${PUBLIC_URL}/`) || href === PUBLIC_URL,
          `${where}: href ${href}`,
        ).toBe(true);
      }
      // The forged host and the attacker's addresses are nowhere in a clickable form.
      for (const part of [row.subject, row.textBody, html]) {
        expect(part, where).not.toMatch(/attacker\.example/i);
        expect(part, where).not.toMatch(/evil\.example/i);
        // A link of ours the mail forgot to list would be defanged: none is.
        expect(part, where).not.toContain('goodstanding[.]test');
      }
      // Nothing a person typed is in a subject.
      expect(row.subject, where).not.toMatch(/evil|suspended|customer|card was charged/i);
    }
    // What the attacker typed is still shown, as typed.
    const invitation = rows.find((r) => r.kind === 'account_users.invitation')!;
    expect(invitation.textBody).toContain('“Account suspended - verify now at hxxps[:]//evil[.]example/verify”');
    const staffNotice = rows.find((r) => r.kind === 'inquiry.staff')!;
    expect(staffNotice.textBody).toContain('> Unlock it at hxxps[:]//evil[.]example/unlock or www[.]evil[.]example');
  });
});

/** Adds a user to the attacker's account as `agent` (its primary user): an invitation. @returns the new user's id */
async function addUserAs(agent: Agent, email: string): Promise<number> {
  const res = await agent.call(accountUserContracts.store, {
    body: {
      email,
      first_name: EVIL_NAME,
      last_name: 'Doe',
      phone: '',
      sms_phone: '',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().user.id as number;
}
