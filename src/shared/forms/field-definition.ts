import { z } from 'zod';

/**
 * Schema-driven forms (docs/requirements/entities.md "Field definition", "Wizard configuration", "Dynamic form
 * configuration"). The same definitions render the wizard and dynamic forms in the browser and
 * validate their payloads on the server (see rules.ts).
 */

/** The field types of docs/requirements/entities.md, by the names the definitions use. */
export const FIELD_TYPES = [
  'text', // text input
  'textarea', // text area
  'date', // date input
  'checkbox', // sent as 1 or 0
  'radio',
  'state', // state select: 50 states + DC
  'greek', // Greek letter organization select
  'select', // generic select
  'divider',
  'heading', // offset heading
  'warning', // warning alert
  'hidden',
  'link',
  'password',
  'dropbox', // file dropbox with an upload action
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types that show something but carry no value. */
export const DISPLAY_ONLY_TYPES: ReadonlySet<FieldType> = new Set(['divider', 'heading', 'warning', 'link']);

/** docs/requirements/entities.md "Field definition". */
const fieldDefinitionSchema = z.object({
  name: z.string(),
  label: z.string().optional(),
  field_type: z.enum(FIELD_TYPES),
  /** Laravel-style rules string, e.g. 'required|email|max:255'; 'required' stars the field. */
  rules: z.string().optional(),
  placeholder: z.string().optional(),
  is_disabled: z.boolean().optional(),
  is_accented: z.boolean().optional(),
  /**
   * Name of another field: this one is shown only while that field's value is numerically truthy.
   * 'name=a,b' shows it only while that field's value is one of the listed values (a radio with
   * more than yes and no, docs/wizard.md "A group waiting for its IRS letter").
   */
  is_conditional: z.string().optional(),
  /** Text beside the input; 'text|field' shows the text followed by the other field's value. */
  side_label: z.string().optional(),
  sub_label: z.string().optional(),
  link: z.object({ href: z.string(), html: z.string() }).optional(),
  value: z.union([z.string(), z.number(), z.boolean()]).nullable().optional(),
  /** Radio: value/label pairs. Select: key to label. */
  options: z
    .union([z.array(z.object({ value: z.string(), label: z.string() })), z.record(z.string(), z.string())])
    .optional(),
  rows: z.number().optional(),
  instructions: z.string().optional(),
  description: z.string().optional(),
  add_class: z.string().optional(),
  flush: z.boolean().optional(),
  /** Dropbox upload address. */
  action: z.string().optional(),
});
export type FieldDefinition = z.infer<typeof fieldDefinitionSchema>;

/** One page of a wizard: its step label, description and fields. */
export interface WizardPage {
  label: string;
  description?: string;
  schema: FieldDefinition[];
}

/** What a level stores as its wizard (levels.schema): the pages, with an optional title and alert. */
export interface LevelWizard {
  title?: string;
  submission_alert?: string;
  pages: WizardPage[];
}

/** Reads a level's stored wizard: a LevelWizard, or a bare list of pages. */
export function readLevelWizard(stored: unknown): LevelWizard {
  if (Array.isArray(stored)) return { pages: stored as WizardPage[] };
  if (stored && typeof stored === 'object' && Array.isArray((stored as LevelWizard).pages))
    return stored as LevelWizard;
  return { pages: [] };
}

/** docs/requirements/entities.md "Wizard configuration". */
export interface WizardConfig {
  title: string;
  /** Initial values by field name. */
  fields: Record<string, unknown>;
  schemas: WizardPage[];
  submission_alert?: string;
  is_disabled?: boolean;
  is_cancelable?: boolean;
}

/** docs/requirements/entities.md "Dynamic form configuration". */
export const dynamicFormConfigSchema = z.object({
  title: z.string(),
  fields: z.record(z.string(), z.unknown()),
  schema: z.array(fieldDefinitionSchema),
  alert: z.string().optional(),
  /** Default true. */
  has_required_fields: z.boolean().optional(),
  post_notification: z.boolean().optional(),
  is_clearing: z.boolean().optional(),
  is_disabled: z.boolean().optional(),
  is_cancelable: z.boolean().optional(),
  /** Where the form is saved; default method put (docs/requirements/constants.md). */
  action: z.string().optional(),
  method: z.enum(['put', 'post', 'patch']).optional(),
});
export type DynamicFormConfig = z.infer<typeof dynamicFormConfigSchema>;

/** Options of a radio or select definition as value/label pairs, in order. */
export function optionPairs(def: Pick<FieldDefinition, 'options'>): { value: string; label: string }[] {
  if (!def.options) return [];
  if (Array.isArray(def.options)) return def.options.map((o) => ({ value: String(o.value), label: o.label }));
  return Object.entries(def.options).map(([value, label]) => ({ value, label }));
}

/** Numeric truthiness of docs/requirements/entities.md `is_conditional`: '1', 1, true and '2' are shown; '', '0', 0, false, null are not. */
export function isNumericallyTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  // Objects and arrays are never a field's value (and may not even convert to a number).
  if (typeof value !== 'number' && typeof value !== 'string') return false;
  const n = Number(value);
  return Number.isFinite(n) && n !== 0;
}

/** The field an `is_conditional` names, and the values it must hold (null: any numerically truthy value). */
export function readCondition(condition: string): { field: string; values: string[] | null } {
  const eq = condition.indexOf('=');
  if (eq < 0) return { field: condition.trim(), values: null };
  return {
    field: condition.slice(0, eq).trim(),
    values: condition
      .slice(eq + 1)
      .split(',')
      .map((v) => v.trim()),
  };
}

/**
 * Whether a field is shown for the current values: its `is_conditional` field, if any, is truthy,
 * or, for 'name=a,b', holds one of the listed values.
 */
export function isFieldShown(def: Pick<FieldDefinition, 'is_conditional'>, values: Record<string, unknown>): boolean {
  if (!def.is_conditional) return true;
  const { field, values: allowed } = readCondition(def.is_conditional);
  const value = values[field];
  if (!allowed) return isNumericallyTruthy(value);
  return (typeof value === 'string' || typeof value === 'number') && allowed.includes(String(value));
}

/**
 * The side label to show: for 'text|field', the text followed by the named field's current value;
 * otherwise the text itself.
 */
export function resolveSideLabel(sideLabel: string | undefined, values: Record<string, unknown>): string {
  if (!sideLabel) return '';
  const bar = sideLabel.indexOf('|');
  if (bar < 0) return sideLabel;
  const text = sideLabel.slice(0, bar);
  const field = sideLabel.slice(bar + 1).trim();
  const value = values[field];
  return `${text}${typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : ''}`;
}

/** Wizard progress of docs/requirements/behaviour.md: (page-1)/(pages-1) as a percent; 100 for a one-page wizard. */
export function wizardProgress(page: number, pages: number): number {
  if (pages <= 1) return 100;
  return Math.round(((Math.min(Math.max(page, 1), pages) - 1) / (pages - 1)) * 100);
}
