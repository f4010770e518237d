import { Anchor, Badge, Button, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { workQueueContracts } from '../../../../shared/contracts/work-queue.ts';
import { letterAcceptSchema, letterReturnSchema } from '../../../../shared/schemas/work-queue.ts';
import { hrefOf } from '../../../lib/http.ts';
import { useAdminForm } from '../use-admin-form.ts';
import { localToday, type ItemActs, type WorkItemView } from './item-actions.ts';

/**
 * The determination letter of an item (docs/work-queue.md "Determination letters"): a link to the
 * file, its state, and while it is pending the two forms that accept it (with its date) or send it
 * back (with the reason the group reads).
 */
export function LetterReview({ item, act }: { item: WorkItemView; act: ItemActs }) {
  const accept = useAdminForm({ letter_date: '' }, letterAcceptSchema(localToday()));
  const sendBack = useAdminForm({ reason: '' }, letterReturnSchema);
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
          <form
            noValidate
            aria-label="Send the letter back"
            onSubmit={(e) => {
              e.preventDefault();
              if (sendBack.check()) act.mutate({ path: 'return-letter', body: sendBack.values, form: sendBack });
            }}
          >
            <Stack gap="xs">
              <Textarea
                label="Reason for the group"
                description="Sent to the group by mail and shown on its home, with a request for a new upload."
                autosize
                minRows={2}
                value={sendBack.values.reason}
                error={sendBack.errors.reason}
                onChange={(e) => sendBack.change({ reason: e.currentTarget.value })}
              />
              <Group>
                <Button
                  type="submit"
                  color="orange"
                  variant="light"
                  loading={act.isPending && act.variables?.path === 'return-letter'}
                >
                  Send it back
                </Button>
              </Group>
            </Stack>
          </form>
        </>
      )}
    </Stack>
  );
}
