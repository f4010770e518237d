import { describe, expect, it } from 'vitest';
import { CONTACT_SUBJECTS } from '../lists/subjects.ts';
import { toFieldErrors } from '../validation.ts';
import {
  campusReportSchema,
  complianceCheckSchema,
  contactSchema,
  einField,
  genField,
  loginSchema,
  multiChapterSchema,
  newPassword,
  passwordForgotSchema,
  passwordResetSchema,
  PASSWORD_MIN_LENGTH,
  ratingSchema,
  REGION_OPTIONS,
} from './public-forms.ts';
import type { z } from 'zod';

function errorsOf(schema: z.ZodType, input: unknown) {
  const r = schema.safeParse(input);
  return r.success ? {} : toFieldErrors(r.error);
}
function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new Error(JSON.stringify(toFieldErrors(r.error)));
  return r.data;
}

const contact = {
  name: 'Ann Lee',
  email: 'ann@example.com',
  organization: 'Lincoln Boosters',
  subject: 'Membership',
  message: 'Hello there',
};
const compliance = {
  name: 'Ann Lee',
  email: 'ann@example.com',
  phone: '(307) 555-0101',
  organization: 'Lincoln Boosters',
  ein: '12-3456789',
  group_id: '5271',
};
const multi = {
  name: 'Ann Lee',
  email: 'ann@example.com',
  phone: '307-555-0101',
  organization: 'Alpha Beta',
  affiliates: '40',
  regions: 'nationwide',
  concerns: '990s',
};
const campus = { email: 'ann@example.com', organization: 'University of Wyoming' };

describe('einField: 9 digits with or without the dash', () => {
  const ein = einField();
  it('normalises to 9 digits', () => {
    expect(parse(ein, '12-3456789')).toBe('123456789');
    expect(parse(ein, '123456789')).toBe('123456789');
    expect(parse(ein, ' 01-2345678 ')).toBe('012345678');
  });
  it('strips NUL bytes and reads numbers', () => {
    expect(parse(ein, '12-3456789\u0000')).toBe('123456789');
    expect(parse(ein, 123456789)).toBe('123456789');
    expect(errorsOf(ein, '\u0000')).toEqual({ _: ['The EIN field is required.'] });
  });
  it('is required by default', () => {
    expect(errorsOf(ein, '')).toEqual({ _: ['The EIN field is required.'] });
    expect(errorsOf(ein, undefined)).toEqual({ _: ['The EIN field is required.'] });
  });
  it('refuses anything else', () => {
    for (const v of [
      '12345678',
      '1234567890',
      '123-456789',
      '12-34567-89',
      'ab-cdefghi',
      '12 3456789',
      '12--3456789',
    ]) {
      expect(errorsOf(ein, v), v).toEqual({ _: ['The EIN must be 9 digits, like 12-3456789.'] });
    }
  });
  it('can be optional', () => {
    expect(parse(einField('EIN', false), '')).toBe('');
  });
});

describe('genField: optional 4 digits', () => {
  const gen = genField();
  it('accepts 4 digits or nothing', () => {
    expect(parse(gen, '5271')).toBe('5271');
    expect(parse(gen, ' 0928 ')).toBe('0928');
    expect(parse(gen, '')).toBe('');
    expect(parse(gen, undefined)).toBe('');
    expect(parse(gen, '5271\u0000')).toBe('5271');
    expect(parse(gen, 5271)).toBe('5271');
  });
  it('refuses other values', () => {
    for (const v of ['527', '52711', 'abcd', '52-71', {}, true]) {
      expect(errorsOf(gen, v), JSON.stringify(v)).toEqual({ _: ['The group exemption number must be 4 digits.'] });
    }
  });
});

describe('contactSchema (docs/requirements/entities.md Contact)', () => {
  it('accepts a full message and drops unknown fields', () => {
    expect(parse(contactSchema, { ...contact, is_admin: true, id: 9 })).toEqual(contact);
  });
  it('accepts every subject of the list', () => {
    expect(CONTACT_SUBJECTS).toEqual(['General question', 'Membership', 'State registration', '990 help', 'Renewals']);
    for (const subject of CONTACT_SUBJECTS) expect(parse(contactSchema, { ...contact, subject }).subject).toBe(subject);
  });
  it('refuses an unknown subject', () => {
    expect(errorsOf(contactSchema, { ...contact, subject: 'Other' })).toEqual({
      subject: ['The selected subject is invalid.'],
    });
  });
  it.each([
    ['name', 'The name field is required.'],
    ['email', 'The email field is required.'],
    ['subject', 'The subject field is required.'],
    ['message', 'The message field is required.'],
  ])('requires %s', (field, message) => {
    const { [field]: _omitted, ...input } = contact as Record<string, unknown>;
    expect(errorsOf(contactSchema, input)).toEqual({ [field]: [message] });
  });
  it('organization is optional', () => {
    const { organization: _o, ...rest } = contact;
    expect(parse(contactSchema, rest).organization).toBe('');
  });
  it('strips NUL bytes and trims', () => {
    const out = parse(contactSchema, { ...contact, name: ' Ann\u0000 Lee ', message: 'Hel\u0000lo\nthere' });
    expect(out.name).toBe('Ann Lee');
    expect(out.message).toBe('Hello\nthere');
  });
  it('limits the message to 5000 characters', () => {
    expect(errorsOf(contactSchema, { ...contact, message: 'x'.repeat(5001) })).toEqual({
      message: ['The message field must not be greater than 5000 characters.'],
    });
  });
  it('gives one message per invalid field, all at once', () => {
    expect(errorsOf(contactSchema, {})).toEqual({
      name: ['The name field is required.'],
      email: ['The email field is required.'],
      subject: ['The subject field is required.'],
      message: ['The message field is required.'],
    });
  });
});

describe('complianceCheckSchema (docs/requirements/entities.md Compliance check)', () => {
  it('normalises the EIN and keeps the GEN', () => {
    expect(parse(complianceCheckSchema, compliance)).toEqual({ ...compliance, ein: '123456789' });
    expect(parse(complianceCheckSchema, { ...compliance, ein: '123456789', group_id: '' })).toMatchObject({
      ein: '123456789',
      group_id: '',
    });
  });
  it.each([
    ['name', 'The name field is required.'],
    ['email', 'The email field is required.'],
    ['phone', 'The phone field is required.'],
    ['organization', 'The organization field is required.'],
    ['ein', 'The EIN field is required.'],
  ])('requires %s', (field, message) => {
    const { [field]: _omitted, ...input } = compliance as Record<string, unknown>;
    expect(errorsOf(complianceCheckSchema, input)).toEqual({ [field]: [message] });
  });
  it('checks the phone format', () => {
    for (const phone of ['abc', '12345', 'call me maybe']) {
      expect(errorsOf(complianceCheckSchema, { ...compliance, phone }), phone).toEqual({
        phone: ['The phone field format is invalid.'],
      });
    }
    for (const phone of ['+1 307 555 0101', '307.555.0101', '(307) 555-0101']) {
      expect(errorsOf(complianceCheckSchema, { ...compliance, phone }), phone).toEqual({});
    }
  });
  it('checks the GEN', () => {
    expect(errorsOf(complianceCheckSchema, { ...compliance, group_id: '12' })).toEqual({
      group_id: ['The group exemption number must be 4 digits.'],
    });
  });
});

describe('multiChapterSchema (docs/requirements/entities.md Multi-chapter)', () => {
  it('parses the affiliates count and the region', () => {
    expect(parse(multiChapterSchema, multi)).toEqual({ ...multi, affiliates: 40 });
    expect(REGION_OPTIONS).toEqual(['nationwide', 'regional']);
  });
  it.each([
    ['name', 'The name field is required.'],
    ['email', 'The email field is required.'],
    ['phone', 'The phone field is required.'],
    ['organization', 'The organization field is required.'],
    ['affiliates', 'The number of affiliates field is required.'],
    ['regions', 'The regions field is required.'],
  ])('requires %s', (field, message) => {
    const { [field]: _omitted, ...input } = multi as Record<string, unknown>;
    expect(errorsOf(multiChapterSchema, input)).toEqual({ [field]: [message] });
  });
  it('checks affiliates and regions', () => {
    expect(errorsOf(multiChapterSchema, { ...multi, affiliates: '0' })).toEqual({
      affiliates: ['The number of affiliates field must be between 1 and 100000.'],
    });
    expect(errorsOf(multiChapterSchema, { ...multi, affiliates: 'many' })).toEqual({
      affiliates: ['The number of affiliates field must be an integer.'],
    });
    expect(errorsOf(multiChapterSchema, { ...multi, regions: 'everywhere' })).toEqual({
      regions: ['The selected regions is invalid.'],
    });
  });
  it('concerns are optional', () => {
    const { concerns: _c, ...rest } = multi;
    expect(parse(multiChapterSchema, rest).concerns).toBe('');
  });
});

describe('campusReportSchema (docs/requirements/entities.md Campus collector)', () => {
  it('takes the campus as organization', () => {
    expect(parse(campusReportSchema, campus)).toEqual(campus);
  });
  it('requires email and campus', () => {
    expect(errorsOf(campusReportSchema, {})).toEqual({
      email: ['The email field is required.'],
      organization: ['The campus field is required.'],
    });
  });
});

describe('ratingSchema (docs/requirements/entities.md Rating)', () => {
  const rating = { url: '/pricing', rating: 5, comments: 'Clear and useful' };
  it('accepts ratings 1 to 5', () => {
    for (const r of [1, 2, 3, 4, 5, '3']) expect(parse(ratingSchema, { ...rating, rating: r }).rating).toBe(Number(r));
  });
  it('refuses 0 (the widget start value) and 6', () => {
    expect(errorsOf(ratingSchema, { ...rating, rating: 0 })).toEqual({
      rating: ['The rating field must be between 1 and 5.'],
    });
    expect(errorsOf(ratingSchema, { ...rating, rating: 6 })).toEqual({
      rating: ['The rating field must be between 1 and 5.'],
    });
  });
  it('keys comment errors on comments', () => {
    expect(errorsOf(ratingSchema, { ...rating, comments: 'x'.repeat(2001) })).toEqual({
      comments: ['The comments field must not be greater than 2000 characters.'],
    });
    expect(parse(ratingSchema, { url: '/pricing', rating: 4 }).comments).toBe('');
  });
  it('needs a site-relative url', () => {
    expect(errorsOf(ratingSchema, { ...rating, url: 'https://evil.example/' })).toEqual({
      url: ['The page address field format is invalid.'],
    });
    expect(errorsOf(ratingSchema, { ...rating, url: '' }).url?.[0]).toBe('The page address field is required.');
  });
});

describe('loginSchema and passwordForgotSchema', () => {
  it('lower-cases the email', () => {
    expect(parse(loginSchema, { email: 'ANN@Example.com', password: 'x' })).toEqual({
      email: 'ann@example.com',
      password: 'x',
    });
    expect(parse(passwordForgotSchema, { email: 'ANN@Example.com' })).toEqual({ email: 'ann@example.com' });
  });
  it('requires both fields', () => {
    expect(errorsOf(loginSchema, {})).toEqual({
      email: ['The email field is required.'],
      password: ['The password field is required.'],
    });
  });
});

describe('newPassword and passwordResetSchema (docs/requirements/entities.md Password reset)', () => {
  const reset = { token: 'abc', email: 'ann@example.com', password: 'newpass123', password_confirmation: 'newpass123' };

  it('needs at least 8 characters with letters and numbers', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(errorsOf(newPassword(), 'abc123')._?.[0]).toBe('The password field must be at least 8 characters.');
    expect(errorsOf(newPassword(), 'abcdefgh')).toEqual({
      _: ['The password field must contain at least one letter and one number.'],
    });
    expect(errorsOf(newPassword(), '12345678')).toEqual({
      _: ['The password field must contain at least one letter and one number.'],
    });
    expect(errorsOf(newPassword(), 'abcdefg1')).toEqual({});
  });

  it('accepts a matching confirmation', () => {
    expect(parse(passwordResetSchema, { ...reset, extra: 1 })).toEqual(reset);
  });

  it('puts a mismatched confirmation on password', () => {
    expect(errorsOf(passwordResetSchema, { ...reset, password_confirmation: 'newpass124' })).toEqual({
      password: ['The password field confirmation does not match.'],
    });
    expect(errorsOf(passwordResetSchema, { ...reset, password_confirmation: undefined })).toEqual({
      password: ['The password field confirmation does not match.'],
    });
  });

  it('requires token, email and password', () => {
    expect(errorsOf(passwordResetSchema, { password_confirmation: '' })).toMatchObject({
      token: ['The token field is required.'],
      email: ['The email field is required.'],
      password: expect.arrayContaining(['The password field is required.']),
    });
    expect(errorsOf(passwordResetSchema, {}).password?.[0]).toBe('The password field is required.');
  });
});
