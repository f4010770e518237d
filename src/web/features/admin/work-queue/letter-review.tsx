import { Anchor, Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { workQueueContracts } from '../../../../shared/contracts/work-queue.ts';
import { letterAcceptSchema, letterReturnSchema } from '../../../../shared/schemas/work-queue.ts';
import { hrefOf } from '../../../lib/http.ts';
import { useAdminForm } from '../use-admin-form.ts';
import { localToday, type ItemActs, type WorkItemView } from './item-actions.ts';
import { TextActionForm } from './text-action-form.tsx';

/**
 * The determination letter of an item (docs/work-queue.md "Determination letters"): a link to the
 * file, its state, and while it is pending the two forms that accept it (with its date) or send it
 * back (with the reason the group reads).
 */
export function LetterReview({ item, act }: { item: WorkItemView; act: ItemActs }) {
  const accept = useAdminForm({ letter_date: '' }, letterAcceptSchema(localToday()));
  const id = item.id;
  const letter = item.letter;
  if (!letter) return null;
  return (
    <Stack gap="sm" component="section" aria-label="The determination letter">
      <Group gap="xs">
        <Anchor
          href={hrefOf(workQueueContracts.letter, { params: { id: String(id) } })}
          target="_blank"
          rel="noopener noreferrer"
          fw={600}
        >
          Open the letter{letter.file_name ? ` (${letter.file_name})` : ''}
        </Anchor>
        {letter.status === 'accepted' && (
          <Badge color="green" variant="light">
            Accepted, dated {letter.letter_date}
          </Badge>
        )}
        {letter.status === 'returned' && (
          <Badge color="orange" variant="light">
            Sent back
          </Badge>
        )}
      </Group>
      {letter.status === 'returned' && <Text size="sm">Reason given to the group: {letter.return_reason}</Text>}
      {letter.status === 'pending' && (
        <>
          <form
            noValidate
            aria-label="Accept the letter"
            onSubmit={(e) => {
              e.preventDefault();
              if (accept.check()) act.mutate({ path: 'accept-letter', body: accept.values, form: accept });
            }}
          >
            <Group align="flex-end" gap="xs">
              <TextInput
                type="date"
                label="Date on the letter"
                description="The exemption is recorded as recognized from the letter."
                max={localToday()}
                value={accept.values.letter_date}
                error={accept.errors.letter_date}
                onChange={(e) => accept.change({ letter_date: e.currentTarget.value })}
              />
              <Button type="submit" color="green" loading={act.isPending && act.variables?.path === 'accept-letter'}>
                Accept the letter
              </Button>
            </Group>
          </form>
          <TextActionForm
            act={act}
            field="reason"
            schema={letterReturnSchema}
            toAction={(reason) => ({ path: 'return-letter', body: { reason } })}
            formLabel="Send the letter back"
            label="Reason for the group"
            description="Sent to the group by mail and shown on its home, with a request for a new upload."
            submit="Send it back"
            button={{ color: 'orange', variant: 'light' }}
          />
        </>
      )}
    </Stack>
  );
}
