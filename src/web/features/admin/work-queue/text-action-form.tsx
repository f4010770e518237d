import { Button, Group, Stack, Textarea, type ButtonProps } from '@mantine/core';
import { useAdminForm } from '../use-admin-form.ts';
import type { ItemAction, ItemActs } from './item-actions.ts';
import type { z } from 'zod';

/**
 * A drawer form of one text (a note, a resolution, the reason a letter is sent back): checked by
 * its shared schema before it is posted through the drawer's one mutation, emptied once accepted,
 * the server's refusal shown under the field.
 * @param field the body's one field, e.g. 'body' or 'resolution'
 * @param toAction the action posted with the text typed
 */
export function TextActionForm({
  act,
  field,
  schema,
  toAction,
  formLabel,
  label,
  description,
  submit,
  button,
}: {
  act: ItemActs;
  field: string;
  schema: z.ZodType;
  toAction: (text: string) => ItemAction;
  formLabel: string;
  label: string;
  description?: string;
  submit: string;
  button?: ButtonProps;
}) {
  const form = useAdminForm<Record<string, string>>({ [field]: '' }, schema);
  const path = toAction('').path;
  return (
    <form
      noValidate
      aria-label={formLabel}
      onSubmit={(e) => {
        e.preventDefault();
        if (form.check()) act.mutate({ ...toAction(form.values[field] ?? ''), form });
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={label}
          description={description}
          autosize
          minRows={2}
          value={form.values[field]}
          error={form.errors[field]}
          onChange={(e) => form.change({ [field]: e.currentTarget.value })}
        />
        <Group>
          <Button type="submit" {...button} loading={act.isPending && act.variables?.path === path}>
            {submit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
