import http from 'node:http';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { dailyCounters, inquiries, mailOutbox, ratings } from '../../src/server/db/schema.ts';
import { typed, typedAddress } from '../../src/server/modules/mail/mail-words.ts';
import { bylawContracts } from '../../src/shared/contracts/bylaws.ts';
import { inquiryContracts, createRatingContract } from '../../src/shared/contracts/public-forms.ts';
import { INQUIRY_KIND_LABELS, type InquiryKind } from '../../src/shared/lists/subjects.ts';
import { BYLAW_ANSWERS } from '../helpers/bylaws.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';
import type { AddressInfo } from 'node:net';

/**
 * Public forms (docs/requirements/product.md tools 6-10, docs/requirements/entities.md payloads, docs/requirements/errors.md messages; docs/requirements/platform.md §3, §5.3, §5.4, §5.9): contact,
 * compliance check, multi-chapter, campus report and the helpfulness rating.
 */

const RECEIVED = "Your message has been received. We'll get back with you shortly.";
const CAPTCHA_FAILED = 'The captcha check failed. Please try again.';

interface FormCase {
  path: string;
  kind: InquiryKind;
  valid: Record<string, string | number>;
  /** Required field -> the exact message when it is missing. */
  required: Record<string, string>;
  /** Fields copied to their own inquiries column. */
  columns: string[];
  /** What the stored details hold for `valid`. */
  details: Record<string, unknown>;
}

const FORMS: FormCase[] = [
  {
    path: '/contact',
    kind: 'contact',
    valid: {
      name: 'Ann Lee',
      email: 'ann@example.com',
      organization: 'Lincoln Boosters',
      subject: '990 help',
      message: 'Which 990 do we file?',
    },
    required: {
      name: 'The name field is required.',
      email: 'The email field is required.',
      subject: 'The subject field is required.',
      message: 'The message field is required.',
    },
    columns: ['name', 'email', 'organization'],
    details: { subject: '990 help', message: 'Which 990 do we file?' },
  },
  {
    path: '/compliance-check',
    kind: 'compliance_check',
    valid: {
      name: 'Bo Diaz',
      email: 'bo@example.com',
      phone: '(307) 555-0101',
      organization: 'Cheyenne Swim Boosters',
      ein: '12-3456789',
      group_id: '5271',
    },
    required: {
      name: 'The name field is required.',
      email: 'The email field is required.',
      phone: 'The phone field is required.',
      organization: 'The organization field is required.',
      ein: 'The EIN field is required.',
    },
    columns: ['name', 'email', 'phone', 'organization'],
    details: { ein: '123456789', group_id: '5271' },
  },
  {
    path: '/multi-chapter',
    kind: 'multi_chapter',
    valid: {
      name: 'Cy Moss',
      email: 'cy@example.com',
      phone: '307-555-0199',
      organization: 'Alpha Beta Gamma',
      affiliates: '42',
      regions: 'regional',
      concerns: 'Late 990-N filings',
    },
    required: {
      name: 'The name field is required.',
      email: 'The email field is required.',
      phone: 'The phone field is required.',
      organization: 'The organization field is required.',
      affiliates: 'The number of affiliates field is required.',
      regions: 'The regions field is required.',
    },
    columns: ['name', 'email', 'phone', 'organization'],
    details: { affiliates: 42, regions: 'regional', concerns: 'Late 990-N filings' },
  },
  {
    path: '/campus-report',
    kind: 'campus_report',
    valid: { email: 'dee@example.edu', organization: 'University of Wyoming' },
    required: {
      email: 'The email field is required.',
      organization: 'The campus field is required.',
    },
    columns: ['email', 'organization'],
    details: {},
  },
];

let t: TestApp;

async function counts(app: TestApp = t) {
  const [{ n: inq }] = await app.database.db.select({ n: count() }).from(inquiries);
  const [{ n: mails }] = await app.database.db.select({ n: count() }).from(mailOutbox);
  const [{ n: rated }] = await app.database.db.select({ n: count() }).from(ratings);
  return { inquiries: inq, mails, ratings: rated };
}

/** Runs `fn` and checks that it wrote nothing to the form tables. */
async function expectNothingStored(fn: () => Promise<void>, app: TestApp = t) {
  const before = await counts(app);
  await fn();
  expect(await counts(app)).toEqual(before);
}

let ipSeq = 0;
/** A fresh visitor with its own address, so rate limits of one test never touch another. */
const visitor = (app: TestApp = t) =>
  new Agent(app.app, `10.0.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`).start();

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe.each(FORMS)('POST $path', (form) => {
  it('stores a valid submission with a staff notice and an acknowledgement, and answers 201', async () => {
    const a = await visitor();
    const email = `sender.${form.kind}@example.com`;
    const before = await counts();
    const res = await a.post(form.path, { ...form.valid, email: email.toUpperCase() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: RECEIVED, id: expect.any(Number) });
    expect(await counts()).toEqual({ ...before, inquiries: before.inquiries + 1, mails: before.mails + 2 });

    const [row] = await t.database.db.select().from(inquiries).where(eq(inquiries.id, res.json().id));
    expect(row.kind).toBe(form.kind);
    expect(row.email).toBe(email);
    for (const c of form.columns.filter((c) => c !== 'email')) expect(row[c as 'name']).toBe(form.valid[c]);
    expect(row.details).toEqual(form.details);
    expect(row.isHandled).toBe(false);
    expect(row.ip).toBe(a.ip);

    const mails = await t.database.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(2);
    const staff = mails.find((m) => m.kind === 'inquiry.staff')!;
    const ack = mails.find((m) => m.kind === 'inquiry.ack')!;
    expect(staff.toAddress).toBe(t.config.mail.staffEmail);
    // What the sender typed is shown as typed (docs/security.md "Mail carries only our links"):
    // defanged, and nowhere in the subject; the one link is the inquiry's staff page.
    expect(staff.textBody).toContain(typedAddress(email));
    expect(staff.textBody).toContain(`Open it: ${t.config.publicUrl}/admin/inquiries/${row.id}\n`);
    expect(staff.subject).toBe(`New ${INQUIRY_KIND_LABELS[form.kind].toLowerCase()} request #${row.id}`);
    expect([...staff.htmlBody!.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      `${t.config.publicUrl}/admin/inquiries/${row.id}`,
    ]);
    expect([...ack.htmlBody!.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      t.config.publicUrl,
      t.config.publicUrl,
    ]);
    expect(ack.toAddress).toBe(email);
    expect(ack.textBody).toContain("Your message has been received and we'll get back with you shortly.");
    // The acknowledgement repeats nothing the sender typed: the form cannot relay a text to an address.
    for (const [field, value] of Object.entries(form.valid).filter(([k]) => k !== 'email')) {
      expect(ack.textBody, field).not.toContain(String(value));
      expect(ack.subject, field).not.toContain(String(value));
    }
    // Staff still get the whole submission.
    for (const value of Object.values(form.details).filter((v) => v !== ''))
      expect(staff.textBody).toContain(typed(String(value)));
    for (const m of [staff, ack]) expect(m.status).toBe('pending');
  });

  it.each(Object.entries(form.required))('answers 422 when %s is missing, blank or null', async (field, message) => {
    const a = await visitor();
    for (const value of [undefined, '', '   ', null]) {
      const { [field]: _omitted, ...rest } = form.valid as Record<string, unknown>;
      const payload: Record<string, unknown> = value === undefined ? rest : { ...rest, [field]: value };
      await expectNothingStored(async () => {
        const res = await a.post(form.path, payload);
        expect(res.statusCode, `${field}=${JSON.stringify(value)}`).toBe(422);
        const body = res.json();
        expect(body.errors[field][0]).toBe(message);
        expect(Object.keys(body.errors)).toEqual([field]);
        expect(body.message).toBe(message);
      });
    }
  });

  it('answers 422 on every required field at once for an empty body', async () => {
    const a = await visitor();
    await expectNothingStored(async () => {
      const res = await a.post(form.path, {});
      expect(res.statusCode).toBe(422);
      const errors = res.json().errors as Record<string, string[]>;
      expect(Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v[0]]))).toEqual(form.required);
    });
  });

  it('answers 422 on an invalid e-mail address', async () => {
    const a = await visitor();
    for (const email of ['ann', 'ann@', 'ann@example', '@example.com', 'a b@example.com']) {
      await expectNothingStored(async () => {
        const res = await a.post(form.path, { ...form.valid, email });
        expect(res.statusCode, email).toBe(422);
        expect(res.json().errors.email[0]).toBe('The email field must be a valid email address.');
      });
    }
  });

  it('answers 419 without the CSRF token, or with a wrong one, and stores nothing', async () => {
    const a = await visitor();
    await expectNothingStored(async () => {
      const res = await a.request('POST', form.path, form.valid, {}, false);
      expect(res.statusCode).toBe(419);
      expect(res.json().message).toBe('Your session has expired. Please reload the page and try again.');
      const wrong = await a.request('POST', form.path, form.valid, { 'x-csrf-token': 'not-the-token' });
      expect(wrong.statusCode).toBe(419);
    });
    // A token from another visitor's session does not work either.
    const other = await visitor();
    await expectNothingStored(async () => {
      const res = await a.request('POST', form.path, form.valid, { 'x-csrf-token': other.csrfToken });
      expect(res.statusCode).toBe(419);
    });
  });

  it('strips NUL bytes from every field and never answers 5xx', async () => {
    const a = await visitor();
    const payload = Object.fromEntries(Object.entries(form.valid).map(([k, v]) => [k, `${v}\u0000`]));
    const before = await counts();
    const res = await a.post(form.path, payload);
    expect([201, 422]).toContain(res.statusCode);
    const after = await counts();
    if (res.statusCode === 201) {
      expect(after).toEqual({ ...before, inquiries: before.inquiries + 1, mails: before.mails + 2 });
      const [row] = await t.database.db.select().from(inquiries).where(eq(inquiries.id, res.json().id));
      expect(JSON.stringify(row)).not.toContain('\\u0000');
      for (const c of form.columns) expect(row[c as 'name']).not.toContain('\u0000');
    } else {
      expect(after).toEqual(before);
    }
    // A NUL byte alone in each field, one at a time.
    for (const field of Object.keys(form.valid)) {
      const b = await counts();
      const r = await a.post(form.path, { ...form.valid, [field]: '\u0000' });
      expect([201, 422], field).toContain(r.statusCode);
      if (field in form.required) expect(r.json().errors[field][0]).toBe(form.required[field]);
      const c = await counts();
      expect(c.inquiries - b.inquiries).toBe(r.statusCode === 201 ? 1 : 0);
      expect(c.mails - b.mails).toBe(r.statusCode === 201 ? 2 : 0);
    }
  });

  it('answers 422 to a 1,000,000-character value in any field, and stores nothing', async () => {
    const a = await visitor();
    const huge = 'x'.repeat(1_000_000);
    for (const field of Object.keys(form.valid)) {
      await expectNothingStored(async () => {
        const res = await a.post(form.path, { ...form.valid, [field]: huge });
        expect(res.statusCode, field).toBe(422);
        expect(res.json().errors[field], field).toBeDefined();
      });
    }
    // All at once: too large to read (413) or invalid (422), never a server error.
    await expectNothingStored(async () => {
      const res = await a.post(form.path, Object.fromEntries(Object.keys(form.valid).map((k) => [k, huge])));
      expect([413, 422]).toContain(res.statusCode);
      expect(res.json().message).toEqual(expect.any(String));
    });
  });

  it('accepts lone surrogates and other odd text without a server error', async () => {
    const a = await visitor();
    const odd = [
      '\uD800',
      ` x\uDC00y 🎉 émoji <script>alert(1)</script> '; DROP TABLE inquiries; -- \u202Eevil \uDBFF`,
    ];
    for (const s of odd) {
      for (const field of Object.keys(form.valid)) {
        const before = await counts();
        const res = await a.post(form.path, { ...form.valid, [field]: `${form.valid[field]}${s}` });
        expect([201, 422], `${field} ${JSON.stringify(s)}`).toContain(res.statusCode);
        expect((await counts()).inquiries - before.inquiries).toBe(res.statusCode === 201 ? 1 : 0);
      }
    }
  });

  it('ignores unknown fields', async () => {
    const a = await visitor();
    const email = `unknown.${form.kind}@example.com`;
    const res = await a.post(form.path, {
      ...form.valid,
      email,
      id: 999_999,
      is_handled: true,
      handled_by: 1,
      kind: 'other',
      ip: '1.2.3.4',
      details: { injected: true },
      extra: 'x',
    });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(inquiries).where(eq(inquiries.id, res.json().id));
    expect(row.id).not.toBe(999_999);
    expect(row.kind).toBe(form.kind);
    expect(row.isHandled).toBe(false);
    expect(row.handledBy).toBeNull();
    expect(row.ip).toBe(a.ip);
    expect(row.details).toEqual(form.details);
  });
});

describe('form-specific rules', () => {
  it('compliance check: EIN with or without the dash is stored as 9 digits; a bad EIN or GEN is refused', async () => {
    const a = await visitor();
    const base = FORMS[1].valid;
    const r1 = await a.call(inquiryContracts.complianceCheck, { body: { ...base, ein: '987654321', group_id: '' } });
    expect(r1.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(inquiries).where(eq(inquiries.id, r1.json().id));
    expect(row.details).toEqual({ ein: '987654321', group_id: '' });

    const bad = await a.call(inquiryContracts.complianceCheck, { body: { ...base, ein: '98-765432' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.ein[0]).toBe('The EIN must be 9 digits, like 12-3456789.');
    const badGen = await a.call(inquiryContracts.complianceCheck, { body: { ...base, group_id: '527' } });
    expect(badGen.statusCode).toBe(422);
    expect(badGen.json().errors.group_id[0]).toBe('The group exemption number must be 4 digits.');
    const badPhone = await a.call(inquiryContracts.complianceCheck, { body: { ...base, phone: 'call me' } });
    expect(badPhone.json().errors.phone[0]).toBe('The phone field format is invalid.');
  });

  it('contact: the subject must be one of the listed options', async () => {
    const a = await visitor();
    const res = await a.call(inquiryContracts.contact, { body: { ...FORMS[0].valid, subject: 'Something else' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.subject[0]).toBe('The selected subject is invalid.');
  });

  it('multi-chapter: affiliates must be a whole number and regions nationwide or regional', async () => {
    const a = await visitor();
    const base = FORMS[2].valid;
    expect(
      (await a.call(inquiryContracts.multiChapter, { body: { ...base, affiliates: 'lots' } })).json().errors
        .affiliates[0],
    ).toBe('The number of affiliates field must be an integer.');
    expect(
      (await a.call(inquiryContracts.multiChapter, { body: { ...base, affiliates: 0 } })).json().errors.affiliates[0],
    ).toBe('The number of affiliates field must be between 1 and 100000.');
    expect(
      (await a.call(inquiryContracts.multiChapter, { body: { ...base, regions: 'global' } })).json().errors.regions[0],
    ).toBe('The selected regions is invalid.');
    expect(
      (await a.call(inquiryContracts.multiChapter, { body: { ...base, affiliates: 7, regions: 'nationwide' } }))
        .statusCode,
    ).toBe(201);
  });

  it('answers 400 to a body that is not JSON, without a server error', async () => {
    const a = await visitor();
    await expectNothingStored(async () => {
      const res = await a.request('POST', '/contact', '{"name": "Ann",', { 'content-type': 'application/json' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('The request could not be read.');
      const arr = await a.request('POST', '/contact', '[1,2,3]', { 'content-type': 'application/json' });
      expect(arr.statusCode).toBe(422);
    });
  });
});

describe('acknowledgements (docs/security.md "Public forms")', () => {
  /** The mails of one kind sent to `address`, in any letter case. */
  const mailsTo = async (kind: string, address: string) =>
    t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, kind), sql`lower(${mailOutbox.toAddress}) = ${address.toLowerCase()}`));
  const staffNoticesAbout = async (address: string) =>
    (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'inquiry.staff'))).filter((m) =>
      m.textBody.toLowerCase().includes(typedAddress(address)),
    ).length;
  const inquiriesFrom = async (address: string) =>
    (
      await t.database.db
        .select({ n: count() })
        .from(inquiries)
        .where(sql`lower(${inquiries.email}) = ${address}`)
    )[0].n;

  it('sends at most 3 a day to one address, whatever the form and the letter case; later submissions are stored and staff told', async () => {
    const address = 'cap.sender@example.com';
    for (let i = 0; i < 6; i++) {
      const form = FORMS[i % FORMS.length];
      const a = await visitor();
      const res = await a.post(form.path, { ...form.valid, email: i % 2 ? address.toUpperCase() : address });
      expect(res.statusCode, `submission ${i + 1}`).toBe(201);
      expect(res.json().message).toBe(RECEIVED);
    }
    expect(await mailsTo('inquiry.ack', address)).toHaveLength(3);
    expect(await inquiriesFrom(address)).toBe(6);
    expect(await staffNoticesAbout(address)).toBe(6);
    // Another address is not affected.
    const other = await visitor();
    expect(
      (await other.call(inquiryContracts.contact, { body: { ...FORMS[0].valid, email: 'not.capped@example.com' } }))
        .statusCode,
    ).toBe(201);
    expect(await mailsTo('inquiry.ack', 'not.capped@example.com')).toHaveLength(1);
  });

  it('holds across servers: 12 submissions sent at once to one address through two apps on one database get exactly 3', async () => {
    const second = await buildApp(t.config, { database: t.database, logger: false });
    await second.ready();
    try {
      const address = 'burst.sender@example.com';
      const agents = await Promise.all(
        Array.from({ length: 12 }, (_, i) => new Agent(i % 2 ? second : t.app, `10.77.0.${i + 1}`).start()),
      );
      const answers = await Promise.all(
        agents.map((a) => a.call(inquiryContracts.contact, { body: { ...FORMS[0].valid, email: address } })),
      );
      expect(answers.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
      expect(await mailsTo('inquiry.ack', address)).toHaveLength(3);
      expect(await inquiriesFrom(address)).toBe(12);
      expect(await staffNoticesAbout(address)).toBe(12);
    } finally {
      await second.close();
    }
  });

  it('counts per UTC day: the next day an address gets acknowledgements again', async () => {
    const address = 'next.day@example.com';
    const send = async () =>
      (await (await visitor()).post('/contact', { ...FORMS[0].valid, email: address })).statusCode;
    for (let i = 0; i < 4; i++) expect(await send()).toBe(201);
    expect(await mailsTo('inquiry.ack', address)).toHaveLength(3);
    // Yesterday's counter, as the clock would leave it at midnight UTC.
    await t.database.db
      .update(dailyCounters)
      .set({ day: sql`${dailyCounters.day} - 1` })
      .where(eq(dailyCounters.key, `inquiry-ack:${address}`));
    expect(await send()).toBe(201);
    expect(await mailsTo('inquiry.ack', address)).toHaveLength(4);
  });
});

describe('POST /ratings (docs/requirements/product.md tool 10)', () => {
  it('stores a rating and thanks the visitor', async () => {
    const a = await visitor();
    const before = await counts();
    const res = await a.call(createRatingContract, { body: { url: '/pricing', rating: 4, comments: 'Clear prices.' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Thank you, we have received your review!');
    expect(await counts()).toEqual({ ...before, ratings: before.ratings + 1 });
    const [row] = await t.database.db.select().from(ratings).where(eq(ratings.id, res.json().id));
    expect(row).toMatchObject({ url: '/pricing', rating: 4, comments: 'Clear prices.' });
  });

  it('accepts a rating without comments and every value 1 to 5', async () => {
    const a = await visitor();
    for (const rating of [1, 2, 3, 4, 5, '5']) {
      const res = await a.call(createRatingContract, { body: { url: '/privacy', rating } });
      expect(res.statusCode, String(rating)).toBe(201);
    }
  });

  it('answers 422 on rating for 0 (the widget start) and 6', async () => {
    const a = await visitor();
    for (const rating of [0, 6, -1, 2.5]) {
      await expectNothingStored(async () => {
        const res = await a.call(createRatingContract, { body: { url: '/pricing', rating, comments: '' } });
        expect(res.statusCode, String(rating)).toBe(422);
        expect(res.json().errors.rating[0]).toMatch(/^The rating field must be (between 1 and 5|an integer)\.$/);
      });
    }
    const missing = await a.call(createRatingContract, { body: { url: '/pricing' } });
    expect(missing.json().errors.rating[0]).toBe('The rating field is required.');
  });

  it('keys a too-long comment error on comments', async () => {
    const a = await visitor();
    await expectNothingStored(async () => {
      const res = await a.call(createRatingContract, {
        body: { url: '/pricing', rating: 5, comments: 'x'.repeat(2001) },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ comments: ['The comments field must not be greater than 2000 characters.'] });
    });
  });

  it('stores the comments a client sends under their older name, reason', async () => {
    const a = await visitor();
    const res = await a.call(createRatingContract, { body: { url: '/pricing', rating: 3, reason: 'Sent as reason.' } });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(ratings).where(eq(ratings.id, res.json().id));
    expect(row).toMatchObject({ rating: 3, comments: 'Sent as reason.' });
  });

  it('needs the CSRF token', async () => {
    const a = await visitor();
    await expectNothingStored(async () => {
      const res = await a.request('POST', '/ratings', { url: '/pricing', rating: 5 }, {}, false);
      expect(res.statusCode).toBe(419);
    });
  });
});

/**
 * A second app with a small form rate limit and the captcha switched on, verified by the real
 * reCAPTCHA adapter against a local fake of Google's siteverify endpoint.
 */
describe('with captcha and a rate limit configured', () => {
  let guarded: TestApp;
  let fake: http.Server;
  const received: Record<string, string>[] = [];

  beforeAll(async () => {
    fake = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        received.push({
          ...form,
          _path: req.url ?? '',
          _method: req.method ?? '',
          _type: String(req.headers['content-type']),
        });
        const token = form.response;
        if (token === 'hang') return; // never answers: the verifier's timeout must fail closed
        if (token === 'error500') {
          res.writeHead(500).end('oops');
          return;
        }
        if (token === 'not-json') {
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
          return;
        }
        const answer =
          token === 'good'
            ? { success: true, hostname: 'localhost' }
            : token === 'v3-high'
              ? { success: true, score: 0.9, action: 'submit' }
              : token === 'v3-low'
                ? { success: true, score: 0.1, action: 'submit' }
                : { success: false, 'error-codes': ['invalid-input-response'] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const port = (fake.address() as AddressInfo).port;
    guarded = await createTestApp({
      config: {
        captcha: { secret: 's', siteKey: 'k', verifyUrl: `http://127.0.0.1:${port}/siteverify`, minScore: 0.5 },
        rateLimits: { formsPerMinute: 3, loginPerMinute: 1000, searchPerMinute: 1000 },
      },
    });
  });

  afterAll(async () => {
    await guarded?.close();
    fake?.closeAllConnections();
    await new Promise((resolve) => fake?.close(resolve));
  });

  const contact = { ...FORMS[0].valid, email: 'captcha@example.com' };
  const lastReceived = () => received[received.length - 1];

  it('accepts a token the verifier approves, posting secret, response and remoteip as a form', async () => {
    const a = await visitor(guarded);
    const n = received.length;
    const res = await a.call(inquiryContracts.contact, { body: { ...contact, 'g-recaptcha-response': 'good' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(RECEIVED);
    expect(received.length).toBe(n + 1);
    expect(lastReceived()).toMatchObject({
      secret: 's',
      response: 'good',
      remoteip: a.ip,
      _path: '/siteverify',
      _method: 'POST',
      _type: 'application/x-www-form-urlencoded',
    });
  });

  it.each([
    ['a token the verifier rejects', 'bad'],
    ['a v3 score below the minimum', 'v3-low'],
    ['a verifier answering 500', 'error500'],
    ['a verifier answering something that is not JSON', 'not-json'],
  ])('answers 422 on g-recaptcha-response for %s, storing nothing', async (_label, token) => {
    const a = await visitor(guarded);
    const n = received.length;
    await expectNothingStored(async () => {
      const res = await a.call(inquiryContracts.contact, { body: { ...contact, 'g-recaptcha-response': token } });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ 'g-recaptcha-response': [CAPTCHA_FAILED] });
    }, guarded);
    expect(received.length).toBe(n + 1);
    expect(lastReceived()).toMatchObject({ secret: 's', response: token });
  });

  it('accepts a v3 score above the minimum', async () => {
    const a = await visitor(guarded);
    const res = await a.call(inquiryContracts.contact, { body: { ...contact, 'g-recaptcha-response': 'v3-high' } });
    expect(res.statusCode).toBe(201);
  });

  it('fails closed when the verifier never answers', async () => {
    const a = await visitor(guarded);
    const n = received.length;
    await expectNothingStored(async () => {
      const res = await a.call(inquiryContracts.contact, { body: { ...contact, 'g-recaptcha-response': 'hang' } });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors['g-recaptcha-response'][0]).toBe(CAPTCHA_FAILED);
    }, guarded);
    expect(received.length).toBe(n + 1);
  });

  it('answers 422 without asking the verifier when the token is missing, on every public form', async () => {
    const payloads: [string, Record<string, unknown>][] = [
      ...FORMS.map((f) => [f.path, f.valid] as [string, Record<string, unknown>]),
      ['/ratings', { url: '/pricing', rating: 5 }],
      ['/password/forgot', { email: 'nobody@example.com' }],
      [
        '/password/reset',
        { token: 'x', email: 'nobody@example.com', password: 'abcdefg1', password_confirmation: 'abcdefg1' },
      ],
    ];
    const n = received.length;
    for (const [path, payload] of payloads) {
      const a = await visitor(guarded);
      await expectNothingStored(async () => {
        for (const token of [undefined, '']) {
          const res = await a.post(path, token === undefined ? payload : { ...payload, 'g-recaptcha-response': token });
          expect(res.statusCode, path).toBe(422);
          expect(res.json().errors['g-recaptcha-response'], path).toEqual([CAPTCHA_FAILED]);
        }
      }, guarded);
    }
    expect(received.length).toBe(n);
  });

  it('protects every public form with the verifier', async () => {
    for (const form of FORMS) {
      const a = await visitor(guarded);
      expect((await a.post(form.path, { ...form.valid, 'g-recaptcha-response': 'bad' })).statusCode, form.path).toBe(
        422,
      );
      expect((await a.post(form.path, { ...form.valid, 'g-recaptcha-response': 'good' })).statusCode, form.path).toBe(
        201,
      );
    }
    const a = await visitor(guarded);
    expect(
      (await a.call(createRatingContract, { body: { url: '/pricing', rating: 5, 'g-recaptcha-response': 'bad' } }))
        .statusCode,
    ).toBe(422);
    expect(
      (await a.call(createRatingContract, { body: { url: '/pricing', rating: 5, 'g-recaptcha-response': 'good' } }))
        .statusCode,
    ).toBe(201);
  });

  it('protects the bylaws generator, its first Generate and later ones', async () => {
    for (const [path, answers] of [
      ['/bylaws-generator', BYLAW_ANSWERS.standard],
      ['/bylaws-generator/school', BYLAW_ANSWERS.school],
      ['/bylaws-generator/short', BYLAW_ANSWERS.short],
    ] as const) {
      const a = await visitor(guarded);
      const refused = await a.post(path, answers);
      expect(refused.statusCode, path).toBe(422);
      expect(refused.json().errors['g-recaptcha-response'], path).toEqual([CAPTCHA_FAILED]);
      expect((await a.post(path, { ...answers, 'g-recaptcha-response': 'bad' })).statusCode, path).toBe(422);
      expect((await a.post(path, { ...answers, 'g-recaptcha-response': 'good' })).statusCode, path).toBe(201);
    }
    const a = await visitor(guarded);
    const created = (
      await a.call(bylawContracts.createShort, { body: { ...BYLAW_ANSWERS.short, 'g-recaptcha-response': 'good' } })
    ).json();
    expect((await a.put(created.action, { ...BYLAW_ANSWERS.short, 'g-recaptcha-response': 'bad' })).statusCode).toBe(
      422,
    );
    expect((await a.put(created.action, { ...BYLAW_ANSWERS.short, 'g-recaptcha-response': 'good' })).statusCode).toBe(
      200,
    );
  });

  it('gives the site key to the page and allows the captcha script in the CSP', async () => {
    const a = await visitor(guarded);
    const res = await a.request('GET', '/contact', undefined, { accept: 'text/html' });
    expect(res.statusCode).toBe(200);
    const boot = JSON.parse(/<script type="application\/json" id="boot-data">(.*?)<\/script>/s.exec(res.body)![1]);
    expect(boot.captchaSiteKey).toBe('k');
    expect(String(res.headers['content-security-policy'])).toContain('https://www.google.com/recaptcha/');
  });

  it('answers 429 after the configured number of submissions a minute, per address', async () => {
    const a = await visitor(guarded);
    const before = await counts(guarded);
    for (let i = 0; i < 3; i++) {
      // Distinct senders, so the acknowledgements' own daily cap stays out of the count.
      const res = await a.call(inquiryContracts.contact, {
        body: {
          ...contact,
          email: `rate.limit${i}@example.com`,
          'g-recaptcha-response': 'good',
        },
      });
      expect(res.statusCode, `submission ${i + 1}`).toBe(201);
    }
    const limited = await a.call(inquiryContracts.contact, { body: { ...contact, 'g-recaptcha-response': 'good' } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many requests\./);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const after = await counts(guarded);
    expect(after.inquiries - before.inquiries).toBe(3);
    expect(after.mails - before.mails).toBe(6);

    // Invalid submissions count too, and the limit holds for them.
    const invalid = await a.call(inquiryContracts.contact);
    expect(invalid.statusCode).toBe(429);

    // Another address is not affected.
    const b = await visitor(guarded);
    expect(
      (await b.call(inquiryContracts.contact, { body: { ...contact, 'g-recaptcha-response': 'good' } })).statusCode,
    ).toBe(201);
  });
});
