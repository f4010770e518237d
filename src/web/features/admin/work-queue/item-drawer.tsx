import {
  Alert,
  Anchor,
  Badge,
  Center,
  Divider,
  Drawer,
  Group,
  Loader,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { workQueueContracts } from '../../../../shared/contracts/work-queue.ts';
import { formatEin } from '../../../../shared/rules/formats.ts';
import { toastSuccess } from '../../../lib/feedback.tsx';
import { showDateTime } from '../../../lib/locale.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { showFailure } from '../use-admin-form.ts';
import { ApplicantPanel } from './applicant-panel.tsx';
import { postAction, type ActionAnswer, type ItemActs } from './item-actions.ts';
import { ItemAssignment, ItemNotes } from './item-notes.tsx';
import { ItemResolution } from './item-resolution.tsx';
import { LetterReview } from './letter-review.tsx';

/**
 * One item in a drawer (docs/work-queue.md "Actions"): what was found, its account, its letter or
 * applicant, assignment, notes, resolution and history; each action posts to its route, and its
 * answer replaces the item and refreshes the list and the counts.
 */
export function ItemDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const client = useQueryClient();
  const read = queryOf(workQueueContracts.show, { params: { id: String(id) } });
  const q = useQuery(read);
  const done = (answer: ActionAnswer) => {
    toastSuccess(answer.message);
    client.setQueryData(read.queryKey, answer.item);
    void client.invalidateQueries({ queryKey: keyOf(workQueueContracts.list) });
  };
  const act: ItemActs = useMutation({
    mutationFn: ({ form: _form, ...action }) => postAction(id, action),
    onSuccess: (answer, { form }) => {
      form?.reset();
      done(answer);
    },
    onError: (err, { form }) => (form ? form.fail(err) : showFailure(err)),
  });
  const item = q.data;
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="lg"
      title={<Text fw={700}>{item ? item.kind_label : 'Work item'}</Text>}
    >
      {q.isPending && (
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      )}
      {q.isError && <Alert color="red">The work item could not be loaded.</Alert>}
      {item && (
        <Stack gap="md">
          <Group gap="xs">
            <Badge color={item.status === 'open' ? 'blue' : 'green'} variant="light">
              {item.status === 'open' ? 'Open' : 'Resolved'}
            </Badge>
            {item.released_on && (
              <Text size="sm" c="dimmed">
                per IRS data released {item.released_on}
              </Text>
            )}
          </Group>
          {item.account && (
            <Text>
              <Anchor component={Link} to={`/admin/accounts/show/${item.account.id}`} fw={600}>
                {item.account.name}
              </Anchor>
              {item.ein && (
                <Text span c="dimmed" size="sm">
                  {' '}
                  · EIN {formatEin(item.ein)}
                </Text>
              )}
            </Text>
          )}
          <Text>{item.summary}</Text>

          <LetterReview item={item} act={act} />
          <ApplicantPanel item={item} />
          <ItemAssignment item={item} act={act} />
          <ItemNotes item={item} act={act} />
          <Divider />
          <ItemResolution item={item} act={act} done={done} />
          <Divider />
          <Title order={3} size="h5">
            History
          </Title>
          <Timeline bulletSize={12} lineWidth={2} aria-label="History">
            {item.history.map((h, i) => (
              <Timeline.Item key={i} title={<Text size="sm">{h.text}</Text>}>
                <Text size="xs" c="dimmed">
                  {showDateTime(h.at)}
                  {h.actor ? ` · ${h.actor}` : ''}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        </Stack>
      )}
    </Drawer>
  );
}
