import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, banners, inquiries, mailOutbox } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { adminConsoleContracts } from '../../src/shared/contracts/admin-console.ts';
import { adminInboxContracts } from '../../src/shared/contracts/admin-inbox.ts';
import { adminOutboxContracts } from '../../src/shared/contracts/admin-outbox.ts';
import { inquiryContracts } from '../../src/shared/contracts/public-forms.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/** Admin screens' JSON API: inquiries inbox, mail outbox, banners; banners in page boot data. */

const ADMIN = { email: 'boss@example.com', password: 'Boss-pass-123' };
const HOLDER = { email: 'member@example.com', password: 'Member-pass-123' };

let t: TestApp;
let admin: Agent;
let adminId: number;

/** Reads the boot JSON block of a rendered page. */
function bootOf(html: string) {
  const m = /<script type="application\/json" id="boot-data">(.*?)<\/script>/s.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]);
}

const CONTACTS = 27;
const CAMPUS = 3;

beforeAll(async () => {
  t = await createTestApp();
  adminId = (await createUser(t.database.db, { ...ADMIN, isAdmin: true })).id;
  await createUser(t.database.db, HOLDER);
  admin = await new Agent(t.app).start();
  expect((await admin.login(ADMIN.email, ADMIN.password)).statusCode).toBe(200);

  // Fill the inbox through the public forms, as visitors do.
  const visitor = await new Agent(t.app, '192.0.2.10').start();
  for (let i = 1; i <= CONTACTS; i++) {
    const res = await visitor.call(inquiryContracts.contact, {
      body: {
        name: `Sender ${i}`,
        email: `sender${i}@example.com`,
        subject: 'Membership',
        message: `Message ${i}`,
      },
    });
    expect(res.statusCode).toBe(201);
  }
  for (let i = 1; i <= CAMPUS; i++) {
    expect(
      (
        await visitor.call(inquiryContracts.campusReport, {
          body: { email: `campus${i}@example.edu`, organization: `Campus ${i}` },
        })
      ).statusCode,
    ).toBe(201);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('inquiries inbox', () => {
  it('lists every kind, newest first, 25 a page, with page totals', async () => {
    const res = await admin.call(adminInboxContracts.list);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({
      current_page: 1,
      from: 1,
      to: 25,
      last_page: 2,
      per_page: 25,
      total: CONTACTS + CAMPUS,
      next_page_url: '?page=2',
      prev_page_url: null,
    });
    expect(page.data).toHaveLength(25);
    expect(page.data[0]).toEqual({
      id: expect.any(Number),
      kind: 'campus_report',
      name: '',
      email: `campus${CAMPUS}@example.edu`,
      organization: `Campus ${CAMPUS}`,
      is_handled: false,
      created_at: expect.any(String),
    });
    const ids = page.data.map((r: { id: number }) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const second = (await admin.call(adminInboxContracts.list, { query: { page: 2 } })).json();
    expect(second).toMatchObject({
      current_page: 2,
      from: 26,
      to: 30,
      total: 30,
      next_page_url: null,
      prev_page_url: '?page=1',
    });
    expect(second.data).toHaveLength(5);
    const all = [...ids, ...second.data.map((r: { id: number }) => r.id)];
    expect(new Set(all).size).toBe(30);
  });

  it('filters by kind', async () => {
    const campus = (await admin.call(adminInboxContracts.list, { query: { kind: 'campus_report' } })).json();
    expect(campus).toMatchObject({ total: CAMPUS, last_page: 1, from: 1, to: CAMPUS, next_page_url: null });
    expect(campus.data.every((r: { kind: string }) => r.kind === 'campus_report')).toBe(true);

    const contact = (await admin.call(adminInboxContracts.list, { query: { kind: 'contact', page: 2 } })).json();
    expect(contact).toMatchObject({ total: CONTACTS, current_page: 2, from: 26, to: CONTACTS, last_page: 2 });
    expect(contact.data.every((r: { kind: string }) => r.kind === 'contact')).toBe(true);

    const none = (await admin.call(adminInboxContracts.list, { query: { kind: 'multi_chapter' } })).json();
    expect(none).toMatchObject({ total: 0, data: [], from: null, to: null, last_page: 1 });

    const bad = await admin.call(adminInboxContracts.list, { query: { kind: 'spam' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.kind[0]).toBe('The selected kind is invalid.');
  });

  it('answers an empty page past the end and page 1 for a bad page number', async () => {
    const past = (await admin.call(adminInboxContracts.list, { query: { page: 50 } })).json();
    expect(past).toMatchObject({ current_page: 50, data: [], from: null, to: null, total: 30, last_page: 2 });
    const bad = (await admin.call(adminInboxContracts.list, { query: { page: 'abc' } })).json();
    expect(bad.current_page).toBe(1);
  });

  it('sorts by each column title, both ways, ties by id, and refuses an unknown column', async () => {
    type Row = { id: number; kind: string; name: string; organization: string; is_handled: boolean };
    const list = async (q: string) => (await admin.get(`/api/admin/inquiries${q}`)).json().data as Row[];
    const byKind = await list('?sort=kind');
    expect(byKind.slice(0, 3).map((r) => r.organization)).toEqual(['Campus 1', 'Campus 2', 'Campus 3']);
    expect(byKind[3]!.kind).toBe('contact');
    expect((await list('?sort=-organization')).slice(0, 3).map((r) => r.organization)).toEqual([
      'Campus 3',
      'Campus 2',
      'Campus 1',
    ]);
    expect((await list('?sort=-name&kind=contact')).slice(0, 3).map((r) => r.name)).toEqual([
      'Sender 9',
      'Sender 8',
      'Sender 7',
    ]);
    const [handled] = await t.database.db
      .select({ id: inquiries.id })
      .from(inquiries)
      .where(eq(inquiries.email, 'sender5@example.com'));
    await t.database.db.update(inquiries).set({ isHandled: true }).where(eq(inquiries.id, handled!.id));
    try {
      expect((await list('?sort=-state'))[0]).toMatchObject({ id: handled!.id, is_handled: true });
      const asc = await list('?sort=state&page=2');
      expect(asc.at(-1)).toMatchObject({ id: handled!.id, is_handled: true });
    } finally {
      await t.database.db.update(inquiries).set({ isHandled: false }).where(eq(inquiries.id, handled!.id));
    }
    const bad = await admin.call(adminInboxContracts.list, { query: { sort: 'email' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.sort[0]).toBe(
      'The sort must be one of: created_at, -created_at, name, -name, kind, -kind, organization, -organization, state, -state.',
    );
  });

  it('exports every inquiry the filters match, in the inbox order, as CSV', async () => {
    const res = await admin.call(adminInboxContracts.exportCsv, {
      query: { kind: 'contact', search: 'sender', sort: 'name', page: 2 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="inquiries-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Received,Kind,Name,E-mail,Organization,State,Inquiry id');
    const pages = [1, 2].map(
      async (p) =>
        (
          await admin.call(adminInboxContracts.list, {
            query: { kind: 'contact', search: 'sender', sort: 'name', page: p },
          })
        ).json().data,
    );
    const shown = (await Promise.all(pages)).flat() as {
      id: number;
      name: string;
      email: string;
      created_at: string;
    }[];
    expect(lines).toHaveLength(CONTACTS + 1);
    expect(lines.slice(1).map((l) => Number(l.split(',').at(-1)))).toEqual(shown.map((r) => r.id));
    const first = shown[0]!;
    expect(lines[1]).toBe(
      `${first.created_at.slice(0, 19).replace('T', ' ')} UTC,Contact,Sender 1,sender1@example.com,,New,${first.id}`,
    );
    expect((await admin.call(adminInboxContracts.exportCsv, { query: { sort: 'email' } })).statusCode).toBe(422);
    expect((await admin.call(adminInboxContracts.exportCsv, { query: { kind: 'spam' } })).statusCode).toBe(422);
  });

  it('shows one inquiry with all its fields, and 404 for unknown or malformed ids', async () => {
    const [row] = await t.database.db.select().from(inquiries).where(eq(inquiries.email, 'sender7@example.com'));
    const res = await admin.call(adminInboxContracts.show, { params: { id: row.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: row.id,
      kind: 'contact',
      name: 'Sender 7',
      email: 'sender7@example.com',
      phone: '',
      organization: '',
      details: { subject: 'Membership', message: 'Message 7' },
      is_handled: false,
      handled_at: null,
      handled_by: null,
      ip: '192.0.2.10',
    });
    for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999']) {
      const r = await admin.call(adminInboxContracts.show, { params: { id: id } });
      expect(r.statusCode, id).toBe(404);
      expect(r.json().message).toMatch(/could not be found\.$/);
    }
  });

  it('marks an inquiry handled and new again, writing the audit log', async () => {
    const [row] = await t.database.db.select().from(inquiries).where(eq(inquiries.email, 'sender3@example.com'));
    const res = await admin.call(adminInboxContracts.handled, { params: { id: row.id }, body: { is_handled: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: row.id,
      is_handled: true,
      handled_by: ADMIN.email,
      handled_at: expect.any(String),
    });

    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'inquiry.handled'), eq(auditLog.actorUserId, adminId)));
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toEqual({ inquiryId: row.id });

    const handled = (await admin.call(adminInboxContracts.list, { query: { status: 'handled' } })).json();
    expect(handled.total).toBe(1);
    expect(handled.data[0].id).toBe(row.id);
    expect((await admin.call(adminInboxContracts.list, { query: { status: 'new' } })).json().total).toBe(29);

    const reopened = await admin.call(adminInboxContracts.handled, { params: { id: row.id }, body: { is_handled: 0 } });
    expect(reopened.json()).toMatchObject({ is_handled: false, handled_by: null, handled_at: null });
    const [{ n }] = await t.database.db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.action, 'inquiry.reopened'));
    expect(n).toBe(1);

    const missing = await admin.call(adminInboxContracts.handled, { params: { id: 999999 }, body: { is_handled: 1 } });
    expect(missing.statusCode).toBe(404);
    const [{ m }] = await t.database.db
      .select({ m: count() })
      .from(auditLog)
      .where(eq(auditLog.action, 'inquiry.handled'));
    expect(m).toBe(1);
  });

  it('needs the CSRF token to mark an inquiry', async () => {
    const [row] = await t.database.db.select().from(inquiries).where(eq(inquiries.email, 'sender4@example.com'));
    const res = await admin.request('POST', `/api/admin/inquiries/${row.id}/handled`, { is_handled: 1 }, {}, false);
    expect(res.statusCode).toBe(419);
    const [after] = await t.database.db.select().from(inquiries).where(eq(inquiries.id, row.id));
    expect(after.isHandled).toBe(false);
  });
});

describe('mail outbox', () => {
  it('lists mails newest first with paging totals', async () => {
    const [{ n }] = await t.database.db.select({ n: count() }).from(mailOutbox);
    expect(n).toBe(2 * (CONTACTS + CAMPUS));
    const page = (await admin.call(adminOutboxContracts.list)).json();
    expect(page).toMatchObject({
      current_page: 1,
      per_page: 25,
      total: n,
      last_page: Math.ceil(n / 25),
      from: 1,
      to: 25,
    });
    expect(page.data[0]).toEqual({
      id: expect.any(Number),
      kind: expect.stringMatching(/^inquiry\.(staff|ack)$/),
      to: expect.any(String),
      subject: expect.any(String),
      status: 'pending',
      attempts: 0,
      created_at: expect.any(String),
      sent_at: null,
    });
    const last = (await admin.call(adminOutboxContracts.list, { query: { page: page.last_page } })).json();
    expect(last.to).toBe(n);
    expect(last.next_page_url).toBeNull();
  });

  it('shows one mail with its text, and 404 for an unknown id', async () => {
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'inquiry.ack'), eq(mailOutbox.toAddress, 'sender1@example.com')));
    const res = await admin.call(adminOutboxContracts.show, { params: { id: mail.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: mail.id,
      kind: 'inquiry.ack',
      to: 'sender1@example.com',
      status: 'pending',
      attempts: 0,
      last_error: '',
      links_hidden: false,
    });
    expect(res.json().text).toContain("Your message has been received and we'll get back with you shortly.");
    // The sender's text goes to staff only, never back out in the acknowledgement.
    expect(res.json().text).not.toContain('Message 1');
    const notices = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'inquiry.staff'));
    // The sender's name is in the notice's text, as typed, never in its subject.
    const notice = notices.find((m) => m.textBody.includes('Name: “Sender 1”\n'))!;
    expect(notice.subject).not.toContain('Sender 1');
    expect((await admin.call(adminOutboxContracts.show, { params: { id: notice.id } })).json().text).toContain(
      'message: “Message 1”',
    );
    expect((await admin.call(adminOutboxContracts.show, { params: { id: 999999 } })).statusCode).toBe(404);
    expect((await admin.call(adminOutboxContracts.show, { params: { id: 'x' } })).statusCode).toBe(404);
  });

  it('sorts by each column title, both ways, ties by id, and refuses an unknown column', async () => {
    type Row = { id: number; to: string; subject: string; status: string };
    const list = async (q: string) => (await admin.get(`/api/admin/outbox${q}`)).json().data as Row[];
    expect((await list('?sort=to')).slice(0, 3).map((r) => r.to)).toEqual([
      'campus1@example.edu',
      'campus2@example.edu',
      'campus3@example.edu',
    ]);
    expect((await list('?sort=-to&search=campus')).map((r) => r.to).filter((to) => to.startsWith('campus'))).toEqual([
      'campus3@example.edu',
      'campus2@example.edu',
      'campus1@example.edu',
    ]);
    const [top] = await t.database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .orderBy(desc(mailOutbox.subject), desc(mailOutbox.id))
      .limit(1);
    expect((await list('?sort=-subject'))[0]!.id).toBe(top!.id);
    const [a, b] = await t.database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .orderBy(desc(mailOutbox.id))
      .limit(2);
    await t.database.db.update(mailOutbox).set({ status: 'sent' }).where(eq(mailOutbox.id, a!.id));
    await t.database.db.update(mailOutbox).set({ status: 'failed' }).where(eq(mailOutbox.id, b!.id));
    try {
      expect((await list('?sort=-status'))[0]).toMatchObject({ id: a!.id, status: 'sent' });
      expect((await list('?sort=status'))[0]).toMatchObject({ id: b!.id, status: 'failed' });

      const res = await admin.call(adminOutboxContracts.exportCsv, {
        query: { search: 'campus', sort: 'status', page: 3 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="mail-outbox-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = res.body.trimEnd().split('\r\n');
      expect(lines[0]).toBe('Written,To,Subject,Kind,Status,Attempts,Sent,Mail id');
      const shown = (
        await admin.call(adminOutboxContracts.list, { query: { search: 'campus', sort: 'status' } })
      ).json().data as (Row & {
        kind: string;
        created_at: string;
      })[];
      expect(lines.slice(1).map((l) => Number(l.split(',').at(-1)))).toEqual(shown.map((r) => r.id));
      const m = shown[0]!;
      expect(lines[1]).toBe(
        `${m.created_at.slice(0, 19).replace('T', ' ')} UTC,${m.to},${m.subject},${m.kind},Failed,0,,${m.id}`,
      );
    } finally {
      await t.database.db
        .update(mailOutbox)
        .set({ status: 'pending' })
        .where(inArray(mailOutbox.id, [a!.id, b!.id]));
    }
    expect((await admin.call(adminOutboxContracts.list, { query: { sort: 'kind' } })).statusCode).toBe(422);
    expect((await admin.call(adminOutboxContracts.exportCsv, { query: { sort: 'kind' } })).statusCode).toBe(422);
    expect((await admin.call(adminOutboxContracts.exportCsv, { query: { status: 'lost' } })).statusCode).toBe(422);
  });

  it('lets staff alone export the inbox and the outbox', async () => {
    const holder = await new Agent(t.app).start();
    await holder.login(HOLDER.email, HOLDER.password);
    const visitor = await new Agent(t.app).start();
    for (const path of ['/api/admin/inquiries/export.csv', '/api/admin/outbox/export.csv']) {
      expect((await visitor.get(path)).statusCode, path).toBe(401);
      expect((await holder.get(path)).statusCode, path).toBe(403);
    }
  });

  it('staff notices go to the configured staff address', async () => {
    const staff = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'inquiry.staff'))
      .orderBy(desc(mailOutbox.id));
    expect(staff).toHaveLength(CONTACTS + CAMPUS);
    expect(new Set(staff.map((m) => m.toAddress))).toEqual(new Set([t.config.mail.staffEmail]));
  });
});

describe('banners', () => {
  const pageHtml = async (a: Agent, path = '/contact') => {
    const res = await a.request('GET', path, undefined, { accept: 'text/html' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    return res.body;
  };

  it('creates, lists, updates and deletes a banner, with audit rows', async () => {
    const created = await admin.call(adminConsoleContracts.createBanner, {
      body: {
        kind: 'holiday-alert',
        text: 'Closed for the holidays Dec 24-26.',
        is_active: 1,
      },
    });
    expect(created.statusCode).toBe(201);
    const banner = created.json();
    expect(banner).toMatchObject({
      id: expect.any(Number),
      kind: 'holiday-alert',
      text: 'Closed for the holidays Dec 24-26.',
      is_active: true,
    });

    const list = (await admin.call(adminConsoleContracts.banners)).json();
    expect(list.banners.map((b: { id: number }) => b.id)).toContain(banner.id);

    const updated = await admin.call(adminConsoleContracts.saveBanner, {
      params: { id: banner.id },
      body: {
        kind: 'urgent-alert',
        text: 'Filing deadline is May 15.',
        is_active: 0,
      },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      id: banner.id,
      kind: 'urgent-alert',
      text: 'Filing deadline is May 15.',
      is_active: false,
    });
    const [row] = await t.database.db.select().from(banners).where(eq(banners.id, banner.id));
    expect(row).toMatchObject({ kind: 'urgent-alert', text: 'Filing deadline is May 15.', isActive: false });

    const deleted = await admin.call(adminConsoleContracts.deleteBanner, { params: { id: banner.id } });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'The banner was deleted.' });
    expect(await t.database.db.select().from(banners).where(eq(banners.id, banner.id))).toHaveLength(0);
    expect((await admin.call(adminConsoleContracts.deleteBanner, { params: { id: banner.id } })).statusCode).toBe(404);
    expect(
      (
        await admin.call(adminConsoleContracts.saveBanner, {
          params: { id: banner.id },
          body: { kind: 'urgent-alert', text: 'x', is_active: 1 },
        })
      ).statusCode,
    ).toBe(404);

    const actions = (await t.database.db.select().from(auditLog).where(eq(auditLog.actorUserId, adminId))).map(
      (r) => r.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['banner.created', 'banner.updated', 'banner.deleted']));
  });

  it('answers 422 on a bad kind or empty text, and stores nothing', async () => {
    const [{ n: before }] = await t.database.db.select({ n: count() }).from(banners);
    const badKind = await admin.call(adminConsoleContracts.createBanner, {
      body: { kind: 'info-alert', text: 'Hello', is_active: 1 },
    });
    expect(badKind.statusCode).toBe(422);
    expect(badKind.json().errors).toEqual({ kind: ['The selected kind is invalid.'] });
    const noKind = await admin.call(adminConsoleContracts.createBanner, { body: { text: 'Hello' } });
    expect(noKind.json().errors).toEqual({ kind: ['The kind field is required.'] });
    const empty = await admin.call(adminConsoleContracts.createBanner, {
      body: { kind: 'urgent-alert', text: '   ', is_active: 1 },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({ text: ['The text field is required.'] });
    const long = await admin.call(adminConsoleContracts.createBanner, {
      body: { kind: 'urgent-alert', text: 'x'.repeat(501), is_active: 1 },
    });
    expect(long.json().errors).toEqual({ text: ['The text field must not be greater than 500 characters.'] });
    const [{ n: after }] = await t.database.db.select({ n: count() }).from(banners);
    expect(after).toBe(before);
  });

  it("shows active banners in every page's boot data, and stops once inactive or deleted", async () => {
    const visitor = await new Agent(t.app).start();
    const text = 'Offices closed Monday </script><script>alert(1)</script> & back Tuesday';
    const created = (
      await admin.call(adminConsoleContracts.createBanner, { body: { kind: 'urgent-alert', text, is_active: 1 } })
    ).json();
    const hidden = (
      await admin.call(adminConsoleContracts.createBanner, {
        body: { kind: 'holiday-alert', text: 'Not yet live', is_active: 0 },
      })
    ).json();

    const html = await pageHtml(visitor);
    expect(html).toMatch(/<meta name="csrf-token" content="[^"]+"/);
    const boot = bootOf(html);
    expect(boot.banners).toEqual([{ id: created.id, kind: 'urgent-alert', text }]);
    expect(boot.user).toBeNull();
    expect(boot.status).toBe(200);
    expect(boot.company).toMatchObject({ name: 'GoodStanding' });
    // The text cannot close the script block it is carried in.
    expect(html).not.toContain('</script><script>alert(1)');
    // The meta tag's token is the session's CSRF token: it works for a POST.
    const metaToken = /<meta name="csrf-token" content="([^"]+)"/.exec(html)![1];
    expect(metaToken).toBe(boot.csrfToken);
    const post = await visitor.request(
      'POST',
      '/ratings',
      { url: '/contact', rating: 5 },
      { 'x-csrf-token': metaToken },
    );
    expect(post.statusCode).toBe(201);

    // On other pages too, including the 404 page.
    expect(bootOf(await pageHtml(visitor, '/')).banners).toHaveLength(1);
    const notFound = await visitor.request('GET', '/no-such-page', undefined, { accept: 'text/html' });
    expect(notFound.statusCode).toBe(404);
    expect(bootOf(notFound.body)).toMatchObject({ status: 404, banners: [{ id: created.id }] });

    // Activating the hidden one shows both; deleting and deactivating removes them at once.
    await admin.call(adminConsoleContracts.saveBanner, {
      params: { id: hidden.id },
      body: { kind: 'holiday-alert', text: 'Now live', is_active: 1 },
    });
    expect(bootOf(await pageHtml(visitor)).banners.map((b: { text: string }) => b.text)).toEqual([text, 'Now live']);
    await admin.call(adminConsoleContracts.deleteBanner, { params: { id: created.id } });
    await admin.call(adminConsoleContracts.saveBanner, {
      params: { id: hidden.id },
      body: { kind: 'holiday-alert', text: 'Now live', is_active: 0 },
    });
    expect(bootOf(await pageHtml(visitor)).banners).toEqual([]);
  });

  it('needs the CSRF token and an admin to change banners', async () => {
    const [{ n: before }] = await t.database.db.select({ n: count() }).from(banners);
    expect(
      (await admin.request('POST', '/api/admin/banners', { kind: 'urgent-alert', text: 'x', is_active: 1 }, {}, false))
        .statusCode,
    ).toBe(419);
    const holder = await new Agent(t.app).start();
    await holder.login(HOLDER.email, HOLDER.password);
    expect(
      (
        await holder.call(adminConsoleContracts.createBanner, {
          body: { kind: 'urgent-alert', text: 'x', is_active: 1 },
        })
      ).statusCode,
    ).toBe(403);
    const [{ n: after }] = await t.database.db.select({ n: count() }).from(banners);
    expect(after).toBe(before);
  });
});
