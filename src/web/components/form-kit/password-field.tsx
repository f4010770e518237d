import { PasswordInput } from '@mantine/core';
import { useId } from 'react';
import { star, useKit, type FieldProps } from './kit.tsx';
import { PasswordMeter } from './password-meter.tsx';

/** A password input with the five-bar strength meter and its visible label (docs/requirements/validation.md). */
export function PasswordField({ withMeter = false, ...p }: FieldProps & { withMeter?: boolean }) {
  const kit = useKit();
  const reg = kit.form.register(p.name, { onChange: () => kit.clearFieldError(p.name) });
  const value = String(kit.form.watch(p.name) ?? '');
  const meterId = useId();
  return (
    <div>
      <PasswordInput
        {...reg}
        label={p.label}
        description={p.description}
        autoComplete={p.autoComplete ?? 'new-password'}
        withAsterisk={star(kit, p.required)}
        aria-required={p.required || undefined}
        aria-describedby={withMeter ? meterId : undefined}
        error={kit.errorOf(p.name)}
        disabled={kit.submitting}
      />
      {withMeter && <PasswordMeter id={meterId} password={value} />}
    </div>
  );
}
