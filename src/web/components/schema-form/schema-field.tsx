import {
  Alert,
  Anchor,
  Box,
  Checkbox,
  Divider,
  Group,
  NativeSelect,
  PasswordInput,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  isFieldShown,
  isNumericallyTruthy,
  optionPairs,
  resolveSideLabel,
  type FieldDefinition,
} from '../../../shared/forms/field-definition.ts';
import { isRequired, parseRules } from '../../../shared/forms/rules.ts';
import { GREEK_NAMES } from '../../../shared/lists/greek-organizations.ts';
import { STATES } from '../../../shared/lists/states.ts';
import { DropboxField } from './dropbox-field.tsx';
import classes from './schema-form.module.css';
import type { SchemaFormState } from './schema-values.ts';
import type { ReactNode } from 'react';

const STATE_OPTIONS = Object.entries(STATES).map(([value, label]) => ({ value, label }));

export interface SchemaFieldsProps {
  defs: FieldDefinition[];
  state: SchemaFormState;
  /** Disables every input (form locked, busy, or broken after a failure). */
  disabled?: boolean;
  /** Stars required fields (docs/requirements/validation.md "Required marker"); false hides the stars. Default true. */
  hasRequiredFields?: boolean;
  /** Link fields open in a new tab, so reading help never leaves the form (the wizard). */
  linksInNewTab?: boolean;
}

/** Renders a list of field definitions for the current values; hidden conditional fields are left out. */
export function SchemaFields({
  defs,
  state,
  disabled = false,
  hasRequiredFields = true,
  linksInNewTab = false,
}: SchemaFieldsProps) {
  return (
    <div className={classes.fields}>
      {defs
        .filter((def) => isFieldShown(def, state.values))
        .map((def) => (
          <SchemaField
            key={def.name}
            def={def}
            state={state}
            disabled={disabled}
            hasRequiredFields={hasRequiredFields}
            linksInNewTab={linksInNewTab}
          />
        ))}
    </div>
  );
}

/** A readable label for a value field that has none: the name with underscores as spaces. */
function labelOf(def: FieldDefinition): string {
  if (def.label?.trim()) return def.label;
  const plain = def.name
    .replace(/^.*___/, '')
    .replace(/_+/g, ' ')
    .trim();
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** The text of a definition's link html, with its markup dropped (never injected as html). */
function linkText(html: string): string {
  if (typeof DOMParser === 'undefined') return html.replace(/<[^>]*>/g, '');
  // DOMParser documents are inert: no script runs and no resource loads.
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

/** Only same-site paths and web, mail and phone addresses are followed. */
function safeHref(href: string | undefined): string | null {
  if (!href) return null;
  const h = href.trim();
  if (/^\/(?!\/)/.test(h) || h.startsWith('#') || /^(https?:|mailto:|tel:)/i.test(h)) return h;
  return null;
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** One field of docs/requirements/entities.md "Field definition", by its `field_type`. */
function SchemaField({
  def,
  state,
  disabled = false,
  hasRequiredFields = true,
  linksInNewTab = false,
}: { def: FieldDefinition } & Omit<SchemaFieldsProps, 'defs'>) {
  const { values } = state;
  const value = values[def.name];
  const error = state.errors[def.name];
  const isDisabled = disabled || !!def.is_disabled;
  const required = hasRequiredFields && isRequired(def);
  const side = resolveSideLabel(def.side_label, values);
  const description = def.sub_label || def.description || undefined;
  const extraDescription = def.sub_label && def.description ? def.description : undefined;
  const common = {
    label: labelOf(def),
    description,
    placeholder: def.placeholder,
    error,
    disabled: isDisabled,
    withAsterisk: required,
    'aria-required': required || undefined,
  };
  const set = (v: unknown) => state.setValue(def.name, v);

  let body: ReactNode;
  switch (def.field_type) {
    case 'hidden':
      return <input type="hidden" name={def.name} value={str(value)} />;
    case 'divider':
      body = <Divider my="xs" label={def.label} labelPosition="left" />;
      break;
    case 'heading':
      body = (
        <Stack gap={2} className={classes.heading}>
          <Title order={3} size="h4">
            {def.label}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
      );
      break;
    case 'warning': {
      const text = def.description || def.instructions || def.sub_label;
      body = (
        <Alert color="yellow" variant="light" title={text ? def.label : undefined}>
          {text ?? def.label}
        </Alert>
      );
      break;
    }
    case 'link': {
      const href = safeHref(def.link?.href);
      const text = linkText(def.link?.html ?? '') || def.link?.href || def.label || '';
      const external = !!href && /^https?:/i.test(href);
      const newTab = external || (linksInNewTab && !!href && !href.startsWith('#'));
      body = (
        <Text size="sm">
          {def.label && def.label !== text && <>{def.label} </>}
          {href ? (
            <Anchor href={href} inherit {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
              {text}
              {newTab && <VisuallyHidden> (opens in a new tab)</VisuallyHidden>}
            </Anchor>
          ) : (
            text
          )}
        </Text>
      );
      break;
    }
    case 'textarea':
      body = (
        <Textarea
          {...common}
          rows={def.rows ?? 4}
          autosize={false}
          value={str(value)}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
      break;
    case 'date': {
      const v = str(value);
      body = (
        <TextInput
          {...common}
          type="date"
          value={/^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : v}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
      break;
    }
    case 'password':
      body = (
        <PasswordInput
          {...common}
          autoComplete="new-password"
          value={str(value)}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
      break;
    case 'checkbox':
      body = (
        <Checkbox
          label={common.label}
          description={description}
          error={error}
          disabled={isDisabled}
          aria-required={common['aria-required']}
          checked={isNumericallyTruthy(value)}
          onChange={(e) => set(e.currentTarget.checked ? 1 : 0)}
        />
      );
      break;
    case 'radio': {
      // The group's root is a plain wrapper (the radiogroup role sits inside it), where aria-required
      // is not allowed: the radios carry `required` instead (the forms are noValidate).
      const { 'aria-required': _required, ...groupProps } = common;
      body = (
        <Radio.Group {...groupProps} value={str(value) || null} onChange={(v) => set(v)} disabled={isDisabled}>
          <Stack gap={6} mt={6}>
            {optionPairs(def).map((o) => (
              <Radio
                key={o.value}
                value={o.value}
                label={o.label}
                disabled={isDisabled}
                required={required || undefined}
              />
            ))}
          </Stack>
        </Radio.Group>
      );
      break;
    }
    case 'state':
      body = (
        <NativeSelect
          {...common}
          data={[{ value: '', label: def.placeholder || 'Choose a state…' }, ...STATE_OPTIONS]}
          value={str(value)}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
      break;
    case 'select':
      body = (
        <NativeSelect
          {...common}
          data={[{ value: '', label: def.placeholder || 'Choose…' }, ...optionPairs(def)]}
          value={str(value)}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
      break;
    case 'greek':
      // A searchable select: typing narrows the list, and only a name on the list can be chosen
      // (the server refuses any other, shared/forms/rules.ts).
      body = (
        <Select
          {...common}
          placeholder={def.placeholder || 'Start typing, e.g. Sigma Chi'}
          data={GREEK_NAMES}
          searchable
          nothingFoundMessage="No organization by that name"
          value={GREEK_NAMES.includes(str(value)) ? str(value) : null}
          onChange={(v) => set(v ?? '')}
        />
      );
      break;
    case 'dropbox':
      body = (
        <DropboxField
          def={def}
          state={state}
          disabled={isDisabled}
          label={common.label}
          description={description}
          required={required}
        />
      );
      break;
    case 'text':
    default: {
      const rules = parseRules(def.rules).map((r) => r.name);
      const type = rules.includes('email') ? 'email' : 'text';
      const inputMode =
        rules.includes('numeric') || rules.includes('integer') || rules.includes('digits') ? 'numeric' : undefined;
      body = (
        <TextInput
          {...common}
          type={type}
          inputMode={inputMode}
          value={str(value)}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
      break;
    }
  }

  return (
    <Box
      className={[
        classes.field,
        def.flush ? classes.flush : '',
        def.is_accented ? classes.accented : '',
        def.add_class ?? '',
      ]
        .filter(Boolean)
        .join(' ')}
      data-field={def.name}
      data-accented={def.is_accented ? 'true' : undefined}
    >
      {side ? (
        <Group align="flex-start" wrap="nowrap" gap="sm">
          <Box className={classes.grow}>{body}</Box>
          <Text size="sm" className={classes.side}>
            {side}
          </Text>
        </Group>
      ) : (
        body
      )}
      {extraDescription && (
        <Text size="sm" c="dimmed" mt={4}>
          {extraDescription}
        </Text>
      )}
      {def.instructions && def.field_type !== 'warning' && (
        <Text size="xs" c="gray.7" mt={4}>
          {def.instructions}
        </Text>
      )}
    </Box>
  );
}
