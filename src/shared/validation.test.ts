import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  captchaField,
  checkText,
  dropRefusedControls,
  errorsClearedBy,
  hasRefusedControl,
  msg,
  optionalText,
  requiredChoice,
  requiredEmail,
  requiredInt,
  requiredIsoDate,
  requiredText,
  stripControl,
  toFieldErrors,
} from './validation.ts';

/** Parses and returns either the value or the first message of the first issue. */
function run<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; value: z.output<S> } | { ok: false; message: string } {
  const r = schema.safeParse(input);
  return r.success ? { ok: true, value: r.data } : { ok: false, message: r.error.issues[0].message };
}

describe('msg: server-style messages (docs/requirements/platform.md §3)', () => {
  it('reads like the catalogue', () => {
    expect(msg.required('email')).toBe('The email field is required.');
    expect(msg.email('email')).toBe('The email field must be a valid email address.');
    expect(msg.max('name', 255)).toBe('The name field must not be greater than 255 characters.');
    expect(msg.min('password', 8)).toBe('The password field must be at least 8 characters.');
    expect(msg.between('rating', 1, 5)).toBe('The rating field must be between 1 and 5.');
    expect(msg.in('subject')).toBe('The selected subject is invalid.');
    expect(msg.confirmed('password')).toBe('The password field confirmation does not match.');
    expect(msg.integer('affiliates')).toBe('The affiliates field must be an integer.');
    expect(msg.format('phone')).toBe('The phone field format is invalid.');
    expect(msg.singleLine('first name')).toBe('The first name field must be a single line without control characters.');
    expect(msg.noControl('message')).toBe('The message field must not contain control characters.');
  });
});

describe('stripControl', () => {
  it('removes NUL and other C0 controls and DEL, keeps tab and newlines', () => {
    expect(stripControl('a\u0000b')).toBe('ab');
    expect(stripControl('\u0001\u0007\u0008x\u000B\u000C\u000E\u001F\u007F')).toBe('x');
    expect(stripControl('line1\nline2\r\n\tend')).toBe('line1\nline2\r\n\tend');
    expect(stripControl('héllo – 🎉')).toBe('héllo – 🎉');
  });

  it('replaces lone UTF-16 surrogates, which no database text or JSON column can hold', () => {
    expect(stripControl('a\uD800b')).toBe('a\uFFFDb');
    expect(stripControl('a\uDC00')).toBe('a\uFFFD');
    expect(stripControl('ok \uD83C\uDF89')).toBe('ok 🎉');
  });
});

describe('requiredText', () => {
  const name = requiredText({ label: 'name' });

  it('trims and strips control characters', () => {
    expect(run(name, '  Ann \u0000Lee  ')).toEqual({ ok: true, value: 'Ann Lee' });
  });

  it('is required when missing, null, empty, blank or only NUL bytes', () => {
    for (const v of [undefined, null, '', '   ', '\u0000\u0000']) {
      expect(run(name, v), JSON.stringify(v)).toEqual({ ok: false, message: 'The name field is required.' });
    }
  });

  it('accepts numbers as text', () => {
    expect(run(name, 42)).toEqual({ ok: true, value: '42' });
  });

  it('refuses other types with a readable message', () => {
    expect(run(name, { a: 1 })).toMatchObject({ ok: false });
    expect(run(name, ['x'])).toMatchObject({ ok: false });
  });

  it('limits the length, 255 by default', () => {
    expect(run(name, 'x'.repeat(255))).toMatchObject({ ok: true });
    expect(run(name, 'x'.repeat(256))).toEqual({
      ok: false,
      message: 'The name field must not be greater than 255 characters.',
    });
    expect(run(requiredText({ label: 'message', max: 5000 }), 'x'.repeat(1_000_000))).toEqual({
      ok: false,
      message: 'The message field must not be greater than 5000 characters.',
    });
  });

  it('checks a minimum when given', () => {
    const s = requiredText({ label: 'code', min: 3 });
    expect(run(s, 'ab')).toEqual({ ok: false, message: 'The code field must be at least 3 characters.' });
    expect(run(s, 'abc')).toMatchObject({ ok: true });
  });
});

describe('optionalText', () => {
  const s = optionalText({ label: 'organization' });
  it('turns missing into an empty string', () => {
    expect(run(s, undefined)).toEqual({ ok: true, value: '' });
    expect(run(s, null)).toEqual({ ok: true, value: '' });
    expect(run(s, ' \u0000 ')).toEqual({ ok: true, value: '' });
  });
  it('limits the length', () => {
    expect(run(s, 'x'.repeat(256))).toEqual({
      ok: false,
      message: 'The organization field must not be greater than 255 characters.',
    });
  });
  it('refuses objects with the string message', () => {
    expect(run(s, { x: 1 })).toEqual({ ok: false, message: 'The organization field must be a string.' });
  });
});

describe('requiredEmail', () => {
  const email = requiredEmail();
  it('lower-cases and trims', () => {
    expect(run(email, '  Ann.Lee@Example.COM ')).toEqual({ ok: true, value: 'ann.lee@example.com' });
  });
  it('strips NUL bytes before checking', () => {
    expect(run(email, 'ann\u0000@example.com')).toEqual({ ok: true, value: 'ann@example.com' });
  });
  it('is required', () => {
    expect(run(email, undefined)).toEqual({ ok: false, message: 'The email field is required.' });
    expect(run(email, '')).toEqual({ ok: false, message: 'The email field is required.' });
  });
  it('must be an address', () => {
    for (const v of ['ann', 'ann@', '@example.com', 'ann@example', 'a b@example.com', 'ann@@example.com']) {
      expect(run(email, v), v).toEqual({ ok: false, message: 'The email field must be a valid email address.' });
    }
  });
  it('limits the length to 255', () => {
    const long = `${'a'.repeat(250)}@example.com`;
    expect(run(email, long)).toEqual({
      ok: false,
      message: 'The email field must not be greater than 255 characters.',
    });
  });
  it('uses the given label', () => {
    expect(run(requiredEmail('e-mail address'), '')).toEqual({
      ok: false,
      message: 'The e-mail address field is required.',
    });
  });
});

describe('requiredChoice', () => {
  const s = requiredChoice('regions', ['nationwide', 'regional'] as const);
  it('accepts one of the values', () => {
    expect(run(s, 'regional')).toEqual({ ok: true, value: 'regional' });
    expect(run(s, ' nationwide\u0000')).toEqual({ ok: true, value: 'nationwide' });
  });
  it('is required, then must be among the values', () => {
    expect(run(s, '')).toEqual({ ok: false, message: 'The regions field is required.' });
    expect(run(s, undefined)).toEqual({ ok: false, message: 'The regions field is required.' });
    expect(run(s, 'global')).toEqual({ ok: false, message: 'The selected regions is invalid.' });
    expect(run(s, 'Regional')).toEqual({ ok: false, message: 'The selected regions is invalid.' });
  });
});

describe('requiredInt', () => {
  const s = requiredInt('rating', 1, 5);
  it('accepts integers and numeric strings', () => {
    expect(run(s, 3)).toEqual({ ok: true, value: 3 });
    expect(run(s, ' 5 ')).toEqual({ ok: true, value: 5 });
    expect(run(s, '4\u0000')).toEqual({ ok: true, value: 4 });
  });
  it('is required when missing or empty', () => {
    expect(run(s, undefined)).toEqual({ ok: false, message: 'The rating field is required.' });
    expect(run(s, '')).toEqual({ ok: false, message: 'The rating field is required.' });
    expect(run(s, null)).toEqual({ ok: false, message: 'The rating field is required.' });
    expect(run(s, '   ')).toEqual({ ok: false, message: 'The rating field is required.' });
    expect(run(s, '\u0000')).toEqual({ ok: false, message: 'The rating field is required.' });
  });
  it('must be an integer', () => {
    for (const v of ['abc', '2.5', 2.5, '3x', {}, true]) {
      expect(run(s, v), JSON.stringify(v)).toEqual({ ok: false, message: 'The rating field must be an integer.' });
    }
  });
  it('must be within the range', () => {
    for (const v of [0, 6, -1, '0', '6', 1e9]) {
      expect(run(s, v), String(v)).toEqual({ ok: false, message: 'The rating field must be between 1 and 5.' });
    }
  });
});

describe('toFieldErrors', () => {
  it('keys messages by field path, every message kept in order', () => {
    const schema = z
      .object({
        name: requiredText({ label: 'name' }),
        email: requiredEmail(),
        nested: z.object({ x: requiredText({ label: 'x' }) }),
      })
      .superRefine((_v, ctx) => ctx.addIssue({ code: 'custom', message: 'Root problem.' }));
    const r = schema.safeParse({ name: '', email: 'nope', nested: {} });
    expect(r.success).toBe(false);
    const errors = toFieldErrors(r.error!);
    expect(errors.name).toEqual(['The name field is required.']);
    expect(errors.email).toEqual(['The email field must be a valid email address.']);
    expect(errors['nested.x']).toEqual(['The x field is required.']);
  });

  it('keys root issues by _', () => {
    const r = z.string({ error: 'Bad.' }).safeParse(1);
    expect(toFieldErrors(r.error!)).toEqual({ _: ['Bad.'] });
  });
});

describe('requiredInt reads only plain decimal digits', () => {
  it('refuses hexadecimal and exponent forms', () => {
    const s = requiredInt('affiliates', 1, 100000);
    for (const v of ['0x10', '1e2', '12abc']) {
      const r = s.safeParse(v);
      expect(r.success, v).toBe(false);
      expect(r.error?.issues[0].message).toBe('The affiliates field must be an integer.');
    }
    expect(s.parse(' 12 ')).toBe(12);
  });
});

describe('errorsClearedBy', () => {
  it('pairs a field with its confirmation in both directions', () => {
    expect(errorsClearedBy('password').sort()).toEqual(['password', 'password_confirmation']);
    expect(errorsClearedBy('password_confirmation').sort()).toEqual(['password', 'password_confirmation']);
    expect(errorsClearedBy('email').sort()).toEqual(['email', 'email_confirmation']);
  });
});

describe('control characters in text (docs/security.md "Control characters in text")', () => {
  /** Line breaks and tabs an attacker puts in a one-line value to split a mail header or a CSV row. */
  const BREAKS = ['\r\n', '\r', '\n', '\t', '\u0085', '\u2028', '\u2029'];
  /** Every bidirectional embedding, override and isolate control: '\u202Ecod.pdf' reads 'fdp.doc'. */
  const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
  /** C1 controls, U+0080-U+009F. */
  const C1 = ['\u0080', '\u009B', '\u009F'];

  it('a single-line text refuses line breaks, tabs, C1 and bidirectional controls', () => {
    for (const c of [...BREAKS, ...BIDI, ...C1]) expect(hasRefusedControl(`Ann${c}Lee`), JSON.stringify(c)).toBe(true);
    for (const ok of ['Ann Lee', 'Zoë Ñúñez – 🎉', 'שלום\u200F', 'مرحبا\u061C', 'a\u200Eb', '']) {
      expect(hasRefusedControl(ok), ok).toBe(false);
    }
  });

  it('a multi-line text keeps tab and line breaks, and refuses C1 and bidirectional controls', () => {
    for (const c of BREAKS.filter((b) => b !== '\u0085')) expect(hasRefusedControl(`a${c}b`, 'multi')).toBe(false);
    for (const c of [...BIDI, ...C1]) expect(hasRefusedControl(`a${c}b`, 'multi'), JSON.stringify(c)).toBe(true);
  });

  it("checkText refuses before trimming, with the field's own message", () => {
    const line = z.preprocess((v, ctx) => checkText(String(v), ctx, 'first name'), z.string());
    expect(run(line, ' Ann ')).toEqual({ ok: true, value: 'Ann' });
    expect(run(line, 'Ann\n')).toEqual({ ok: false, message: msg.singleLine('first name') });
    const lines = z.preprocess((v, ctx) => checkText(String(v), ctx, 'message', 'multi'), z.string());
    expect(run(lines, 'one\r\ntwo\n')).toEqual({ ok: true, value: 'one\r\ntwo' });
    expect(run(lines, 'one\u202Etwo')).toEqual({ ok: false, message: msg.noControl('message') });
  });

  it('requiredText and optionalText are single-line unless told otherwise; the refusal is the only message', () => {
    for (const value of ['Ann\r\nLee', 'Ann\u202ELee', 'Ann\tLee', 'Ann\u0085Lee']) {
      expect(run(requiredText({ label: 'first name' }), value), JSON.stringify(value)).toEqual({
        ok: false,
        message: 'The first name field must be a single line without control characters.',
      });
      expect(run(optionalText({ label: 'organization', max: 3 }), value)).toEqual({
        ok: false,
        message: 'The organization field must be a single line without control characters.',
      });
    }
    const message = requiredText({ label: 'message', max: 5000, lines: 'multi' });
    expect(run(message, 'Hello,\r\n\tthanks')).toEqual({ ok: true, value: 'Hello,\r\n\tthanks' });
    expect(run(message, 'Hello\u2066 there')).toEqual({
      ok: false,
      message: 'The message field must not contain control characters.',
    });
  });

  it('the other C0 controls are still removed, not refused', () => {
    expect(run(requiredText({ label: 'name' }), 'Ann\u0000\u0007 Lee')).toEqual({ ok: true, value: 'Ann Lee' });
  });

  it('a password is exempt: never shown or kept as typed', () => {
    expect(run(requiredText({ label: 'password', max: 1000, secret: true }), 'pass\u202Eword\t1')).toEqual({
      ok: true,
      value: 'pass\u202Eword\t1',
    });
  });

  it('every builder of the kit refuses them with the same words', () => {
    const cases: [z.ZodType, string, string][] = [
      [requiredEmail(), 'ann@example.com\r\nBcc: eve@example.com', 'email'],
      [requiredChoice('regions', ['regional'] as const), 'regional\u202E', 'regions'],
      [requiredInt('rating', 1, 5), '4\r\n', 'rating'],
      [requiredIsoDate('filed on'), '2026-01-01\n', 'filed on'],
    ];
    for (const [schema, value, label] of cases) {
      expect(run(schema, value), label).toEqual({ ok: false, message: msg.singleLine(label) });
    }
  });

  it('the captcha token is one line', () => {
    const captcha = z.object(captchaField);
    expect(run(captcha, { 'g-recaptcha-response': 'abc\r\ndef' })).toEqual({
      ok: false,
      message: 'The captcha response must be a single line without control characters. Please try the captcha again.',
    });
    expect(run(captcha, { 'g-recaptcha-response': 'abc-def_123' })).toMatchObject({ ok: true });
  });

  it('dropRefusedControls removes what its kind of field refuses, for text kept unchecked', () => {
    expect(dropRefusedControls('Line\r\nville \u202EBoosters')).toBe('Lineville Boosters');
    expect(dropRefusedControls('Line\r\nville \u202EBoosters', 'multi')).toBe('Line\r\nville Boosters');
  });
});
