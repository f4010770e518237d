import { Alert, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { isRequired } from '../../../shared/forms/rules.ts';
import { toastFailure, toastSuccess } from '../../lib/feedback.tsx';
import { HttpFailure, submitTo } from '../../lib/http.ts';
import { SchemaFields } from './schema-field.tsx';
import {
  checkValues,
  initialValues,
  payloadOf,
  shownFieldNames,
  useSchemaValues,
  type SchemaValues,
} from './schema-values.ts';
import type { ContractAnswer, RouteAddress, RouteContract } from '../../../shared/contracts/contract.ts';
import type { DynamicFormConfig } from '../../../shared/forms/field-definition.ts';

export interface DynamicFormProps<C extends RouteContract> {
  config: DynamicFormConfig;
  /**
   * Where to save: the contract of the route the config's `action` and `method` name (the page
   * knows which form it shows, so the call is typed by that route's contract).
   */
  route: C | RouteAddress<C>;
  /** The server's answer after a successful save, "passed on to listeners" (docs/requirements/calls.md). */
  onSaved?: (response: ContractAnswer<C>, values: SchemaValues) => void;
  /** Level of the title heading; default 2. */
  headingOrder?: 1 | 2 | 3;
}

/**
 * docs/requirements/entities.md "Dynamic form configuration": title, optional alert, fields, and Save — or a disabled
 * Locked button when `is_disabled` — plus Cancel (back in history) when `is_cancelable`.
 * Saves all shown value fields to `route` (the config's `action` with its `method`, default put). Success: clears the form when
 * `is_clearing` (names starting with `_` kept), toast 'Success!' / 'Your data was saved.' when
 * `post_notification`. A 422 puts the errors under the fields; any other failure toasts
 * 'Uh oh!' / "That didn't work." and disables the form (docs/requirements/errors.md).
 */
export function DynamicForm<C extends RouteContract>({
  config,
  route,
  onSaved,
  headingOrder = 2,
}: DynamicFormProps<C>) {
  const navigate = useNavigate();
  const defs = config.schema;
  const state = useSchemaValues(() => initialValues(defs, config.fields));
  const [saving, setSaving] = useState(false);
  const [broken, setBroken] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const locked = !!config.is_disabled;
  const hasRequiredFields = config.has_required_fields !== false;

  const shown = useMemo(() => shownFieldNames(defs, state.values), [defs, state.values]);
  const hasErrors = shown.some((n) => state.errors[n]);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (locked || broken || saving) return;
    setFormError(null);
    const local = checkValues(defs, state.values);
    if (Object.keys(local).length) {
      state.applyErrors(local);
      return;
    }
    setSaving(true);
    try {
      const response = await submitTo(route, undefined, payloadOf(defs, state.values));
      const saved = state.values;
      if (config.is_clearing) {
        const keep = Object.fromEntries(Object.entries(saved).filter(([k]) => k.startsWith('_')));
        state.resetValues({ ...initialValues(defs, {}), ...keep });
      }
      state.clearErrors();
      if (config.post_notification) toastSuccess('Your data was saved.');
      onSaved?.(response, saved);
    } catch (err) {
      const failure = err instanceof HttpFailure ? err : new HttpFailure(0, String(err));
      if (failure.status === 422) {
        state.applyErrors(failure.errors);
        const stray = Object.entries(failure.errors).find(([name]) => !shown.includes(name));
        setFormError(stray?.[1]?.[0] ?? (Object.keys(failure.errors).length ? null : failure.message));
      } else {
        toastFailure();
        setBroken(true);
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <Box component="form" onSubmit={save} noValidate aria-label={config.title || 'Form'} aria-busy={saving}>
      <Stack gap="md">
        {config.title && (
          <Title order={headingOrder} size="h3">
            {config.title}
          </Title>
        )}
        {config.alert && (
          <Alert color="blue" variant="light">
            {config.alert}
          </Alert>
        )}
        {hasRequiredFields && defs.some(isRequired) && (
          <Text size="sm" c="dimmed">
            Fields marked{' '}
            <Text span c="red" aria-hidden>
              *
            </Text>{' '}
            are required.
          </Text>
        )}
        <SchemaFields
          defs={defs}
          state={state}
          disabled={locked || broken || saving}
          hasRequiredFields={hasRequiredFields}
        />
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        {broken && (
          <Alert color="red" role="alert">
            This form could not be saved. Please reload the page and try again.
          </Alert>
        )}
        <Group>
          {locked ? (
            <Button disabled>Locked</Button>
          ) : (
            <Button type="submit" loading={saving} disabled={broken || hasErrors}>
              Save
            </Button>
          )}
          {config.is_cancelable && (
            <Button variant="default" onClick={() => navigate(-1)} disabled={saving}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </Box>
  );
}
