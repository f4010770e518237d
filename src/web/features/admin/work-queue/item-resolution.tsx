import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { workQueueContracts } from '../../../../shared/contracts/work-queue.ts';
import { workItemResolveSchema } from '../../../../shared/schemas/work-queue.ts';
import { confirmAction } from '../../../lib/feedback.tsx';
import { call } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { keyOf } from '../../../lib/queries.ts';
import { showFailure } from '../use-admin-form.ts';
import { TextActionForm } from './text-action-form.tsx';
import type { ActionAnswer, ItemActs, WorkItemView } from './item-actions.ts';

/**
 * How the item ends (docs/work-queue.md "Actions"): a pending letter is ended by its review, an
 * applicant still linkable by "Link the applicant" (asked to confirm), any other open item by its
 * resolution; a resolved item shows what was done, with Reopen.
 */
export function ItemResolution({
  item,
  act,
  done,
}: {
  item: WorkItemView;
  act: ItemActs;
  done: (answer: ActionAnswer) => void;
}) {
  const client = useQueryClient();
  const id = item.id;
  const link = useMutation({
    mutationFn: () => call(workQueueContracts.linkApplicant, { params: { id: String(id) } }),
    onSuccess: done,
    onError: (err) => {
      showFailure(err);
      void client.invalidateQueries({ queryKey: keyOf(workQueueContracts.show, { id: String(id) }) });
    },
  });
  const confirmLink = async (accountName: string) => {
    const ok = await confirmAction({
      title: 'Link the applicant',
      message: `The applicant becomes the primary user of ${accountName}. Their application is completed on this account with its first invoice, and they are told by mail that they can sign in and pay.`,
      confirm: 'Link the applicant',
      confirmColor: 'green',
    });
    if (ok) link.mutate();
  };
  const canLink = item.link && item.status === 'open' && item.link.blocked === null;
  return (
    <>
      {item.letter?.status === 'pending' ? (
        <Text size="sm" c="dimmed">
          Accept the letter or send it back to resolve this item.
        </Text>
      ) : canLink ? (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            Linking makes the applicant the account's primary user, completes their application on it with its first
            invoice, and resolves this item.
          </Text>
          <Group>
            <Button
              color="green"
              onClick={() => void confirmLink(item.account?.name ?? 'the account')}
              loading={link.isPending}
            >
              Link the applicant
            </Button>
          </Group>
        </Stack>
      ) : item.status === 'open' ? (
        <TextActionForm
          act={act}
          field="resolution"
          schema={workItemResolveSchema}
          toAction={(resolution) => ({ path: 'resolve', body: { resolution } })}
          formLabel="Resolve the item"
          label="Resolution"
          description="What was done, e.g. listed in the annual GEN update."
          submit="Resolve"
          button={{ color: 'green' }}
        />
      ) : (
        <Stack gap="xs">
          <Text size="sm">
            Resolved {item.resolved_at ? showDateTime(item.resolved_at) : ''}
            {item.resolved_by ? ` by ${item.resolved_by.name}` : ''}: {item.resolution}
          </Text>
          <Group>
            <Button
              variant="default"
              onClick={() => act.mutate({ path: 'reopen' })}
              loading={act.isPending && act.variables?.path === 'reopen'}
            >
              Reopen
            </Button>
          </Group>
        </Stack>
      )}
    </>
  );
}
