import { NativeSelect } from '@mantine/core';
import { initialValue, star, useKit, type FieldProps } from './kit.tsx';

/** A native select: options as [value, label] pairs; the first, empty one prompts. */
export function SelectField({
  options,
  prompt = 'Choose…',
  ...p
}: FieldProps & { options: readonly (readonly [string, string])[]; prompt?: string }) {
  const kit = useKit();
  const reg = kit.form.register(p.name, { onChange: () => kit.clearFieldError(p.name) });
  return (
    <NativeSelect
      {...reg}
      defaultValue={initialValue(kit, p.name)}
      label={p.label}
      description={p.description}
      data={[{ value: '', label: prompt }, ...options.map(([value, label]) => ({ value, label }))]}
      withAsterisk={star(kit, p.required)}
      aria-required={p.required || undefined}
      error={kit.errorOf(p.name)}
      disabled={kit.submitting}
    />
  );
}
