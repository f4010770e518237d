import { z } from 'zod';
import { parseMemberMinimum } from '../bylaws/member-minimum.ts';
import { GREEK_NAMES } from '../lists/greek-organizations.ts';
import { STATE_CODES } from '../lists/states.ts';
import { differentPersonMessage, isOfficerRole, isSamePerson, officerRoleOf } from '../rules/officers.ts';
import { hasRefusedControl, msg, stripControl, type FieldErrors } from '../validation.ts';
import { DISPLAY_ONLY_TYPES, isFieldShown, optionPairs, type FieldDefinition } from './field-definition.ts';

/** One rule of a rules string: 'max:255' -> { name: 'max', args: ['255'] }. */
export interface Rule {
  name: string;
  args: string[];
}

/** Splits a Laravel-style rules string ('required|email|max:255') into rules, in order. */
export function parseRules(rules: string | undefined): Rule[] {
  if (!rules) return [];
  return rules
    .split('|')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => {
      const colon = r.indexOf(':');
      return colon < 0
        ? { name: r, args: [] }
        : {
            name: r.slice(0, colon),
            args: r
              .slice(colon + 1)
              .split(',')
              .map((a) => a.trim()),
          };
    });
}

/** A field is starred as required when its rules contain 'required' (docs/requirements/entities.md). */
export function isRequired(def: Pick<FieldDefinition, 'rules'>): boolean {
  return parseRules(def.rules).some((r) => r.name === 'required');
}

/**
 * The name a message uses: the label with its first letter in lower case (acronyms such as EIN
 * stay), 'answer' for a question, else the field name with underscores as spaces.
 */
export function attributeName(def: Pick<FieldDefinition, 'name' | 'label'>): string {
  // A question ('Does your group already have a 501(c) letter?') reads badly inside a sentence.
  if (def.label && /\?\s*$/.test(def.label)) return 'answer';
  const label = def.label?.replace(/[:*]+$/, '').trim();
  if (label) return /^[A-Z][A-Z]/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
  return def.name.replace(/_+/g, ' ').trim();
}

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Normalises one submitted value by field type: trimmed text without control characters; checkboxes 1/0. */
export function normaliseValue(def: FieldDefinition, value: unknown): unknown {
  if (def.field_type === 'checkbox')
    return value === true || value === 1 || value === '1' || value === 'true' || value === 'on' ? 1 : 0;
  if (typeof value === 'string') return stripControl(value).trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (value === undefined || value === null) return '';
  return value;
}

/**
 * Whether a field of this type holds one line (every input, select and date) or several (a
 * textarea); passwords and checkboxes are not text the control rule reads (docs/security.md
 * "Control characters in text").
 */
export function linesOf(def: Pick<FieldDefinition, 'field_type'>): 'single' | 'multi' | null {
  if (def.field_type === 'password' || def.field_type === 'checkbox') return null;
  return def.field_type === 'textarea' ? 'multi' : 'single';
}

/**
 * The control-character refusal of one submitted value, or null (docs/security.md "Control
 * characters in text"): a single-line field (every type but textarea) takes no line break, tab,
 * C1 or bidirectional control; a textarea keeps its line breaks but takes no C1 or bidirectional
 * control. Read on the value as sent (after stripControl), before it is trimmed.
 */
function controlMessage(def: FieldDefinition, value: unknown): string | null {
  const lines = linesOf(def);
  if (lines === null || typeof value !== 'string' || !hasRefusedControl(stripControl(value), lines)) return null;
  const label = attributeName(def);
  return lines === 'single' ? msg.singleLine(label) : msg.noControl(label);
}

/** Today as 'YYYY-MM-DD' in UTC, as dates in answers are written. */
const todayIso = () => new Date().toISOString().slice(0, 10);

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** A value as the rules read it: objects and arrays are never a field's value, so they read as ''. */
const textOf = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';

/** The first failing rule's message for one value, or null. Messages read like the server's (docs/requirements/platform.md §3). */
function checkValue(def: FieldDefinition, value: unknown, values: Record<string, unknown>): string | null {
  const label = attributeName(def);
  const rules = parseRules(def.rules);
  const names = new Set(rules.map((r) => r.name));
  // Every value field holds one scalar; an object or array (which may not even turn into text) is refused.
  if (typeof value === 'object' && value !== null) return `The ${label} field must be a string.`;
  const str = textOf(value);
  const numericField = names.has('numeric') || names.has('integer');
  for (const rule of rules) {
    const [a, b] = rule.args;
    switch (rule.name) {
      case 'required':
        if (isEmpty(value) || (def.field_type === 'checkbox' && value === 0 && names.has('accepted')))
          return `The ${label} field is required.`;
        break;
      case 'required_if':
        if (textOf(values[a]) === (b ?? '') && isEmpty(value))
          return `The ${label} field is required when ${a.replace(/_+/g, ' ')} is ${b}.`;
        break;
      case 'accepted':
        if (!(value === 1 || value === '1' || value === true)) return `The ${label} field must be accepted.`;
        break;
      default:
        break;
    }
    if (isEmpty(value)) continue;
    switch (rule.name) {
      case 'email':
        if (!z.email().safeParse(str).success) return `The ${label} field must be a valid email address.`;
        break;
      case 'numeric':
        if (!NUMERIC.test(str)) return `The ${label} field must be a number.`;
        break;
      case 'integer':
        if (!/^-?\d+$/.test(str)) return `The ${label} field must be an integer.`;
        break;
      case 'digits':
        if (!new RegExp(`^\\d{${Number(a)}}$`).test(str)) return `The ${label} field must be ${a} digits.`;
        break;
      case 'max':
        if (numericField ? Number(str) > Number(a) : str.length > Number(a)) {
          return numericField
            ? `The ${label} field must not be greater than ${a}.`
            : `The ${label} field must not be greater than ${a} characters.`;
        }
        break;
      case 'min':
        if (numericField ? Number(str) < Number(a) : str.length < Number(a)) {
          return numericField
            ? `The ${label} field must be at least ${a}.`
            : `The ${label} field must be at least ${a} characters.`;
        }
        break;
      case 'in':
        if (!rule.args.includes(str)) return `The selected ${label} is invalid.`;
        break;
      case 'date':
        if (
          !/^\d{4}-\d{2}-\d{2}$/.test(str) ||
          Number.isNaN(Date.parse(`${str}T00:00:00Z`)) ||
          new Date(`${str}T00:00:00Z`).toISOString().slice(0, 10) !== str
        ) {
          return `The ${label} field must be a valid date.`;
        }
        break;
      case 'ein':
        if (!/^\d{2}-?\d{7}$/.test(str)) return `The ${label} must be 9 digits, like 12-3456789.`;
        break;
      case 'before_or_equal': {
        // 'before_or_equal:today' (a filing date cannot be in the future) or a 'YYYY-MM-DD' date.
        const limit = a === 'today' ? todayIso() : a;
        if (/^\d{4}-\d{2}-\d{2}$/.test(str) && str > limit)
          return `The ${label} must be ${a === 'today' ? 'today or earlier' : `on or before ${limit}`}.`;
        break;
      }
      case 'different_person': {
        // docs/wizard.md "Officers": on `contact___treasurer_first_name`, 'different_person:president'.
        const role = officerRoleOf(def.name);
        if (role && a && isOfficerRole(a) && isSamePerson(values, role, a)) return differentPersonMessage(role, a);
        break;
      }
      case 'member_minimum': {
        // docs/requirements/validation.md "Bylaws hints": an integer, a percentage or a fraction of at least 1/10.
        const parsed = parseMemberMinimum(str, label);
        if (!parsed.ok) return parsed.message;
        break;
      }
      default:
        break;
    }
  }
  if (!isEmpty(value)) {
    if (def.field_type === 'state' && !STATE_CODES.includes(str)) return `The selected ${label} is invalid.`;
    if (def.field_type === 'greek' && !GREEK_NAMES.includes(str)) return `The selected ${label} is invalid.`;
    if ((def.field_type === 'radio' || def.field_type === 'select') && def.options) {
      if (!optionPairs(def).some((o) => o.value === str)) return `The selected ${label} is invalid.`;
    }
  }
  return null;
}

/** Fields that carry a value on a page: not display-only, not dropboxes (files go to their own action). */
export function valueFields(defs: FieldDefinition[]): FieldDefinition[] {
  return defs.filter((d) => !DISPLAY_ONLY_TYPES.has(d.field_type) && d.field_type !== 'dropbox');
}

export interface FieldsCheck {
  /** Normalised values of the shown value fields, by name; hidden conditional fields are left out. */
  values: Record<string, unknown>;
  errors: FieldErrors;
}

/**
 * Validates submitted values against field definitions (wizard page or dynamic form): only shown
 * fields count (a field whose `is_conditional` field is not truthy is neither checked nor kept);
 * unknown names are dropped; `is_disabled` fields keep `current` values and ignore the submission.
 * A value holding a control character its field refuses fails with that message first (single
 * line: every type but textarea; docs/security.md "Control characters in text").
 * @param current the stored values, used for disabled fields and for conditions
 */
export function checkFields(
  defs: FieldDefinition[],
  submitted: Record<string, unknown>,
  current: Record<string, unknown> = {},
): FieldsCheck {
  const fields = valueFields(defs);
  const merged: Record<string, unknown> = { ...current };
  for (const def of fields) {
    merged[def.name] = def.is_disabled
      ? (current[def.name] ?? def.value ?? '')
      : normaliseValue(def, submitted[def.name]);
  }
  const values: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const def of fields) {
    if (!isFieldShown(def, merged)) continue;
    values[def.name] = merged[def.name];
    if (def.is_disabled) continue;
    const message = controlMessage(def, submitted[def.name]) ?? checkValue(def, merged[def.name], merged);
    if (message) errors[def.name] = [message];
  }
  return { values, errors };
}

/**
 * The zod schema of a page of definitions, for the form kit and the route alike (one schema,
 * three uses): parses to the normalised shown values, or fails with one issue per field.
 */
export function fieldsSchema(defs: FieldDefinition[], current: Record<string, unknown> = {}) {
  return z.record(z.string(), z.unknown()).transform((submitted, ctx) => {
    const { values, errors } = checkFields(defs, submitted, current);
    for (const [name, messages] of Object.entries(errors))
      ctx.addIssue({ code: 'custom', path: [name], message: messages[0] });
    return values;
  });
}
