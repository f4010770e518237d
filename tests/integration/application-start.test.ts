import { createHash } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, levels, mailOutbox, users } from '../../src/server/db/schema.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { siteContracts } from '../../src/shared/contracts/site.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let startUpId: number;
let maintainId: number;
beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.database.db.select({ id: levels.id, slug: levels.slug }).from(levels);
  startUpId = rows.find((l) => l.slug === 'start-up')!.id;
  maintainId = rows.find((l) => l.slug === 'maintain')!.id;
});
afterAll(async () => {
  await t.close();
});

const rowsOf = async (email: string) =>
  t.database.db
    .select()
    .from(applications)
    .innerJoin(users, eq(users.id, applications.userId))
    .where(eq(users.email, email));

describe('POST /application/start (docs/requirements/product.md tool 1)', () => {
  it('creates the user and a draft application, signs the applicant in and mails the resume link', async () => {
    const a = await new Agent(t.app).start();
    const res = await a.call(applicationWizardContracts.start, {
      body: {
        email: 'New.Parent@Example.com',
        password: 'Booster-club-2026',
        level_id: startUpId,
        schema: '{"ignored":true}',
      },
    });
    expect(res.statusCode).toBe(201);
    const { token, csrfToken } = res.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const [row] = await rowsOf('new.parent@example.com');
    // Only the token's sha256 is kept: whoever reads the database cannot build the link.
    expect(row.applications).toMatchObject({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      levelId: startUpId,
      type: 'start-up',
      status: 'draft',
      page: 1,
      fields: {},
    });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.users.isAdmin).toBe(false);
    const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'application.started'));
    expect(mail.toAddress).toBe('new.parent@example.com');
    expect(mail.textBody).toContain(`/application/create/${token}`);
    expect(mail.carriesToken).toBe(true);
    a.csrfToken = csrfToken;
    const session = await a.call(siteContracts.session);
    expect(session.json().user.email).toBe('new.parent@example.com');
  });

  it('starts a maintain application for the maintain level', async () => {
    const a = await new Agent(t.app).start();
    expect(
      (
        await a.call(applicationWizardContracts.start, {
          body: {
            email: 'keep@example.com',
            password: 'Keep-exempt-99',
            level_id: maintainId,
          },
        })
      ).statusCode,
    ).toBe(201);
    expect((await rowsOf('keep@example.com'))[0].applications.type).toBe('maintain');
  });

  it('refuses bad input field by field and writes nothing', async () => {
    const a = await new Agent(t.app).start();
    const before = (await t.database.db.select({ n: count() }).from(users))[0].n;
    const res = await a.call(applicationWizardContracts.start, {
      body: { email: 'not-an-email', password: 'short', level_id: 'x' },
    });
    expect(res.statusCode).toBe(422);
    const firstOf = Object.fromEntries(
      Object.entries(res.json().errors as Record<string, string[]>).map(([k, v]) => [k, v[0]]),
    );
    expect(firstOf).toEqual({
      email: 'The email field must be a valid email address.',
      password: 'The password field must be at least 8 characters.',
      level_id: 'The level field must be an integer.',
    });
    const unknownLevel = await a.call(applicationWizardContracts.start, {
      body: {
        email: 'x@example.com',
        password: 'Valid-pass-123',
        level_id: 999999,
      },
    });
    expect(unknownLevel.statusCode).toBe(422);
    expect(unknownLevel.json().errors.level_id).toEqual(['The selected level is invalid.']);
    expect((await t.database.db.select({ n: count() }).from(users))[0].n).toBe(before);
  });

  it('says so when the e-mail already has an account, and leaves that account alone', async () => {
    const a = await new Agent(t.app).start();
    const res = await a.call(applicationWizardContracts.start, {
      body: {
        email: 'keep@example.com',
        password: 'Another-pass-1',
        level_id: startUpId,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toEqual(['An account already uses this e-mail address. Please sign in instead.']);
    expect(await rowsOf('keep@example.com')).toHaveLength(1);
  });

  it('needs the CSRF token', async () => {
    const a = await new Agent(t.app).start();
    const res = await a.request(
      'POST',
      '/application/start',
      { email: 'csrf@example.com', password: 'Valid-pass-123', level_id: startUpId },
      {},
      false,
    );
    expect(res.statusCode).toBe(419);
    expect(await rowsOf('csrf@example.com')).toHaveLength(0);
  });
});
