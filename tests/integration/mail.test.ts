import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { levels, mailOutbox } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { HIDDEN_LINK } from '../../src/server/modules/admin/outbox.ts';
import {
  deliverPendingMail,
  MAX_MAIL_ATTEMPTS,
  SENT_TOKEN_MAIL_NOTE,
} from '../../src/server/modules/mail/deliver-pending-mail.ts';
import { enqueueMail } from '../../src/server/modules/mail/enqueue-mail.ts';
import { smtpTransport } from '../../src/server/providers/mail/transport.ts';
import { adminOutboxContracts } from '../../src/shared/contracts/admin-outbox.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { mailParts, startSmtpPeer } from '../helpers/local-peers.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('mail outbox through a real SMTP peer', () => {
  it('sends due mails once and marks them sent', async () => {
    const peer = await startSmtpPeer();
    const transport = smtpTransport(peer.url);
    try {
      await enqueueMail(t.app.db, [
        { kind: 'test', to: 'one@example.com', subject: 'First', text: 'Hello one' },
        { kind: 'test', to: 'two@example.com', subject: 'Second', text: 'Hello two' },
      ]);
      const round = await deliverPendingMail(t.app.db, transport, 'GoodStanding <no-reply@goodstanding.local>');
      expect(round).toEqual({ sent: 2, failed: 0 });
      expect(peer.received.map((m) => m.to[0]).sort()).toEqual(['one@example.com', 'two@example.com']);
      expect(peer.received.find((m) => m.to[0] === 'one@example.com')!.body).toContain('Hello one');
      expect(peer.received[0].from).toBe('no-reply@goodstanding.local');
      const rows = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'test'));
      expect(rows.every((r) => r.status === 'sent' && r.sentAt && r.attempts === 1)).toBe(true);
      expect(await deliverPendingMail(t.app.db, transport, 'x@example.com')).toEqual({ sent: 0, failed: 0 });
    } finally {
      transport.close();
      await peer.close();
    }
  });

  it("sends every mail with a plain-text and an HTML part: its own HTML, or its text escaped with only the mail's own links made clickable", async () => {
    const peer = await startSmtpPeer();
    const transport = smtpTransport(peer.url);
    try {
      await enqueueMail(t.app.db, [
        {
          kind: 'parts.default',
          to: 'parts.default@example.com',
          subject: 'Dues & <fees>',
          text: 'Hello Zoë,\n\nSee https://example.org/pay?a=1&b=2.\nNot https://elsewhere.example/pay.\nThanks <team>\n',
          links: ['https://example.org/pay?a=1&b=2'],
        },
        {
          kind: 'parts.own',
          to: 'parts.own@example.com',
          subject: 'Own HTML',
          text: 'Plain version',
          html: '<!DOCTYPE html><html><body><p>Rich <b>version</b></p></body></html>',
        },
      ]);
      expect(await deliverPendingMail(t.app.db, transport, 'a@example.com')).toEqual({ sent: 2, failed: 0 });
      const plain = mailParts(peer.received.find((m) => m.to[0] === 'parts.default@example.com')!.body);
      expect(plain.contentType).toMatch(/^multipart\/alternative/);
      // An address the mail did not list as its own is defanged in the text and linked nowhere.
      expect(plain.text).toBe(
        'Hello Zoë,\n\nSee https://example.org/pay?a=1&b=2.\nNot hxxps[:]//elsewhere[.]example/pay.\nThanks <team>\n',
      );
      expect(plain.html).toContain(
        '<h1 style="margin:0;font-size:20px;line-height:1.3;color:#1a1b1e">Dues &amp; &lt;fees&gt;</h1>',
      );
      expect(plain.html).toContain('Hello Zoë,</p>');
      expect(plain.html).toContain(
        'See <a href="https://example.org/pay?a=1&amp;b=2" style="color:#1c5fb0;word-break:break-all">https://example.org/pay?a=1&amp;b=2</a>.<br>Not hxxps[:]//elsewhere[.]example/pay.<br>Thanks &lt;team&gt;',
      );
      expect(plain.html.match(/<a /g)).toHaveLength(1);
      // The outbox holds both parts as they were sent.
      const [stored] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'parts.default'));
      expect(stored.htmlBody).toBe(plain.html);
      expect(plain.html).not.toContain('<team>');
      const own = mailParts(peer.received.find((m) => m.to[0] === 'parts.own@example.com')!.body);
      expect(own.text).toBe('Plain version');
      expect(own.html).toBe('<!DOCTYPE html><html><body><p>Rich <b>version</b></p></body></html>');
      const [row] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'parts.own'));
      expect(row.htmlBody).toContain('Rich <b>version</b>');
    } finally {
      transport.close();
      await peer.close();
    }
  });

  it('keeps a refused mail, retries it later, and gives up after the last attempt', async () => {
    const peer = await startSmtpPeer({ refuse: true });
    const transport = smtpTransport(peer.url);
    try {
      await enqueueMail(t.app.db, [{ kind: 'refused', to: 'nobody@example.com', subject: 'Refused', text: 'x' }]);
      expect(await deliverPendingMail(t.app.db, transport, 'a@example.com')).toEqual({ sent: 0, failed: 1 });
      let [row] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'refused'));
      expect(row.status).toBe('pending');
      expect(row.attempts).toBe(1);
      expect(row.lastError).toMatch(/Mailbox unavailable|550/);
      expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
      // Not due yet: nothing is tried.
      expect(await deliverPendingMail(t.app.db, transport, 'a@example.com')).toEqual({ sent: 0, failed: 0 });
      for (let i = 1; i < MAX_MAIL_ATTEMPTS; i++) {
        await t.app.db
          .update(mailOutbox)
          .set({ nextAttemptAt: new Date(Date.now() - 1000) })
          .where(eq(mailOutbox.id, row.id));
        await deliverPendingMail(t.app.db, transport, 'a@example.com');
      }
      [row] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.id, row.id));
      expect(row.attempts).toBe(MAX_MAIL_ATTEMPTS);
      expect(row.status).toBe('failed');
    } finally {
      transport.close();
      await peer.close();
    }
  });

  it('keeps mails pending when the SMTP server cannot be reached', async () => {
    const transport = smtpTransport('smtp://127.0.0.1:1');
    try {
      await enqueueMail(t.app.db, [{ kind: 'unreachable', to: 'x@example.com', subject: 'S', text: 'T' }]);
      expect(await deliverPendingMail(t.app.db, transport, 'a@example.com')).toEqual({ sent: 0, failed: 1 });
      const [row] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'unreachable'));
      expect(row.status).toBe('pending');
    } finally {
      transport.close();
    }
  });

  it('drops the body of a sent mail that carried a token, keeps it while it waits or fails, and keeps other mails whole', async () => {
    await createUser(t.app.db, { email: 'token.mail@example.com', password: 'Token-mail-pass-1' });
    const visitor = await new Agent(t.app).start();
    expect(
      (await visitor.call(signInContracts.forgotPassword, { body: { email: 'token.mail@example.com' } })).statusCode,
    ).toBe(200);
    const [level] = await t.app.db.select({ id: levels.id }).from(levels).where(eq(levels.slug, 'maintain'));
    const applicant = await new Agent(t.app).start();
    const started = await applicant.call(applicationWizardContracts.start, {
      body: {
        email: 'token.applicant@example.com',
        password: 'Booster-club-2026',
        level_id: level.id,
      },
    });
    expect(started.statusCode).toBe(201);
    await enqueueMail(t.app.db, [
      { kind: 'plain', to: 'plain@example.com', subject: 'Plain', text: 'Nothing secret here' },
    ]);
    const kinds = ['password.reset', 'application.started', 'plain'];
    const rows = () => t.app.db.select().from(mailOutbox).where(inArray(mailOutbox.kind, kinds));
    // The reset mail is written after the answer (so timing reveals nothing).
    expect(await waitFor(async () => (await rows()).length === 3, 10_000)).toBe(true);

    // Refused first: a mail waiting for its next attempt keeps its link, or the retry would send a note.
    const refusing = await startSmtpPeer({ refuse: true });
    const refused = smtpTransport(refusing.url);
    try {
      expect(await deliverPendingMail(t.app.db, refused, 'a@example.com')).toEqual({ sent: 0, failed: 3 });
    } finally {
      refused.close();
      await refusing.close();
    }
    for (const row of await rows()) expect(row.textBody, row.kind).not.toBe(SENT_TOKEN_MAIL_NOTE);

    await t.app.db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(inArray(mailOutbox.kind, kinds));
    const peer = await startSmtpPeer();
    const transport = smtpTransport(peer.url);
    try {
      expect(await deliverPendingMail(t.app.db, transport, 'a@example.com')).toEqual({ sent: 3, failed: 0 });
      // The recipients got their links ...
      // Raw message text, with quoted-printable's soft line breaks joined again.
      const body = (to: string) => peer.received.find((m) => m.to[0] === to)!.body.replace(/=\r?\n/g, '');
      expect(body('token.mail@example.com')).toMatch(/\/password\/reset\/[A-Za-z0-9_-]{22}/);
      expect(body('token.applicant@example.com')).toContain(`/application/create/${started.json().token}`);
      // Both parts carried the link.
      const reset = mailParts(peer.received.find((m) => m.to[0] === 'token.mail@example.com')!.body);
      expect(reset.text).toMatch(/\/password\/reset\/[A-Za-z0-9_-]{22}/);
      expect(reset.html).toMatch(
        /<a href="http:\/\/[^"]+\/password\/reset\/[A-Za-z0-9_-]{22}\?email=token.mail%40example.com"/,
      );
      // ... and our copy no longer holds them.
      const after = await rows();
      expect(after.every((r) => r.status === 'sent')).toBe(true);
      expect(after.find((r) => r.kind === 'password.reset')!.textBody).toBe(SENT_TOKEN_MAIL_NOTE);
      expect(after.find((r) => r.kind === 'application.started')!.textBody).toBe(SENT_TOKEN_MAIL_NOTE);
      expect(after.filter((r) => r.kind !== 'plain').every((r) => r.htmlBody === null)).toBe(true);
      expect(after.find((r) => r.kind === 'plain')!.textBody).toBe('Nothing secret here');
      expect(JSON.stringify(await t.app.db.select().from(mailOutbox))).not.toContain(started.json().token);
    } finally {
      transport.close();
      await peer.close();
    }
  });
});

describe('the staff outbox and mails that carry a token', () => {
  it('hides the links of a waiting token mail from staff when mail is sent by SMTP, and shows them when the outbox is the only way to read it', async () => {
    await createUser(t.app.db, { email: 'outbox.admin@example.com', password: 'Outbox-admin-pass-1', isAdmin: true });
    const [id] = await enqueueMail(t.app.db, [
      {
        kind: 'password.reset',
        to: 'victim@example.com',
        subject: 'Reset your password',
        carriesToken: true,
        text: 'Hello,\n\nChoose a new password here:\nhttp://localhost:3000/password/reset/SecretResetToken12345?email=victim%40example.com\n\nThanks\n',
        links: ['http://localhost:3000/password/reset/SecretResetToken12345?email=victim%40example.com'],
      },
    ]);
    const [plainId] = await enqueueMail(t.app.db, [
      {
        kind: 'inquiry.ack',
        to: 'someone@example.com',
        subject: 'Thanks',
        text: 'See http://localhost:3000/pricing',
        links: ['http://localhost:3000/pricing'],
      },
    ]);

    // Mail leaves through SMTP: staff have no reason to hold a working link.
    const smtpApp = await buildApp(
      { ...t.config, mail: { ...t.config.mail, smtpUrl: 'smtp://127.0.0.1:2525' } },
      { database: t.database, logger: false },
    );
    await smtpApp.ready();
    try {
      const staff = await new Agent(smtpApp).start();
      expect((await staff.login('outbox.admin@example.com', 'Outbox-admin-pass-1')).statusCode).toBe(200);
      const hidden = (await staff.call(adminOutboxContracts.show, { params: { id: id } })).json();
      expect(hidden).toMatchObject({ links_hidden: true, to: 'victim@example.com', status: 'pending' });
      expect(hidden.text).toBe(`Hello,\n\nChoose a new password here:\n${HIDDEN_LINK}\n\nThanks\n`);
      expect(JSON.stringify(hidden)).not.toContain('SecretResetToken12345');
      // Mails without a token are shown whole.
      expect((await staff.call(adminOutboxContracts.show, { params: { id: plainId } })).json()).toMatchObject({
        links_hidden: false,
        text: 'See http://localhost:3000/pricing',
      });
    } finally {
      await smtpApp.close();
    }

    // Without SMTP (development, demos) the outbox is where every mail is read: the link is shown.
    const staff = await new Agent(t.app).start();
    expect((await staff.login('outbox.admin@example.com', 'Outbox-admin-pass-1')).statusCode).toBe(200);
    expect((await staff.call(adminOutboxContracts.show, { params: { id: id } })).json()).toMatchObject({
      links_hidden: false,
      text: expect.stringContaining('/password/reset/SecretResetToken12345'),
    });
  });
});
