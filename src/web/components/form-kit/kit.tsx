/**
 * The form kit's form, its text field and submit button, and what its other fields share. The
 * other fields are modules of their own (textarea-field.tsx, select-field.tsx, checkbox-field.tsx,
 * password-field.tsx), imported from there, so a page's chunks hold the Mantine inputs of the
 * fields it shows only (docs/ARCHITECTURE.md "Initial JavaScript").
 */
import { Alert, Box, Button, Group, LoadingOverlay, Stack, Text, TextInput } from '@mantine/core';
import { createContext, useContext, type ReactNode } from 'react';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { HydrationFieldset } from './hydration-fieldset.tsx';
import type { ServerForm } from './use-server-form.ts';
import type { FieldValues } from 'react-hook-form';

const KitContext = createContext<ServerForm<FieldValues> | null>(null);

/** The form around a field. @throws outside a {@link KitForm} */
export function useKit(): ServerForm<FieldValues> {
  const kit = useContext(KitContext);
  if (!kit) throw new Error('Form fields must be inside <KitForm>.');
  return kit;
}

/**
 * A form wired to a {@link ServerForm}: loading overlay, form-level error, required-fields note
 * and the fields given as children. `aria-label` names the form for assistive technology.
 */
export function KitForm<V extends FieldValues>({
  kit,
  children,
  label,
  footer,
}: {
  kit: ServerForm<V>;
  children: ReactNode;
  label: string;
  footer?: ReactNode;
}) {
  return (
    <KitContext.Provider value={kit as unknown as ServerForm<FieldValues>}>
      <Box
        component="form"
        pos="relative"
        onSubmit={kit.submit}
        onFocus={kit.prepare}
        noValidate
        aria-label={label}
        aria-busy={kit.submitting}
      >
        <FormLoadingOverlay submitting={kit.submitting} />
        <HydrationFieldset>
          <Stack gap="md">
            {kit.hasRequiredFields && (
              <Text size="sm" c="dimmed">
                Fields marked{' '}
                <Text span c="red" aria-hidden>
                  *
                </Text>{' '}
                are required.
              </Text>
            )}
            {children}
            {kit.formError && (
              <Alert color="red" role="alert">
                {kit.formError}
              </Alert>
            )}
            {footer}
          </Stack>
        </HydrationFieldset>
      </Box>
    </KitContext.Provider>
  );
}

/**
 * The form's loading state (docs/requirements/behaviour.md): shown until the page is interactive and while sending. The
 * switch at hydration re-renders this overlay and the fieldset alone, not the page that holds the
 * form: on a phone a second render of the whole page was a long task right after it appeared.
 */
function FormLoadingOverlay({ submitting }: { submitting: boolean }) {
  const hydrated = useHydrated();
  return (
    <LoadingOverlay
      visible={!hydrated || submitting}
      zIndex={10}
      overlayProps={{ blur: 1 }}
      loaderProps={{ role: 'status', 'aria-label': 'Loading' } as never}
    />
  );
}

/** What every field of the kit takes. */
export interface FieldProps {
  name: string;
  label: string;
  required?: boolean;
  description?: ReactNode;
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
}

/** Whether the field shows the required star (only when the form says starred fields are required). */
export const star = (kit: ServerForm<FieldValues>, required?: boolean) => !!required && kit.hasRequiredFields;

/**
 * The field's default value as an HTML attribute, so the server's render of the page shows it
 * (React Hook Form itself fills registered fields only in the browser).
 */
export function initialValue(kit: ServerForm<FieldValues>, name: string): string | undefined {
  const value: unknown = kit.form.formState.defaultValues?.[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** A text input (type text, email, tel, number ...). */
export function TextField({
  type = 'text',
  inputMode,
  ...p
}: FieldProps & { type?: string; inputMode?: 'numeric' | 'email' | 'tel' | 'text' }) {
  const kit = useKit();
  const reg = kit.form.register(p.name, { onChange: () => kit.clearFieldError(p.name) });
  return (
    <TextInput
      {...reg}
      defaultValue={initialValue(kit, p.name)}
      type={type}
      inputMode={inputMode}
      label={p.label}
      description={p.description}
      placeholder={p.placeholder}
      autoComplete={p.autoComplete}
      maxLength={p.maxLength}
      withAsterisk={star(kit, p.required)}
      aria-required={p.required || undefined}
      error={kit.errorOf(p.name)}
      disabled={kit.submitting}
    />
  );
}

/**
 * The submit button: disabled while any field shows an error or the form is sending (docs/requirements/behaviour.md), and
 * with the whole fieldset until the page is interactive.
 */
export function SubmitButton({ children, extra }: { children: ReactNode; extra?: ReactNode }) {
  const kit = useKit();
  return (
    <Group>
      <Button type="submit" loading={kit.submitting} disabled={kit.hasErrors || kit.submitting}>
        {children}
      </Button>
      {extra}
    </Group>
  );
}
