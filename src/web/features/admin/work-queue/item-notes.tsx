import { Button, Divider, Group, NativeSelect, Text, Title } from '@mantine/core';
import { workItemNoteSchema } from '../../../../shared/schemas/work-queue.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { useStaff, type ItemActs, type WorkItemView } from './item-actions.ts';
import { TextActionForm } from './text-action-form.tsx';

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
      <TextActionForm
        act={act}
        field="body"
        schema={workItemNoteSchema}
        toAction={(body) => ({ path: 'notes', body: { body } })}
        formLabel="Add a note"
        label="Note"
        submit="Add note"
        button={{ variant: 'default' }}
      />
    </>
  );
}
