import { useCallback, useMemo, useState } from 'react';
import {
  DISPLAY_ONLY_TYPES,
  isFieldShown,
  isNumericallyTruthy,
  type FieldDefinition,
} from '../../../shared/forms/field-definition.ts';
import { checkFields, valueFields } from '../../../shared/forms/rules.ts';
import { errorsClearedBy, type FieldErrors } from '../../../shared/validation.ts';

/** Current values of a schema-driven form, by field name (server-saved values plus edits). */
export type SchemaValues = Record<string, unknown>;
/** The first server message per field name. */
type SchemaErrors = Record<string, string>;

/** The errors without those of `names` (a new object, as React state wants). */
const withoutKeys = (errors: SchemaErrors, names: string[]): SchemaErrors =>
  Object.fromEntries(Object.entries(errors).filter(([name]) => !names.includes(name)));

/** A field's starting value when nothing is saved: its definition's `value`; checkboxes 1 or 0. */
function defaultValueOf(def: FieldDefinition): unknown {
  if (def.field_type === 'checkbox') return isNumericallyTruthy(def.value) ? 1 : 0;
  return def.value ?? '';
}

/** Saved values completed with each value field's default (null and missing values get the default). */
export function initialValues(defs: FieldDefinition[], saved: SchemaValues = {}): SchemaValues {
  const out: SchemaValues = { ...saved };
  for (const def of valueFields(defs)) {
    if (out[def.name] === undefined || out[def.name] === null) out[def.name] = defaultValueOf(def);
  }
  return out;
}

/**
 * The payload for a set of definitions: every value field that is shown for the current values
 * (a hidden conditional field is not sent), checkboxes as 1 or 0, empty values as ''.
 * Display-only fields and dropboxes (their files go to their own action) carry nothing.
 */
export function payloadOf(defs: FieldDefinition[], values: SchemaValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of valueFields(defs)) {
    if (!isFieldShown(def, values)) continue;
    const v = values[def.name];
    out[def.name] = def.field_type === 'checkbox' ? (isNumericallyTruthy(v) ? 1 : 0) : (v ?? '');
  }
  return out;
}

/**
 * Checks the current values of a set of definitions with the server's own rules
 * (src/shared/forms/rules.ts): the same messages, so a refused page needs no round trip.
 * @returns the errors by field name (empty when the page may be sent)
 */
export function checkValues(defs: FieldDefinition[], values: SchemaValues): FieldErrors {
  return checkFields(defs, payloadOf(defs, values), values).errors;
}

/** Names of the fields that show an error slot for the current values (value fields and dropboxes). */
export function shownFieldNames(defs: FieldDefinition[], values: SchemaValues): string[] {
  return defs
    .filter((d) => !DISPLAY_ONLY_TYPES.has(d.field_type) && d.field_type !== 'hidden' && isFieldShown(d, values))
    .map((d) => d.name);
}

export interface SchemaFormState {
  values: SchemaValues;
  errors: SchemaErrors;
  /** Sets one value and clears its error and its confirmation counterpart's (docs/requirements/behaviour.md). */
  setValue(name: string, value: unknown): void;
  /** Merges values (e.g. what the server saved) into the current ones. */
  mergeValues(values: SchemaValues): void;
  /** Replaces all values. */
  resetValues(values: SchemaValues): void;
  /**
   * Stores the server's errors (first message per field). With `only`, errors of those names are
   * replaced and the rest kept; otherwise all errors are replaced.
   */
  applyErrors(errors: FieldErrors, only?: string[]): void;
  /** Clears the errors of the given names, or all. */
  clearErrors(names?: string[]): void;
}

/**
 * Values and errors of a schema-driven form (wizard page, dynamic form). It mirrors the form kit's
 * semantics (docs/requirements/behaviour.md "Generic form status"): first message per field, editing a field clears its
 * error and that of its `_confirmation` counterpart in both directions.
 */
export function useSchemaValues(initial: () => SchemaValues): SchemaFormState {
  const [values, setValues] = useState<SchemaValues>(initial);
  const [errors, setErrors] = useState<SchemaErrors>({});

  const setValue = useCallback((name: string, value: unknown) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      const targets = errorsClearedBy(name).filter((n) => n in e);
      if (!targets.length) return e;
      return withoutKeys(e, targets);
    });
  }, []);

  const mergeValues = useCallback((more: SchemaValues) => setValues((v) => ({ ...v, ...more })), []);
  const resetValues = useCallback((next: SchemaValues) => setValues(next), []);

  const applyErrors = useCallback((fieldErrors: FieldErrors, only?: string[]) => {
    const first: SchemaErrors = {};
    for (const [name, messages] of Object.entries(fieldErrors ?? {})) {
      const message = Array.isArray(messages) ? messages[0] : String(messages);
      if (message) first[name] = message;
    }
    setErrors((e) => {
      if (!only) return first;
      return { ...withoutKeys(e, only), ...first };
    });
  }, []);

  const clearErrors = useCallback((names?: string[]) => {
    setErrors((e) => {
      if (!names) return Object.keys(e).length ? {} : e;
      return withoutKeys(e, names);
    });
  }, []);

  return useMemo(
    () => ({ values, errors, setValue, mergeValues, resetValues, applyErrors, clearErrors }),
    [values, errors, setValue, mergeValues, resetValues, applyErrors, clearErrors],
  );
}
