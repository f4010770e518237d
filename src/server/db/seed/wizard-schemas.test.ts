import { describe, expect, it } from 'vitest';
import {
  DISPLAY_ONLY_TYPES,
  FIELD_TYPES,
  isFieldShown,
  optionPairs,
  readCondition,
  type FieldDefinition,
} from '../../../shared/forms/field-definition.ts';
import { checkFields, parseRules, valueFields } from '../../../shared/forms/rules.ts';
import { GREEK_ORGANIZATIONS } from '../../../shared/lists/greek-organizations.ts';
import { LEVELS } from './reference-data.ts';
import {
  BYLAW_STEP_FIELDS,
  SUBMISSION_ALERT,
  WIZARD_LEVEL_SLUGS,
  WIZARD_SCHEMAS,
  WIZARD_TITLES,
  sampleAnswers,
  type WizardLevelSlug,
} from './wizard-schemas.ts';

/** The rule names src/shared/forms/rules.ts checks. */
const SUPPORTED_RULES = [
  'required',
  'required_if',
  'accepted',
  'email',
  'numeric',
  'integer',
  'digits',
  'max',
  'min',
  'in',
  'date',
  'ein',
  'member_minimum',
  'before_or_equal',
  'different_person',
];

const START_UP_LEVELS: WizardLevelSlug[] = ['start-up', 'full-service', 'greek-chapter'];

const allFields = (slug: WizardLevelSlug): FieldDefinition[] => WIZARD_SCHEMAS[slug].flatMap((p) => p.schema);
const findField = (slug: WizardLevelSlug, name: string) => allFields(slug).find((f) => f.name === name);
const pageOf = (slug: WizardLevelSlug, name: string) =>
  WIZARD_SCHEMAS[slug].find((p) => p.schema.some((f) => f.name === name))!;
const isValueField = (f: FieldDefinition) => !DISPLAY_ONLY_TYPES.has(f.field_type);

describe('wizard schemas: one per level', () => {
  it('covers exactly the seeded levels, with a title each', () => {
    expect([...WIZARD_LEVEL_SLUGS].sort()).toEqual(LEVELS.map((l) => l.slug).sort());
    expect(Object.keys(WIZARD_SCHEMAS).sort()).toEqual([...WIZARD_LEVEL_SLUGS].sort());
    for (const slug of WIZARD_LEVEL_SLUGS) expect(WIZARD_TITLES[slug].length).toBeGreaterThan(5);
  });

  it('has a short submission alert about accuracy, the invoice and the bylaws', () => {
    const sentences = SUBMISSION_ALERT.split(/(?<=[.!?])\s+/).filter(Boolean);
    expect(sentences.length).toBeGreaterThanOrEqual(1);
    expect(sentences.length).toBeLessThanOrEqual(3);
    expect(SUBMISSION_ALERT).toMatch(/accurate/);
    expect(SUBMISSION_ALERT).toMatch(/invoice/);
    expect(SUBMISSION_ALERT).toMatch(/bylaws/);
    expect(SUBMISSION_ALERT).toMatch(/review/);
  });
});

describe.each(WIZARD_LEVEL_SLUGS)('wizard schema %s', (slug) => {
  const pages = WIZARD_SCHEMAS[slug];
  const fields = allFields(slug);

  it('has 3 to 6 pages, each with a label, a description and fields', () => {
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.length).toBeLessThanOrEqual(6);
    for (const page of pages) {
      expect(page.label.trim()).not.toBe('');
      expect(page.description?.trim()).toBeTruthy();
      expect(valueFields(page.schema).length, page.label).toBeGreaterThan(0);
    }
    expect(new Set(pages.map((p) => p.label)).size).toBe(pages.length);
  });

  it('uses unique field names across all pages', () => {
    const names = fields.map((f) => f.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('uses only known field types, and value fields carry a prefixed name and a label', () => {
    for (const f of fields) {
      expect(FIELD_TYPES, f.name).toContain(f.field_type);
      if (isValueField(f)) {
        expect(f.name, f.name).toMatch(/^(account|contact|bylaw)___[a-z0-9_]+$/);
        expect(f.label?.trim(), f.name).toBeTruthy();
      } else {
        expect(f.name, f.name).not.toMatch(/___/);
      }
      if (f.field_type === 'link') expect(f.link?.href, f.name).toMatch(/^\//);
      if (f.field_type === 'heading' || f.field_type === 'warning') expect(f.label?.trim(), f.name).toBeTruthy();
    }
  });

  it('uses only rules the checker supports, with sensible arguments', () => {
    for (const f of fields) {
      if (!isValueField(f)) expect(f.rules, f.name).toBeUndefined();
      for (const rule of parseRules(f.rules)) {
        expect(SUPPORTED_RULES, `${f.name}: ${rule.name}`).toContain(rule.name);
        if (['digits', 'max', 'min'].includes(rule.name)) expect(rule.args[0], f.name).toMatch(/^\d+$/);
        if (rule.name === 'in') {
          expect(rule.args.length, f.name).toBeGreaterThan(0);
          const values = optionPairs(f).map((o) => o.value);
          for (const a of rule.args) expect(values, `${f.name} in:${a}`).toContain(a);
        }
        if (rule.name === 'required_if')
          expect(
            fields.some((o) => o.name === rule.args[0]),
            f.name,
          ).toBe(true);
      }
    }
  });

  it('makes every is_conditional and side_label field name a field on the same or an earlier page', () => {
    pages.forEach((page, i) => {
      const known = new Set(pages.slice(0, i + 1).flatMap((p) => p.schema.map((f) => f.name)));
      for (const f of page.schema) {
        if (f.is_conditional) {
          const { field, values } = readCondition(f.is_conditional);
          expect(known.has(field), `${f.name} -> ${f.is_conditional}`).toBe(true);
          expect(field).not.toBe(f.name);
          const target = findField(slug, field)!;
          // A checkbox shows it while ticked; a radio while it holds one of its own options.
          if (values)
            for (const v of values)
              expect(
                optionPairs(target).map((o) => o.value),
                f.name,
              ).toContain(v);
          else expect(target.field_type, f.name).toBe('checkbox');
        }
        const bar = f.side_label?.indexOf('|') ?? -1;
        if (bar >= 0) expect(known.has(f.side_label!.slice(bar + 1).trim()), `${f.name} side_label`).toBe(true);
      }
    });
  });

  it('gives select and radio fields options', () => {
    for (const f of fields.filter((x) => x.field_type === 'select' || x.field_type === 'radio')) {
      expect(optionPairs(f).length, f.name).toBeGreaterThanOrEqual(2);
      for (const o of optionPairs(f)) expect(o.label.trim(), f.name).not.toBe('');
    }
  });

  it('asks for the fiscal year end by months 1..12 and gross receipts as whole dollars', () => {
    const fy = findField(slug, 'account___fiscal_year_end')!;
    expect(fy.label).toBe('Last month of your fiscal year');
    expect(optionPairs(fy)).toEqual(
      Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: expect.any(String) })),
    );
    expect(optionPairs(fy)[0].label).toBe('January');
    expect(fy.instructions).toMatch(/IRS/);
    const gr = findField(slug, 'account___gross_receipts')!;
    expect(gr.rules).toBe('required|integer|min:0|max:100000000');
    expect(gr.description).toMatch(/990-N/);
    expect(gr.description).toMatch(/50,000/);
  });

  it('has the president and treasurer, and a text|field side label naming the president', () => {
    for (const role of ['president', 'treasurer']) {
      for (const part of ['first_name', 'last_name', 'email', 'phone'])
        expect(findField(slug, `contact___${role}_${part}`), `${role} ${part}`).toBeDefined();
    }
    expect(fields.some((f) => f.side_label === 'President: |contact___president_last_name')).toBe(true);
    expect(fields.some((f) => f.field_type === 'link' && f.link?.href === '/privacy')).toBe(true);
    expect(fields.some((f) => f.field_type === 'link' && f.link?.href === '/irs-form-990')).toBe(true);
  });

  it('accepts a complete valid answer set page by page', () => {
    const answers = sampleAnswers(slug);
    const known = new Set(fields.filter(isValueField).map((f) => f.name));
    expect(
      Object.keys(answers).filter((k) => !known.has(k)),
      'answers for unknown fields',
    ).toEqual([]);
    for (const page of pages) {
      const { values, errors } = checkFields(page.schema, answers, answers);
      expect(errors, page.label).toEqual({});
      for (const f of valueFields(page.schema)) {
        if (!isFieldShown(f, answers)) continue;
        expect(answers, `${page.label}: ${f.name}`).toHaveProperty(f.name);
        if (parseRules(f.rules).some((r) => r.name === 'required')) expect(values[f.name], f.name).not.toBe('');
      }
    }
  });

  it('merges overrides into the sample answers', () => {
    expect(sampleAnswers(slug, { account___city: 'Homer' }).account___city).toBe('Homer');
  });
});

describe('start-up vs maintain questions', () => {
  it.each(START_UP_LEVELS)('%s refuses groups that already have a 501(c) letter or applied before', (slug) => {
    for (const name of ['account___has_501c', 'account___has_requested_exemption']) {
      const def = findField(slug, name)!;
      expect(def.rules).toBe('required|in:0');
      const page = pageOf(slug, name).schema;
      const { errors } = checkFields(page, sampleAnswers(slug, { [name]: '1' }));
      expect(Object.keys(errors)).toEqual([name]);
      expect(errors[name][0]).toMatch(/^The selected .+ is invalid\.$/);
      expect(checkFields(page, sampleAnswers(slug, { [name]: '0' })).errors).toEqual({});
      expect(checkFields(page, sampleAnswers(slug, { [name]: '' })).errors[name]).toEqual([
        expect.stringMatching(/field is required\.$/),
      ]);
    }
  });

  it('maintain accepts a 501(c) letter or an application waiting for one, and takes either exemption history answer', () => {
    const page = pageOf('maintain', 'account___has_501c').schema;
    expect(checkFields(page, sampleAnswers('maintain', { account___has_501c: '1' })).errors).toEqual({});
    const no = checkFields(page, sampleAnswers('maintain', { account___has_501c: '0' })).errors;
    expect(no.account___has_501c[0]).toMatch(/^The selected .+ is invalid\.$/);
    for (const v of ['0', '1'])
      expect(checkFields(page, sampleAnswers('maintain', { account___has_requested_exemption: v })).errors).toEqual({});
  });

  it('maintain: a group waiting for its IRS letter gives the form and the date it filed, and no ruling year, GEN or letter', () => {
    const page = pageOf('maintain', 'account___has_501c').schema;
    const waiting = sampleAnswers('maintain', {
      account___has_501c: '2',
      account___exemption_form: '1023-EZ',
      account___exemption_filed_on: '2026-03-02',
    });
    const { values, errors } = checkFields(page, waiting);
    expect(errors).toEqual({});
    expect(values).toMatchObject({
      account___has_501c: '2',
      account___exemption_form: '1023-EZ',
      account___exemption_filed_on: '2026-03-02',
    });
    for (const hidden of ['account___ruling_year', 'account___gen', 'account___has_requested_exemption'])
      expect(values, hidden).not.toHaveProperty(hidden);
    expect(page.filter((f) => isFieldShown(f, waiting)).map((f) => f.name)).not.toContain(
      'account___determination_letter',
    );
    expect(
      checkFields(page, { ...waiting, account___exemption_form: '', account___exemption_filed_on: '' }).errors,
    ).toEqual({
      account___exemption_form: ['The answer field is required.'],
      account___exemption_filed_on: ['The date you filed it field is required.'],
    });
    expect(checkFields(page, { ...waiting, account___exemption_filed_on: '2999-01-01' }).errors).toEqual({
      account___exemption_filed_on: ['The date you filed it must be today or earlier.'],
    });
  });

  it('start-up levels ask for the EIN only when the group has one, and offer to get one', () => {
    for (const slug of START_UP_LEVELS) {
      const hasEin = findField(slug, 'account___has_ein')!;
      expect(hasEin.field_type).toBe('checkbox');
      expect(`${hasEin.sub_label} ${hasEin.side_label ?? ''}`).toMatch(/we will get one for you/i);
      const ein = findField(slug, 'account___ein')!;
      expect(ein).toMatchObject({ rules: 'required|ein', is_conditional: 'account___has_ein' });
      const page = pageOf(slug, 'account___ein').schema;
      expect(checkFields(page, sampleAnswers(slug, { account___has_ein: 0, account___ein: '' })).errors).toEqual({});
      expect(
        checkFields(page, sampleAnswers(slug, { account___has_ein: 1, account___ein: '' })).errors.account___ein,
      ).toBeDefined();
      expect(
        checkFields(page, sampleAnswers(slug, { account___has_ein: 1, account___ein: '123' })).errors.account___ein,
      ).toBeDefined();
      expect(
        checkFields(page, sampleAnswers(slug, { account___has_ein: 1, account___ein: '12-3456789' })).errors,
      ).toEqual({});
    }
  });

  it('maintain requires the EIN and ruling year; the GEN is optional', () => {
    expect(findField('maintain', 'account___has_ein')).toBeUndefined();
    expect(findField('maintain', 'account___ein')?.rules).toBe('required|ein');
    expect(findField('maintain', 'account___ein')?.is_conditional).toBeUndefined();
    expect(findField('maintain', 'account___ruling_year')?.rules).toBe('required|digits:4');
    expect(findField('maintain', 'account___gen')?.rules).toBe('digits:4');
    const page = pageOf('maintain', 'account___gen').schema;
    expect(checkFields(page, sampleAnswers('maintain', { account___gen: '' })).errors).toEqual({});
    expect(checkFields(page, sampleAnswers('maintain', { account___gen: '0928' })).errors).toEqual({});
    expect(checkFields(page, sampleAnswers('maintain', { account___gen: '92' })).errors.account___gen).toBeDefined();
    expect(
      checkFields(page, sampleAnswers('maintain', { account___ruling_year: '12' })).errors.account___ruling_year,
    ).toBeDefined();
  });

  it('the greek chapter asks for its national organization, chapter, campus and house corporation', () => {
    expect(findField('greek-chapter', 'account___national_organization')).toMatchObject({
      field_type: 'greek',
      rules: 'required',
    });
    expect(findField('greek-chapter', 'account___name')?.placeholder).toMatch(/chapter/i);
    expect(findField('greek-chapter', 'account___school')?.label).toMatch(/university|campus/i);
    expect(findField('greek-chapter', 'account___is_house_corporation')?.field_type).toBe('checkbox');
    expect(GREEK_ORGANIZATIONS).toHaveProperty(String(sampleAnswers('greek-chapter').account___national_organization));
  });
});

describe('bylaws page (docs/requirements/entities.md "Bylaw form (booster wizard step)")', () => {
  const withBylaws = WIZARD_LEVEL_SLUGS.filter((slug) =>
    WIZARD_SCHEMAS[slug].some((p) => p.schema.some((f) => f.name.startsWith('bylaw___'))),
  );

  it('is in every start-up schema and not in maintain', () => {
    expect([...withBylaws].sort()).toEqual([...START_UP_LEVELS].sort());
  });

  it.each(withBylaws)(
    '%s: the last page has the booster-step fields but the fiscal year, which follows from the earlier answer, and a guidance warning',
    (slug) => {
      const pages = WIZARD_SCHEMAS[slug];
      const bylaws = pages[pages.length - 1];
      expect(pages.filter((p) => p.schema.some((f) => f.name.startsWith('bylaw___')))).toEqual([bylaws]);
      expect(
        valueFields(bylaws.schema)
          .map((f) => f.name)
          .sort(),
      ).toEqual(BYLAW_STEP_FIELDS.filter((n) => n !== 'bylaw___fiscal_year_end').sort());
      const warning = bylaws.schema.find((f) => f.field_type === 'warning');
      expect(`${warning?.label} ${warning?.description}`).toMatch(/general guidance/);
      expect(`${warning?.label} ${warning?.description}`).toMatch(/review/i);

      const field = (name: string) => bylaws.schema.find((f) => f.name === name)!;
      expect(field('bylaw___purpose').field_type).toBe('textarea');
      expect(field('bylaw___purpose').placeholder?.trim()).toBeTruthy();
      expect(field('bylaw___purpose').description).toMatch(/fundraising is not a tax-exempt purpose/i);
      expect(field('bylaw___is_highlighted').field_type).toBe('checkbox');
      for (const name of ['bylaw___nomination_month', 'bylaw___annual_meeting_month']) {
        expect(field(name).field_type).toBe('select');
        expect(optionPairs(field(name))).toEqual(
          Array.from({ length: 12 }, (_, i) => ({ value: String(i), label: expect.any(String) })),
        );
        expect(optionPairs(field(name))[0].label).toBe('January');
      }
      for (const name of ['bylaw___meeting_attendee_minimum', 'bylaw___meeting_request_minimum']) {
        expect(field(name).field_type).toBe('text');
        expect(field(name).instructions).toMatch(/1\/10/);
      }
      // docs/requirements/validation.md: every bylaw field but the highlight choice is required.
      for (const f of valueFields(bylaws.schema)) {
        expect(
          parseRules(f.rules).some((r) => r.name === 'required'),
          f.name,
        ).toBe(f.name !== 'bylaw___is_highlighted');
      }
    },
  );

  it.each(withBylaws)(
    "%s: the treasurer who names the president again is refused on the treasurer's first name",
    (slug) => {
      const page = pageOf(slug, 'contact___treasurer_first_name').schema;
      const same = sampleAnswers(slug, {
        contact___treasurer_first_name: ' maria ',
        contact___treasurer_last_name: 'ALVAREZ',
        contact___president_first_name: 'Maria',
        contact___president_last_name: 'Alvarez',
      });
      expect(checkFields(page, same).errors).toEqual({
        contact___treasurer_first_name: ['The treasurer must be a different person from the president.'],
      });
      expect(checkFields(page, sampleAnswers(slug)).errors).toEqual({});
    },
  );
});
