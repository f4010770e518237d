import fs from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, limitCounters, mailOutbox, paymentAlerts, users } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { LIMIT_NAMES, LIMIT_RULES, type LimitSettings } from '../../src/server/modules/limits/limit-rules.ts';
import { sweepLimitCounters, takeLimit } from '../../src/server/modules/limits/take-limit.ts';
import { accountUserContracts } from '../../src/shared/contracts/account-settings.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { inquiryContracts } from '../../src/shared/contracts/public-forms.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { CARD_DECLINED } from '../../src/shared/rules/payment-refusals.ts';
import { levelId } from '../helpers/applications.ts';
import {
  cardPayload,
  createGatewayTestApp,
  testCard,
  tokenizeAtSimulator,
  type GatewayTestApp,
} from '../helpers/gateway.ts';
import { Agent, createSecondServer, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import type { LightMyRequestResponse } from 'fastify';

/*
 * docs/security.md "Limits on mail and payments" and "Sign-in and address probing": each limit
 * tried as an attacker would, at the product's defaults, against the real routes.
 */

/** Every limit at its documented default (test apps otherwise put them out of reach). */
const DEFAULTS = Object.fromEntries(LIMIT_NAMES.map((n) => [n, LIMIT_RULES[n].defaultMax])) as LimitSettings;

/** "Please try again after November 28, 2026 4:05 pm UTC (in 42 minutes)." */
const TRY_AGAIN =
  /Please try again after [A-Z][a-z]+ \d{1,2}, \d{4} \d{1,2}:\d{2} [ap]m UTC \(in (about \d+ hours|\d+ minutes?|less than a minute)\)\.$/;

/** Expects the 429 of a limit: its sentence, when to try again, and Retry-After in seconds. */
function expectRefused(res: LightMyRequestResponse, sentence: string) {
  expect(res.statusCode, res.body).toBe(429);
  const body = res.json();
  expect(body.message.startsWith(`${sentence} `), body.message).toBe(true);
  expect(body.message).toMatch(TRY_AGAIN);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(body.retry_after_seconds).toBe(Number(res.headers['retry-after']));
}

const statuses = (responses: LightMyRequestResponse[]) => responses.map((r) => r.statusCode);

/** The 'limit.reached' audit rows of `rule`. */
async function refusalsAudited(t: TestApp, rule: string) {
  return t.database.db
    .select({ details: auditLog.details, ip: auditLog.ip, accountId: auditLog.accountId })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'limit.reached'), sql`${auditLog.details}->>'rule' = ${rule}`));
}

/** An account with its primary user, signed in from `ip`. */
async function primaryOf(t: TestApp, name: string, email: string, ip = '127.0.0.1') {
  const db = t.database.db;
  const accountId = (await createAccount(db, { name })).id;
  const user = await createUser(db, { email, password: 'Primary-pass-2026', accountId });
  await db.update(users).set({ isPrimary: true }).where(eq(users.id, user.id));
  await db.update(accounts).set({ primaryUserId: user.id }).where(eq(accounts.id, accountId));
  const agent = await new Agent(t.app, ip).start();
  expect((await agent.login(email, 'Primary-pass-2026')).statusCode).toBe(200);
  return { accountId, userId: user.id, agent };
}

const newUser = (email: string, firstName = 'Nora') => ({
  email,
  first_name: firstName,
  last_name: 'Newman',
  phone: '',
  sms_phone: '',
});

describe('mail through account users (docs/security.md "Limits on mail and payments")', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { limits: DEFAULTS } });
  });
  afterAll(async () => t?.close());

  it('an invitation resent fifteen times reaches the stranger three times in a day; the rest are 429 and audited once', async () => {
    const { agent, accountId } = await primaryOf(
      t,
      'Relay Attempt Boosters',
      'relay.primary@example.com',
      '198.51.100.7',
    );
    const stranger = 'stranger@example.org';
    const added = await agent.call(accountUserContracts.store, {
      body: newUser(stranger, 'customer, your card was charged $950. Dispute at https://evil.example/dispute'),
    });
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json().user.id as number;
    const resends = [];
    for (let i = 0; i < 15; i++)
      resends.push(await agent.call(accountUserContracts.invitation, { params: { id: id } }));
    expect(statuses(resends)).toEqual([200, 200, ...Array(13).fill(429)]);
    expectRefused(resends[2], 'This e-mail address has been sent as many invitations as it may receive in one day.');
    const mails = await t.database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, stranger), eq(mailOutbox.kind, 'account_users.invitation')));
    expect(mails).toHaveLength(3);
    const audited = await refusalsAudited(t, 'invitations_per_address');
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ ip: '198.51.100.7', accountId });
    expect(audited[0].details).toMatchObject({ per: 'email', subject: stranger, max: 3 });
  });

  it('an account adds at most 20 users a day, whatever the addresses', async () => {
    const { agent } = await primaryOf(t, 'Many Users Boosters', 'many.primary@example.com', '198.51.100.8');
    const answers = [];
    for (let i = 0; i < 21; i++)
      answers.push(await agent.call(accountUserContracts.store, { body: newUser(`officer.${i}@example.com`) }));
    expect(statuses(answers)).toEqual([...Array(20).fill(201), 429]);
    expectRefused(answers[20], 'This account has added as many users as it may in one day.');
    // Nothing of the refused one was written or mailed.
    const [row] = await t.database.db.select().from(users).where(eq(users.email, 'officer.20@example.com'));
    expect(row).toBeUndefined();
  });

  it("another user of the account cannot use up the primary user's limit: their refused adds are not counted", async () => {
    const { accountId, agent: primary } = await primaryOf(t, 'Shared Limit Boosters', 'shared.primary@example.com');
    await createUser(t.database.db, { email: 'shared.member@example.com', password: 'Member-pass-2026', accountId });
    const member = await signedIn(t.app, { email: 'shared.member@example.com', password: 'Member-pass-2026' });
    for (let i = 0; i < 25; i++)
      expect(
        (await member.call(accountUserContracts.store, { body: newUser(`nope.${i}@example.com`) })).statusCode,
      ).toBe(403);
    expect((await primary.call(accountUserContracts.store, { body: newUser('welcome@example.com') })).statusCode).toBe(
      201,
    );
  });

  it("staff change a user's sign-in address at most 10 times a day per account; the same address again is not a change", async () => {
    const { accountId } = await primaryOf(t, 'Address Change Boosters', 'changes.primary@example.com');
    const member = await createUser(t.database.db, {
      email: 'changing@example.com',
      password: 'Member-pass-2026',
      accountId,
    });
    await createUser(t.database.db, { email: 'limits.staff@example.com', password: 'Staff-pass-2026', isAdmin: true });
    const staff = await signedIn(t.app, { email: 'limits.staff@example.com', password: 'Staff-pass-2026' });
    const change = (email: string) =>
      staff.call(accountUserContracts.update, {
        params: { id: member.id },
        body: { ...newUser(email), account_id: accountId },
      });
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await change(`changed.${i}@example.com`));
    expect(statuses(answers)).toEqual(Array(10).fill(200));
    // Saving the record with its own address changes nothing that mails: not counted.
    expect((await change('changed.9@example.com')).statusCode).toBe(200);
    const refused = await change('changed.10@example.com');
    expectRefused(refused, 'This account has changed as many sign-in e-mail addresses as it may in one day.');
  });
});

describe('public forms, password resets, and hits arriving together', () => {
  let t: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { limits: DEFAULTS } });
    second = await createSecondServer(t);
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const contact = (i: number) => ({
    name: 'Ann Lee',
    email: `ann.${i}@example.com`,
    organization: 'Lincoln Boosters',
    subject: '990 help',
    message: 'Which 990 do we file?',
  });

  it('one network sends at most 20 forms an hour that mail the address typed, counted by both servers together', async () => {
    const onFirst = await new Agent(t.app, '203.0.113.20').start();
    const onSecond = await new Agent(second.app, '203.0.113.20').start();
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await (i % 2 ? onSecond : onFirst).post('/contact', contact(i)));
    expect(statuses(answers)).toEqual(Array(20).fill(201));
    expectRefused(
      await onFirst.call(inquiryContracts.contact, { body: contact(20) }),
      'Too many forms were sent from your network.',
    );
    expectRefused(
      await onSecond.call(inquiryContracts.contact, { body: contact(21) }),
      'Too many forms were sent from your network.',
    );
    // A refused form keeps nothing and mails nobody.
    const kept = await t.database.db.execute(sql`SELECT
      (SELECT count(*) FROM inquiries WHERE email IN ('ann.20@example.com', 'ann.21@example.com'))::int AS inquiries,
      (SELECT count(*) FROM mail_outbox WHERE to_address IN ('ann.20@example.com', 'ann.21@example.com'))::int AS mails`);
    expect(kept.rows[0]).toEqual({ inquiries: 0, mails: 0 });
    // Another network is not held back.
    expect((await (await new Agent(t.app, '203.0.113.21').start()).post('/contact', contact(22))).statusCode).toBe(201);
  });

  it('reset links for one address: five an hour, the same answer whether or not it has an account', async () => {
    await createUser(t.database.db, { email: 'reset.owner@example.com', password: 'Owner-pass-2026' });
    for (const email of ['reset.owner@example.com', 'nobody.here@example.com']) {
      const answers = [];
      // From five networks, so only the limit of the address is met.
      for (let i = 0; i < 6; i++) {
        const visitor = await new Agent(t.app, `203.0.113.${40 + i}`).start();
        answers.push(await visitor.call(signInContracts.forgotPassword, { body: { email } }));
      }
      expect(statuses(answers)).toEqual([...Array(5).fill(200), 429]);
      expectRefused(answers[5], 'Too many reset links were sent to this address.');
    }
  });

  it('hits arriving together: exactly the limit passes, on one server and across two, and the first refusal is audited once', async () => {
    const settings = { ...DEFAULTS, invitations_per_address: 3 };
    const who = { userId: null, ip: '203.0.113.77' };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        takeLimit((i % 2 ? second : t).database.db, settings, 'invitations_per_address', 'Together@Example.com', who),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    for (const o of outcomes.filter((o) => o.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ statusCode: 429 });
    expect(await refusalsAudited(t, 'invitations_per_address')).toHaveLength(1);
    const [counter] = await t.database.db
      .select()
      .from(limitCounters)
      .where(eq(limitCounters.key, 'invitations_per_address:together@example.com'));
    expect(counter).toMatchObject({ hits: 3, refused: 37 });
  });

  it('a new window starts once the old one has ended', async () => {
    const settings = { ...DEFAULTS, public_forms_per_ip: 2 };
    const who = { userId: null, ip: '203.0.113.78' };
    const take = () => takeLimit(t.database.db, settings, 'public_forms_per_ip', '203.0.113.78', who);
    await take();
    await take();
    await expect(take()).rejects.toMatchObject({ statusCode: 429 });
    await t.database.db
      .update(limitCounters)
      .set({ resetAt: sql`now() - interval '1 second'` })
      .where(eq(limitCounters.key, 'public_forms_per_ip:203.0.113.78'));
    await take();
    const [counter] = await t.database.db
      .select()
      .from(limitCounters)
      .where(eq(limitCounters.key, 'public_forms_per_ip:203.0.113.78'));
    expect(counter).toMatchObject({ hits: 1, refused: 0 });
    expect(await sweepLimitCounters(t.database.db)).toBe(0);
  });
});

describe('card testing (docs/payments.md "Card testing")', () => {
  let gw: GatewayTestApp;
  const db = () => gw.t.database.db;
  beforeAll(async () => {
    gw = await createGatewayTestApp(5000, { config: { limits: DEFAULTS } });
  });
  afterAll(async () => gw?.close());

  async function payer(name: string, email: string, ip: string) {
    const accountId = (await createAccount(db(), { name })).id;
    await createUser(db(), { email, password: 'Payer-pass-2026', accountId });
    const agent = await new Agent(gw.t.app, ip).start();
    expect((await agent.login(email, 'Payer-pass-2026')).statusCode).toBe(200);
    return { accountId, agent };
  }
  const declinedCard = async (invoiceId: number, key?: string) =>
    cardPayload(await tokenizeAtSimulator(gw.urls, testCard()), [invoiceId], '25.00', {
      zip: '46282',
      ...(key ? { idempotency_key: key } : {}),
    });

  it('25 declined cards with fresh tokens: five reach the bank, the rest are 429, one audit row and one staff alert', async () => {
    const { accountId, agent } = await payer('Card Testing Boosters', 'card.tester@example.com', '192.0.2.50');
    const invoiceId = await createInvoice(db(), { accountId, cents: 2_500, prefix: 'CT' });
    const charged = gw.sim.listTransactions().length;
    const answers = [];
    for (let i = 0; i < 25; i++)
      answers.push(await agent.call(paymentContracts.credit, { body: await declinedCard(invoiceId) }));
    expect(statuses(answers)).toEqual([...Array(5).fill(422), ...Array(20).fill(429)]);
    for (const declined of answers.slice(0, 5)) {
      expect(declined.json().errors.payment).toEqual([CARD_DECLINED]);
      expect(declined.body).not.toMatch(/This transaction has been declined|"2"/);
    }
    expectRefused(answers[5], 'For your security, payments are paused after too many declined attempts.');
    expect(gw.sim.listTransactions().length - charged).toBe(5);
    const failedMails = await db()
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'payment.failed'), eq(mailOutbox.toAddress, 'card.tester@example.com')));
    expect(failedMails).toHaveLength(5);
    expect(await refusalsAudited(gw.t, 'payment_declines_per_account')).toHaveLength(1);
    const alerts = await db().select().from(paymentAlerts).where(eq(paymentAlerts.accountId, accountId));
    expect(alerts).toMatchObject([
      { kind: 'possible_card_testing', rule: 'payment_declines_per_account', ip: '192.0.2.50', maxCount: 5 },
    ]);
  });

  it("a second account from the same network is stopped by the network's declines; staff paying on its behalf are not", async () => {
    const { accountId, agent } = await payer('Second Account Boosters', 'second.tester@example.com', '192.0.2.50');
    const invoiceId = await createInvoice(db(), { accountId, cents: 2_500, prefix: 'CT2' });
    expectRefused(
      await agent.call(paymentContracts.credit, { body: await declinedCard(invoiceId) }),
      'For your security, payments are paused after too many declined attempts.',
    );
    await createUser(db(), { email: 'payments.staff@example.com', password: 'Staff-pass-2026', isAdmin: true });
    const staff = await new Agent(gw.t.app, '192.0.2.50').start();
    expect((await staff.login('payments.staff@example.com', 'Staff-pass-2026')).statusCode).toBe(200);
    const onBehalf = await staff.call(paymentContracts.credit, {
      body: {
        ...cardPayload(await tokenizeAtSimulator(gw.urls, testCard()), [invoiceId], '25.00'),
        account_id: accountId,
      },
    });
    expect(onBehalf.statusCode, onBehalf.body).toBe(200);
  });

  it('an account makes at most 10 attempts an hour, approved or not; a replay of the same attempt is not another', async () => {
    const { accountId, agent } = await payer('Busy Treasurer Boosters', 'busy.treasurer@example.com', '192.0.2.60');
    const answers = [];
    for (let i = 0; i < 10; i++) {
      const invoiceId = await createInvoice(db(), { accountId, cents: 100, prefix: `BT${i}` });
      const body = cardPayload(await tokenizeAtSimulator(gw.urls, testCard()), [invoiceId], '1.00');
      answers.push(await agent.call(paymentContracts.credit, { body: body }));
      // A double click: the same attempt answered again, not counted.
      if (i === 0) expect((await agent.call(paymentContracts.credit, { body: body })).statusCode).toBe(200);
    }
    expect(statuses(answers)).toEqual(Array(10).fill(200));
    const invoiceId = await createInvoice(db(), { accountId, cents: 100, prefix: 'BT10' });
    const eleventh = await agent.call(paymentContracts.credit, {
      body: cardPayload(await tokenizeAtSimulator(gw.urls, testCard()), [invoiceId], '1.00'),
    });
    expectRefused(eleventh, 'For your security, payments are paused after too many attempts.');
    const paypal = await agent.call(paymentContracts.paypalInit, {
      query: { invoices: invoiceId, value: '1.00', type: 'paypal', discount_id: '' },
    });
    expectRefused(paypal, 'For your security, payments are paused after too many attempts.');
  });
});

describe('address probing and sign-in (docs/security.md "Sign-in and address probing")', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { limits: DEFAULTS } });
  });
  afterAll(async () => t?.close());

  it('failed sign-ins, application starts and users added share 30 an hour per network; the start keeps its message within them', async () => {
    const ip = '198.51.100.90';
    const startUp = await levelId(t, 'start-up');
    await createUser(t.database.db, { email: 'known.owner@example.com', password: 'Owner-pass-2026' });
    const { agent: primary } = await primaryOf(t, 'Probe Boosters', 'probe.primary@example.com', ip);
    // Each start signs its browser in, so each comes from a browser of its own on that network.
    const start = async (email: string, from = ip) =>
      (await new Agent(t.app, from).start()).post('/application/start', {
        email,
        password: 'Booster-club-2026',
        level_id: startUp,
      });
    const visitor = await new Agent(t.app, ip).start();
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 10; i++) answers.push(await visitor.login(`guess.${i}@example.com`, 'Wrong-pass-2026'));
    for (let i = 0; i < 9; i++) answers.push(await start(`new.${i}@example.com`));
    const known = await start('known.owner@example.com');
    for (let i = 0; i < 10; i++)
      answers.push(await primary.call(accountUserContracts.store, { body: newUser(`probe.${i}@example.com`) }));
    expect(statuses(answers)).toEqual([...Array(10).fill(422), ...Array(19).fill(201)]);
    expect(known.statusCode).toBe(422);
    expect(known.json().errors.email).toEqual(['An account already uses this e-mail address. Please sign in instead.']);
    // The 31st check of any kind from this network is refused, with its own sentence.
    const sentence = 'Too many sign-in attempts or new accounts from your network.';
    expectRefused(await start('new.31@example.com'), sentence);
    expectRefused(await visitor.login('guess.31@example.com', 'Wrong-pass-2026'), sentence);
    expectRefused(await primary.call(accountUserContracts.store, { body: newUser('probe.31@example.com') }), sentence);
    // Another network is not held back.
    expect((await start('elsewhere@example.com', '198.51.100.91')).statusCode).toBe(201);
  });

  it('ten failed sign-ins to one account from new browsers stop the next one, even with the right password; the owner on a browser they signed in with before still signs in', async () => {
    const owner = { email: 'targeted.owner@example.com', password: 'Owner-pass-2026' };
    await createUser(t.database.db, owner);
    const ownerBrowser = await new Agent(t.app, '192.0.2.200').start();
    expect((await ownerBrowser.login(owner.email, owner.password)).statusCode).toBe(200);
    const signedOut = await ownerBrowser.call(signInContracts.logout);
    expect(signedOut.statusCode).toBe(200);
    ownerBrowser.csrfToken = signedOut.json().csrfToken;

    // One guess from each of ten networks: no network meets its own limit.
    for (let i = 0; i < 10; i++) {
      const attacker = await new Agent(t.app, `10.20.0.${i + 1}`).start();
      expect((await attacker.login(owner.email, `Guess-number-${i}`)).statusCode).toBe(422);
    }
    const eleventh = await new Agent(t.app, '10.20.0.11').start();
    expectRefused(
      await eleventh.login(owner.email, owner.password),
      'Too many failed sign-ins to this account from new devices.',
    );
    // The owner's browser knows the address: it signs in, and its own success gives nothing back to the attacker.
    expect((await ownerBrowser.login(owner.email, owner.password)).statusCode).toBe(200);
    expect((await eleventh.login(owner.email, owner.password)).statusCode).toBe(429);
    // An address with no account answers the same, so the limit tells nothing.
    for (let i = 0; i < 10; i++) {
      const attacker = await new Agent(t.app, `10.30.0.${i + 1}`).start();
      expect((await attacker.login('no.such.owner@example.com', `Guess-number-${i}`)).statusCode).toBe(422);
    }
    expectRefused(
      await (await new Agent(t.app, '10.30.0.11').start()).login('no.such.owner@example.com', 'Guess-number-11'),
      'Too many failed sign-ins to this account from new devices.',
    );
  });

  it('a forged device cookie is not believed', async () => {
    const owner = { email: 'forged.cookie@example.com', password: 'Owner-pass-2026' };
    await createUser(t.database.db, owner);
    for (let i = 0; i < 10; i++) {
      const attacker = await new Agent(t.app, `10.40.0.${i + 1}`).start();
      expect((await attacker.login(owner.email, `Guess-number-${i}`)).statusCode).toBe(422);
    }
    const forger = await new Agent(t.app, '10.40.0.11').start();
    forger.cookies.set('gs_device', 'AAAAAAAAAAAAAAAA.bm90LWEtc2lnbmF0dXJl');
    expect((await forger.login(owner.email, owner.password)).statusCode).toBe(429);
  });
});

describe('the limits are documented', () => {
  it('docs/security.md and docs/configuration.md list every limit with its setting and default', () => {
    const security = fs.readFileSync('docs/security.md', 'utf8');
    const configuration = fs.readFileSync('docs/configuration.md', 'utf8');
    for (const name of LIMIT_NAMES) {
      const { setting, defaultMax } = LIMIT_RULES[name];
      expect(security, setting).toMatch(new RegExp(`\\| \`${setting}\` \\| ${defaultMax} \\|`));
      expect(configuration, setting).toMatch(new RegExp(`\\| \`${setting}\` \\| \`${defaultMax}\` \\|`));
    }
  });
});
