import { describe, expect, it } from 'vitest';
import { toFieldErrors } from '../validation.ts';
import { attributeName, checkFields, fieldsSchema, isRequired, linesOf, parseRules } from './rules.ts';
import type { FieldDefinition } from './field-definition.ts';

const page: FieldDefinition[] = [
  { name: 'account___name', label: 'Organization name', field_type: 'text', rules: 'required|max:100' },
  { name: 'contact___email', label: 'E-mail', field_type: 'text', rules: 'required|email' },
  { name: 'account___state', label: 'State', field_type: 'state', rules: 'required' },
  { name: 'account___has_ein', label: 'We already have an EIN', field_type: 'checkbox' },
  {
    name: 'account___ein',
    label: 'EIN',
    field_type: 'text',
    rules: 'required|ein',
    is_conditional: 'account___has_ein',
  },
  {
    name: 'account___fiscal_year_end',
    label: 'Fiscal year end month',
    field_type: 'select',
    rules: 'required',
    options: { '1': 'January', '6': 'June', '12': 'December' },
  },
  {
    name: 'account___gross_receipts',
    label: 'Expected gross receipts',
    field_type: 'text',
    rules: 'required|integer|min:0|max:100000000',
  },
  {
    name: 'account___kind',
    label: 'Kind',
    field_type: 'radio',
    rules: 'required',
    options: [
      { value: 'booster', label: 'Booster club' },
      { value: 'pto', label: 'PTO' },
    ],
  },
  { name: 'divider_1', field_type: 'divider' },
  { name: 'warning_1', field_type: 'warning', label: 'Check your answers' },
];

const valid = {
  account___name: '  Soldotna Track Boosters ',
  contact___email: 'pres@example.com',
  account___state: 'AK',
  account___has_ein: '1',
  account___ein: '39-3095719',
  account___fiscal_year_end: '6',
  account___gross_receipts: '42000',
  account___kind: 'booster',
  unknown_field: 'dropped',
};

describe('parseRules / isRequired / attributeName', () => {
  it('member_minimum takes a number, a percentage or a fraction of at least 1/10 (the wizard bylaws step)', () => {
    const defs: FieldDefinition[] = [
      {
        name: 'bylaw___meeting_attendee_minimum',
        label: 'Quorum',
        field_type: 'text',
        rules: 'required|max:20|member_minimum',
      },
    ];
    for (const ok of ['15', '25%', '1/10', '1/4'])
      expect(checkFields(defs, { bylaw___meeting_attendee_minimum: ok }).errors).toEqual({});
    expect(checkFields(defs, { bylaw___meeting_attendee_minimum: '1/20' }).errors).toEqual({
      bylaw___meeting_attendee_minimum: ['The quorum must be a fraction of at least 1/10 of the members.'],
    });
    expect(
      checkFields(defs, { bylaw___meeting_attendee_minimum: 'most' }).errors.bylaw___meeting_attendee_minimum?.[0],
    ).toMatch(/must be a whole number \(15\), a percentage \(25%\) or a fraction/);
  });

  it('splits rules with arguments', () => {
    expect(parseRules('required|email|max:255|in:a,b')).toEqual([
      { name: 'required', args: [] },
      { name: 'email', args: [] },
      { name: 'max', args: ['255'] },
      { name: 'in', args: ['a', 'b'] },
    ]);
    expect(parseRules(undefined)).toEqual([]);
    expect(parseRules(' required || ')).toEqual([{ name: 'required', args: [] }]);
  });
  it('stars only fields whose rules contain required', () => {
    expect(isRequired({ rules: 'required|max:5' })).toBe(true);
    expect(isRequired({ rules: 'max:5' })).toBe(false);
    expect(isRequired({})).toBe(false);
  });
  it('names fields by label, else by name', () => {
    expect(attributeName({ name: 'x', label: 'Organization name' })).toBe('organization name');
    expect(attributeName({ name: 'fiscal_year_end' })).toBe('fiscal year end');
    expect(attributeName({ name: 'ein', label: 'EIN' })).toBe('EIN');
    expect(attributeName({ name: 'has_501c', label: 'Does your group already have a 501(c) letter?' })).toBe('answer');
  });
});

describe('checkFields', () => {
  it('accepts a valid page and keeps only the shown value fields, normalised', () => {
    const { values, errors } = checkFields(page, valid);
    expect(errors).toEqual({});
    expect(values).toEqual({
      account___name: 'Soldotna Track Boosters',
      contact___email: 'pres@example.com',
      account___state: 'AK',
      account___has_ein: 1,
      account___ein: '39-3095719',
      account___fiscal_year_end: '6',
      account___gross_receipts: '42000',
      account___kind: 'booster',
    });
  });

  it('gives one message per failing field, in the server wording', () => {
    const { errors } = checkFields(page, {
      account___name: 'x'.repeat(101),
      contact___email: 'nope',
      account___state: 'XX',
      account___has_ein: 1,
      account___ein: '123',
      account___fiscal_year_end: '13',
      account___gross_receipts: '4.5',
      account___kind: 'other',
    });
    expect(errors).toEqual({
      account___name: ['The organization name field must not be greater than 100 characters.'],
      contact___email: ['The e-mail field must be a valid email address.'],
      account___state: ['The selected state is invalid.'],
      account___ein: ['The EIN must be 9 digits, like 12-3456789.'],
      account___fiscal_year_end: ['The selected fiscal year end month is invalid.'],
      account___gross_receipts: ['The expected gross receipts field must be an integer.'],
      account___kind: ['The selected kind is invalid.'],
    });
  });

  it('requires required fields, and checkbox values travel as 1 or 0', () => {
    const { errors, values } = checkFields(page, { account___has_ein: false });
    expect(Object.keys(errors).sort()).toEqual([
      'account___fiscal_year_end',
      'account___gross_receipts',
      'account___kind',
      'account___name',
      'account___state',
      'contact___email',
    ]);
    expect(errors.account___name).toEqual(['The organization name field is required.']);
    expect(values.account___has_ein).toBe(0);
  });

  it('neither checks nor keeps a conditional field while its condition is not truthy', () => {
    const { values, errors } = checkFields(page, { ...valid, account___has_ein: '0', account___ein: 'garbage' });
    expect(errors).toEqual({});
    expect('account___ein' in values).toBe(false);
  });

  it('numeric bounds for integer fields', () => {
    expect(checkFields(page, { ...valid, account___gross_receipts: '-1' }).errors.account___gross_receipts).toEqual([
      'The expected gross receipts field must be at least 0.',
    ]);
  });

  it('keeps the stored value of a disabled field whatever is submitted', () => {
    const defs: FieldDefinition[] = [{ name: 'level', field_type: 'text', is_disabled: true, rules: 'required' }];
    expect(checkFields(defs, { level: 'hacked' }, { level: 'maintain' }).values).toEqual({ level: 'maintain' });
  });

  it('strips control characters and NUL bytes', () => {
    expect(checkFields(page, { ...valid, account___name: 'A\u0000B' }).values.account___name).toBe('AB');
  });

  it('refuses line breaks and bidirectional controls in every one-line field, first (docs/security.md "Control characters in text")', () => {
    const errors = checkFields(page, {
      ...valid,
      account___name: 'Lincoln\r\nBoosters',
      contact___email: 'ann@example.com\nBcc: eve@example.com',
      account___state: 'IN\u202E',
      account___fiscal_year_end: '6\t',
    }).errors;
    expect(errors).toEqual({
      account___name: ['The organization name field must be a single line without control characters.'],
      contact___email: ['The e-mail field must be a single line without control characters.'],
      account___state: ['The state field must be a single line without control characters.'],
      account___fiscal_year_end: ['The fiscal year end month field must be a single line without control characters.'],
    });
  });

  it('a textarea keeps its line breaks but refuses bidirectional controls; a password is not read', () => {
    const defs: FieldDefinition[] = [
      { name: 'bylaw___purpose', label: 'Purpose', field_type: 'textarea', rules: 'required|max:2000' },
      { name: 'secret', label: 'Password', field_type: 'password' },
    ];
    expect(checkFields(defs, { bylaw___purpose: 'To buy equipment.\r\nTo pay travel.', secret: 'a\u202Eb' })).toEqual({
      values: { bylaw___purpose: 'To buy equipment.\r\nTo pay travel.', secret: 'a\u202Eb' },
      errors: {},
    });
    expect(checkFields(defs, { bylaw___purpose: 'To buy \u202Eequipment.' }).errors).toEqual({
      bylaw___purpose: ['The purpose field must not contain control characters.'],
    });
    expect(linesOf({ field_type: 'textarea' })).toBe('multi');
    expect(linesOf({ field_type: 'select' })).toBe('single');
    expect(linesOf({ field_type: 'checkbox' })).toBeNull();
  });

  it('checks dates, digits, accepted and required_if', () => {
    const defs: FieldDefinition[] = [
      { name: 'founded', label: 'Founded', field_type: 'date', rules: 'date' },
      { name: 'gen', label: 'GEN', field_type: 'text', rules: 'digits:4' },
      { name: 'agree', label: 'Agreement', field_type: 'checkbox', rules: 'accepted' },
      { name: 'kind', field_type: 'text' },
      { name: 'school', label: 'School', field_type: 'text', rules: 'required_if:kind,booster' },
    ];
    expect(
      checkFields(defs, { founded: '2026-02-30', gen: '527', agree: 0, kind: 'booster', school: '' }).errors,
    ).toEqual({
      founded: ['The founded field must be a valid date.'],
      gen: ['The GEN field must be 4 digits.'],
      agree: ['The agreement field must be accepted.'],
      school: ['The school field is required when kind is booster.'],
    });
    expect(checkFields(defs, { founded: '2024-02-29', gen: '5271', agree: '1', kind: 'pto' }).errors).toEqual({});
  });
});

describe('values that are not a field value', () => {
  it('refuses objects and arrays with a message, even ones that cannot turn into text', () => {
    const hostile = { toString: null } as unknown;
    const { errors } = checkFields(page, { ...valid, account___name: hostile, account___kind: ['booster'] });
    expect(errors.account___name).toEqual(['The organization name field must be a string.']);
    expect(errors.account___kind).toEqual(['The kind field must be a string.']);
    // A condition that is not a value hides its field rather than failing.
    const defs: FieldDefinition[] = [
      { name: 'club', label: 'Club', field_type: 'text' },
      { name: 'school', label: 'School', field_type: 'text', rules: 'required', is_conditional: 'club' },
      { name: 'mascot', label: 'Mascot', field_type: 'text', rules: 'required_if:club,1' },
    ];
    const check = checkFields(defs, { club: hostile, school: '', mascot: 'Owls' });
    expect(check.errors).toEqual({ club: ['The club field must be a string.'] });
    expect(check.values).not.toHaveProperty('school');
  });
});

describe('fieldsSchema', () => {
  it('is a zod schema with per-field issues', () => {
    const r = fieldsSchema(page).safeParse({ ...valid, contact___email: '' });
    expect(r.success).toBe(false);
    expect(toFieldErrors(r.error!)).toEqual({ contact___email: ['The e-mail field is required.'] });
    expect(fieldsSchema(page).parse(valid).account___name).toBe('Soldotna Track Boosters');
  });
});

describe('greek: a name from the list only', () => {
  const greek: FieldDefinition[] = [
    { name: 'account___national_organization', label: 'National organization', field_type: 'greek', rules: 'required' },
  ];
  it('accepts a listed organization', () => {
    expect(checkFields(greek, { account___national_organization: 'Sigma Chi' }).errors).toEqual({});
  });
  it('refuses free text, naming the field by its label', () => {
    expect(checkFields(greek, { account___national_organization: 'Made Up Fraternity' }).errors).toEqual({
      account___national_organization: ['The selected national organization is invalid.'],
    });
  });
});

describe('officers: the treasurer must be a different person from the president (docs/wizard.md "Officers")', () => {
  const officers: FieldDefinition[] = [
    { name: 'contact___president_first_name', label: "President's first name", field_type: 'text', rules: 'required' },
    { name: 'contact___president_last_name', label: "President's last name", field_type: 'text', rules: 'required' },
    {
      name: 'contact___treasurer_first_name',
      label: "Treasurer's first name",
      field_type: 'text',
      rules: 'required|max:50|different_person:president',
    },
    { name: 'contact___treasurer_last_name', label: "Treasurer's last name", field_type: 'text', rules: 'required' },
  ];
  const names = (p: string, t: string) => {
    const [pf, pl] = p.split(' ');
    const [tf, tl] = t.split(' ');
    return {
      contact___president_first_name: pf,
      contact___president_last_name: pl,
      contact___treasurer_first_name: tf,
      contact___treasurer_last_name: tl,
    };
  };

  it('refuses the same name, whatever the case, spacing or punctuation, on the treasurer field', () => {
    for (const treasurer of ['Maria Alvarez', 'maria ALVAREZ', 'Maria Alva-rez']) {
      expect(checkFields(officers, names('Maria Alvarez', treasurer)).errors, treasurer).toEqual({
        contact___treasurer_first_name: ['The treasurer must be a different person from the president.'],
      });
    }
  });

  it('accepts two people, even of one family, and leaves blanks to the required rule', () => {
    expect(checkFields(officers, names('Maria Alvarez', 'Dwayne Alvarez')).errors).toEqual({});
    expect(checkFields(officers, names('Maria Alvarez', 'Mario Alvarez')).errors).toEqual({});
    const blank = checkFields(officers, {
      ...names('Maria Alvarez', 'x y'),
      contact___treasurer_first_name: '',
      contact___treasurer_last_name: '',
    }).errors;
    expect(blank.contact___treasurer_first_name).toEqual(["The treasurer's first name field is required."]);
  });
});

describe('before_or_equal:today', () => {
  const defs: FieldDefinition[] = [
    {
      name: 'account___exemption_filed_on',
      label: 'Date you filed it',
      field_type: 'date',
      rules: 'required|date|before_or_equal:today',
    },
  ];
  it('takes today and earlier days, refuses a day to come', () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(checkFields(defs, { account___exemption_filed_on: today }).errors).toEqual({});
    expect(checkFields(defs, { account___exemption_filed_on: '2025-11-03' }).errors).toEqual({});
    const next = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect(checkFields(defs, { account___exemption_filed_on: next }).errors).toEqual({
      account___exemption_filed_on: ['The date you filed it must be today or earlier.'],
    });
  });
});
