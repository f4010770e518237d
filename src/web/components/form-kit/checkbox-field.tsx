import { Checkbox } from '@mantine/core';
import { useKit, type FieldProps } from './kit.tsx';

/** A checkbox of the form kit. */
export function CheckboxField(p: Omit<FieldProps, 'placeholder'>) {
  const kit = useKit();
  const reg = kit.form.register(p.name, { onChange: () => kit.clearFieldError(p.name) });
  return (
    <Checkbox
      {...reg}
      label={p.label}
      description={p.description}
      error={kit.errorOf(p.name)}
      disabled={kit.submitting}
    />
  );
}
