import { describe, expect, it } from 'vitest';
import { toFieldErrors } from '../field-errors.ts';
import {
  ACCOUNT_USER_TEXT,
  accountUserStoreSchema,
  accountUserUpdateSchema,
  changesNeedingCurrentPassword,
  withCurrentPasswordRule,
} from './account-users.ts';

const member = { email: 'milo@example.com', is_primary: false };
const primary = { email: 'paula@example.com', is_primary: true };
const profile = {
  email: 'milo@example.com',
  first_name: 'Milo',
  last_name: 'Member',
  password: '',
  password_confirmation: '',
};

describe('changesNeedingCurrentPassword (docs/roles.md "Passwords")', () => {
  it('names a new e-mail address (compared trimmed and lower case), a new password and a primary transfer', () => {
    expect(changesNeedingCurrentPassword(member, { email: ' MILO@example.com ', password: '' })).toEqual([]);
    expect(changesNeedingCurrentPassword(member, { email: 'milton@example.com', password: '' })).toEqual(['email']);
    expect(changesNeedingCurrentPassword(member, { email: 'milo@example.com', password: 'New-pass-2027' })).toEqual([
      'password',
    ]);
    expect(
      changesNeedingCurrentPassword(member, { email: 'milo@example.com', password: '', is_primary: true }),
    ).toEqual(['is_primary']);
    expect(changesNeedingCurrentPassword(member, { email: 'm@example.com', password: 'x', is_primary: true })).toEqual([
      'email',
      'password',
      'is_primary',
    ]);
  });
  it("does not count keeping the primary user primary, or a new user's own e-mail and password", () => {
    expect(
      changesNeedingCurrentPassword(primary, { email: 'paula@example.com', password: '', is_primary: true }),
    ).toEqual([]);
    expect(
      changesNeedingCurrentPassword(null, { email: 'new@example.com', password: 'New-pass-2027', is_primary: false }),
    ).toEqual([]);
    expect(
      changesNeedingCurrentPassword(null, { email: 'new@example.com', password: 'New-pass-2027', is_primary: true }),
    ).toEqual(['is_primary']);
  });
});

describe("withCurrentPasswordRule: the page's check before sending", () => {
  const errorsOf = (r: { success: boolean; error?: { issues: never[] } }) => (r.success ? {} : toFieldErrors(r.error!));
  it('asks for the current password when a change needs it and the viewer must confirm', () => {
    const schema = withCurrentPasswordRule(accountUserUpdateSchema, member, true);
    expect(errorsOf(schema.safeParse({ ...profile, email: 'milton@example.com' }) as never)).toEqual({
      current_password: [ACCOUNT_USER_TEXT.currentPasswordRequired],
    });
    expect(
      schema.safeParse({ ...profile, email: 'milton@example.com', current_password: 'Member-pass-1' }).success,
    ).toBe(true);
    expect(schema.safeParse({ ...profile, first_name: 'Milton' }).success).toBe(true);
  });
  it('asks nothing of staff acting on behalf', () => {
    expect(
      withCurrentPasswordRule(accountUserUpdateSchema, member, false).safeParse({
        ...profile,
        email: 'milton@example.com',
      }).success,
    ).toBe(true);
  });
  it('asks for it when a new user is made primary', () => {
    const schema = withCurrentPasswordRule(accountUserStoreSchema, null, true);
    const newUser = {
      ...profile,
      email: 'new@example.com',
      password: 'New-pass-2027',
      password_confirmation: 'New-pass-2027',
    };
    expect(schema.safeParse(newUser).success).toBe(true);
    expect(errorsOf(schema.safeParse({ ...newUser, is_primary: 1 }) as never)).toEqual({
      current_password: [ACCOUNT_USER_TEXT.currentPasswordRequired],
    });
  });
  it("keeps current_password in the parsed payload (trimmed, as the sign-in form's password is; '' when absent)", () => {
    expect(accountUserUpdateSchema.parse({ ...profile, current_password: ' abc ' }).current_password).toBe('abc');
    expect(accountUserUpdateSchema.parse(profile).current_password).toBe('');
  });
});
