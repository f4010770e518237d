import { Button, Divider, Group, NativeSelect, Stack, Text, Textarea, Title } from '@mantine/core';
import { workItemNoteSchema } from '../../../../shared/schemas/work-queue.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { useAdminForm } from '../use-admin-form.ts';
import { useStaff, type ItemActs, type WorkItemView } from './item-actions.ts';

/** Who the item is assigned to, with "Assign to me" (docs/work-queue.md "Actions"). */
export function ItemAssignment({ item, act }: { item: WorkItemView; act: ItemActs }) {
  const staff = useStaff().data?.staff ?? [];
  return (
    <Group align="flex-end" gap="xs">
      <NativeSelect
        label="Assigned to"
        value={item.assignee ? String(item.assignee.id) : ''}
        w={240}
        onChange={(e) => act.mutate({ path: 'assign', body: { assignee: e.currentTarget.value || null } })}
        data={[{ value: '', label: 'Nobody' }, ...staff.map((s) => ({ value: String(s.id), label: s.name }))]}
      />
      <Button
        variant="default"
        onClick={() => act.mutate({ path: 'assign', body: { assignee: 'me' } })}
        loading={act.isPending && act.variables?.path === 'assign'}
      >
        Assign to me
      </Button>
    </Group>
  );
}

/** The item's notes, oldest first, and the form that adds one. */
export function ItemNotes({ item, act }: { item: WorkItemView; act: ItemActs }) {
  const note = useAdminForm({ body: '' }, workItemNoteSchema);
  return (
    <>
      <Divider />
      <Title order={3} size="h5">
        Notes
      </Title>
      {item.notes.length === 0 && (
        <Text size="sm" c="dimmed">
          No notes yet.
        </Text>
      )}
      {item.notes.map((n) => (
        <div key={n.id}>
          <Text size="xs" c="dimmed">
            {n.author ?? 'A former staff user'} · {showDateTime(n.created_at)}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {n.body}
          </Text>
        </div>
      ))}
      <form
        noValidate
        aria-label="Add a note"
        onSubmit={(e) => {
          e.preventDefault();
          if (note.check()) act.mutate({ path: 'notes', body: note.values, form: note });
        }}
      >
        <Stack gap="xs">
          <Textarea
            label="Note"
            autosize
            minRows={2}
            value={note.values.body}
            error={note.errors.body}
            onChange={(e) => note.change({ body: e.currentTarget.value })}
          />
          <Group>
            <Button type="submit" variant="default" loading={act.isPending && act.variables?.path === 'notes'}>
              Add note
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
