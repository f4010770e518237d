import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, passwordResets, users } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { HttpError } from '../../src/server/errors.ts';
import { createStaffUser, STAFF_LINK_HOURS } from '../../src/server/modules/admin/create-staff-user.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { siteContracts } from '../../src/shared/contracts/site.ts';
import { staffUserSchema } from '../../src/shared/schemas/staff-user.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The staff user `npm run admin:create` makes (docs/deploy.md "Production settings"): created (or
 * found) with a password nobody knows, and a one-time link, valid 24 hours, that sets it through
 * the password reset page. tests/integration/production-start.test.ts runs the command itself.
 */

const PUBLIC_URL = 'https://goodstanding.example';
const INVALID = 'This password reset link is invalid or has expired. Please ask for a new one.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const input = (email: string, first = '', last = '') =>
  staffUserSchema.parse({ email, first_name: first, last_name: last });
const tokenOf = (link: string) => new URL(link).pathname.split('/').pop()!;

/** Sets the password through POST /password/reset as the page sends it. */
async function setPassword(link: string, password: string) {
  const url = new URL(link);
  const a = await new Agent(t.app).start();
  return a.call(signInContracts.resetPassword, {
    body: {
      token: tokenOf(link),
      email: url.searchParams.get('email'),
      password,
      password_confirmation: password,
    },
  });
}

describe('createStaffUser', () => {
  it('creates a staff user who cannot sign in until the link sets a password, once', async () => {
    const now = new Date();
    const staff = await createStaffUser(
      t.database.db,
      input('First.Staff@Example.org', 'Avery', 'Admin'),
      PUBLIC_URL,
      now,
    );
    expect(staff.created).toBe(true);
    expect(staff.link).toMatch(
      /^https:\/\/goodstanding\.example\/password\/reset\/[A-Za-z0-9_-]{22}\?email=first\.staff%40example\.org$/,
    );
    expect(staff.expiresAt.getTime() - now.getTime()).toBe(STAFF_LINK_HOURS * 3_600_000);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, staff.userId));
    expect(row).toMatchObject({
      email: 'first.staff@example.org',
      firstName: 'Avery',
      lastName: 'Admin',
      isAdmin: true,
      accountId: null,
    });
    // Only the token's hash is kept.
    const [reset] = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, staff.userId));
    expect(reset.tokenHash).not.toContain(tokenOf(staff.link));
    expect(reset.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    // No password works before the link is used.
    const before = await new Agent(t.app).start();
    expect((await before.login('first.staff@example.org', '')).statusCode).toBe(422);
    expect((await before.login('first.staff@example.org', 'Guessed-pass-123')).statusCode).toBe(422);

    const set = await setPassword(staff.link, 'Staff-chosen-pass-1');
    expect(set.statusCode, set.body).toBe(200);
    // Choosing the first password is not a change to warn about: no "password was changed" mail.
    expect(set.json()).toEqual({ url: '/admin', message: 'Your password is set. Welcome!' });
    expect(
      await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'first.staff@example.org')),
    ).toEqual([]);
    const signedIn = await new Agent(t.app).start();
    expect((await signedIn.login('first.staff@example.org', 'Staff-chosen-pass-1')).statusCode).toBe(200);
    expect((await signedIn.call(siteContracts.session)).json().user).toMatchObject({
      email: 'first.staff@example.org',
      isAdmin: true,
    });

    // Once.
    const again = await setPassword(staff.link, 'Another-pass-22');
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.email).toEqual([INVALID]);

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'staff.created'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: null, details: { userId: staff.userId, via: 'admin:create' } });
    expect(JSON.stringify(audit)).not.toContain(tokenOf(staff.link));
  });

  it('finds an existing staff user, leaves its password and name alone, and gives a new link', async () => {
    const existing = await createUser(t.database.db, {
      email: 'kept.staff@example.org',
      password: 'Kept-staff-pass-1',
      isAdmin: true,
      firstName: 'Kim',
    });
    const staff = await createStaffUser(t.database.db, input('kept.staff@example.org', 'Other'), PUBLIC_URL);
    expect(staff).toMatchObject({ userId: existing.id, created: false });
    expect(
      (await t.database.db.select({ firstName: users.firstName }).from(users).where(eq(users.id, existing.id)))[0]
        .firstName,
    ).toBe('Kim');
    const signedIn = await new Agent(t.app).start();
    expect((await signedIn.login('kept.staff@example.org', 'Kept-staff-pass-1')).statusCode).toBe(200);
    const reset = await setPassword(staff.link, 'Kept-staff-pass-2');
    expect(reset.json()).toMatchObject({ message: 'Your password has been reset.' });
    // An existing staff member's password did change: they are told, at their address.
    expect(
      await t.database.db
        .select({ kind: mailOutbox.kind })
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, 'kept.staff@example.org')),
    ).toEqual([{ kind: 'password.changed' }]);
    expect(
      await t.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'staff.set_password_link')),
    ).toEqual([{ n: 1 }]);
  });

  it("refuses an account user's e-mail with a readable message and writes nothing", async () => {
    const accountId = (await createAccount(t.database.db, { name: 'Not Staff Boosters' })).id;
    const holder = await createUser(t.database.db, {
      email: 'holder.not.staff@example.org',
      password: 'Holder-pass-123',
      accountId,
    });
    const resetsBefore = (await t.database.db.select({ n: count() }).from(passwordResets))[0].n;
    const auditBefore = (await t.database.db.select({ n: count() }).from(auditLog))[0].n;
    const refused = createStaffUser(t.database.db, input('holder.not.staff@example.org'), PUBLIC_URL);
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    await expect(refused).rejects.toThrow(
      'holder.not.staff@example.org is a user of an account, not staff: choose another e-mail address for the staff user.',
    );
    expect(
      (await t.database.db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, holder.id)))[0].isAdmin,
    ).toBe(false);
    expect((await t.database.db.select({ n: count() }).from(passwordResets))[0].n).toBe(resetsBefore);
    expect((await t.database.db.select({ n: count() }).from(auditLog))[0].n).toBe(auditBefore);
  });

  it('takes the e-mail and names as the command passes them', () => {
    expect(staffUserSchema.safeParse({ email: undefined }).error?.issues[0].message).toBe(
      'The email field is required.',
    );
    expect(staffUserSchema.safeParse({ email: 'not-an-address' }).error?.issues[0].message).toBe(
      'The email field must be a valid email address.',
    );
    expect(staffUserSchema.parse({ email: ' Pat@Example.ORG ', first_name: undefined })).toEqual({
      email: 'pat@example.org',
      first_name: '',
      last_name: '',
    });
  });
});
