import { useMemo, useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { errorsClearedBy, toFieldErrors, type FieldErrors } from '../../../shared/field-errors.ts';
import { captchaToken } from '../../lib/captcha.ts';
import { HttpFailure, submitTo } from '../../lib/http.ts';
import type { ContractAnswer, RouteAddress, RouteContract } from '../../../shared/contracts/contract.ts';
import type { z } from 'zod';

export interface ServerFormOptions<V extends FieldValues, C extends RouteContract> {
  /**
   * Where the form is sent (docs/requirements/calls.md: page-supplied action): the route's contract,
   * or its `routeAt` address on a page that loads no zod first; its success answer types `send` and `onSuccess`.
   */
  route: C | RouteAddress<C>;
  /** The route's path parameters, when its URL has `:name` parts. */
  params?: Record<string, string | number>;
  defaultValues: V;
  /** The payload's shared zod schema: checked before sending, with the server's messages. */
  schema?: z.ZodType;
  /**
   * The same, loaded when the form is first used (focused or sent), so that a public page does
   * not load zod and build its schema before it is interactive (docs/requirements/platform.md §6). If it cannot be
   * loaded, the server's check alone answers.
   */
  loadSchema?: () => Promise<z.ZodType>;
  /** Set to send a captcha token as `g-recaptcha-response` when a captcha is configured. */
  captchaAction?: string;
  /** Stars on required fields; false hides them (docs/requirements/behaviour.md `has_required_fields`). */
  hasRequiredFields?: boolean;
  /** Clear the fields after success (default true); names starting with `_` are always kept. */
  isClearing?: boolean;
  /** Names kept after a successful, clearing submit (besides `_`-prefixed ones). */
  keepOnClear?: string[];
  /** Sends the checked values instead of a JSON request (e.g. a multipart upload). */
  send?: (values: V, captchaToken: string | null) => Promise<ContractAnswer<C>>;
  /** Turns form values into the payload (checkbox booleans become 1/0 by default). */
  toPayload?: (values: V) => Record<string, unknown>;
  onSuccess?: (response: ContractAnswer<C>, values: V) => void;
  onFailure?: (failure: HttpFailure) => void;
  /**
   * Whether the form shows a 429's message (too many attempts, and when to try again: docs/security.md
   * "Limits on mail and payments") above its submit button; default true. A page that shows it
   * its own way sets false and reads it in onFailure.
   */
  showsTooMany?: boolean;
}

export interface ServerForm<V extends FieldValues> {
  form: UseFormReturn<V>;
  submit: (e?: React.BaseSyntheticEvent) => Promise<void>;
  /** Starts loading what sending needs (the lazily loaded schema); the form calls it on focus. */
  prepare: () => void;
  submitting: boolean;
  /** Any field shows an error: the submit button is disabled (docs/requirements/behaviour.md). */
  hasErrors: boolean;
  /** Error messages not tied to a field of this form (e.g. captcha). */
  formError: string | null;
  hasRequiredFields: boolean;
  errorOf(name: string): string | undefined;
  /** Editing a field clears its error and its confirmation counterpart's, in both directions (docs/requirements/behaviour.md). */
  clearFieldError(name: string): void;
}

/** Checkbox booleans travel as 1 or 0 (docs/requirements/entities.md). */
export function defaultPayload(values: FieldValues): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? 1 : 0) : v]));
}

/**
 * The generic form status of docs/requirements/behaviour.md on top of React Hook Form: server errors under each field
 * (first message), submit disabled while any error shows, editing clears the field's error,
 * success clears the fields except `_`-prefixed ones, loading while sending (and, in KitForm,
 * until the page is interactive).
 */
export function useServerForm<V extends FieldValues, C extends RouteContract>(
  opts: ServerFormOptions<V, C>,
): ServerForm<V> {
  const form = useForm<V>({ defaultValues: opts.defaultValues as DefaultValues<V> });
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const fieldNames = useMemo(() => new Set(Object.keys(opts.defaultValues)), [opts.defaultValues]);
  const { errors } = form.formState;

  const applyErrors = (fieldErrors: FieldErrors) => {
    const stray: string[] = [];
    for (const [name, messages] of Object.entries(fieldErrors)) {
      if (fieldNames.has(name))
        form.setError(name as Path<V>, { type: 'server', message: messages[0] }, { shouldFocus: false });
      else stray.push(messages[0]);
    }
    setFormError(stray[0] ?? null);
  };

  const loadSchema = async (): Promise<z.ZodType | undefined> => {
    if (opts.schema || !opts.loadSchema) return opts.schema;
    try {
      return await opts.loadSchema();
    } catch {
      return undefined;
    }
  };

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const schema = await loadSchema();
    if (schema) {
      const checked = schema.safeParse(values);
      if (!checked.success) {
        applyErrors(toFieldErrors(checked.error));
        return;
      }
    }
    setSubmitting(true);
    try {
      const token = (opts.captchaAction ? await captchaToken(opts.captchaAction) : undefined) ?? null;
      let response: ContractAnswer<C>;
      if (opts.send) {
        response = await opts.send(values, token);
      } else {
        const payload = (opts.toPayload ?? defaultPayload)(values);
        if (token) payload['g-recaptcha-response'] = token;
        response = await submitTo(opts.route, opts.params, payload);
      }
      if (opts.isClearing !== false) {
        const kept = new Set(opts.keepOnClear ?? []);
        const keep = Object.fromEntries(Object.entries(values).filter(([k]) => k.startsWith('_') || kept.has(k)));
        form.reset({ ...opts.defaultValues, ...keep } as V);
      }
      form.clearErrors();
      opts.onSuccess?.(response, values);
    } catch (err) {
      const failure = err instanceof HttpFailure ? err : new HttpFailure(0, String(err));
      applyErrors(failure.errors);
      if (failure.status === 429 && opts.showsTooMany !== false) setFormError(failure.message);
      opts.onFailure?.(failure);
    } finally {
      setSubmitting(false);
    }
  });

  return {
    form,
    submit,
    prepare: () => void loadSchema(),
    submitting,
    hasErrors: Object.keys(errors).length > 0,
    formError,
    hasRequiredFields: opts.hasRequiredFields !== false,
    errorOf: (name) => {
      const e = errors[name as keyof typeof errors] as { message?: string } | undefined;
      return e?.message;
    },
    clearFieldError: (name) => {
      const targets = errorsClearedBy(name).filter((n) => errors[n as keyof typeof errors]);
      if (targets.length) form.clearErrors(targets as Path<V>[]);
      if (formError) setFormError(null);
    },
  };
}
