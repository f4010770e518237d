import { Textarea } from '@mantine/core';
import { initialValue, star, useKit, type FieldProps } from './kit.tsx';

/** A multi-line text field of the form kit. */
export function TextareaField({ rows = 4, ...p }: FieldProps & { rows?: number }) {
  const kit = useKit();
  const reg = kit.form.register(p.name, { onChange: () => kit.clearFieldError(p.name) });
  return (
    <Textarea
      {...reg}
      defaultValue={initialValue(kit, p.name)}
      label={p.label}
      description={p.description}
      placeholder={p.placeholder}
      rows={rows}
      autosize={false}
      maxLength={p.maxLength}
      withAsterisk={star(kit, p.required)}
      aria-required={p.required || undefined}
      error={kit.errorOf(p.name)}
      disabled={kit.submitting}
    />
  );
}
