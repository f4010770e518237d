import { Alert, Anchor, Badge, Card, Center, Code, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { adminOutboxContracts } from '../../../../shared/contracts/admin-outbox.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { showDateTime } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';

/** One mail of the outbox with its text; the links of a mail carrying a one-time link are hidden by the server. */
export default function OutboxMailPage() {
  const { id = '' } = useParams();
  const q = useQuery({
    ...queryOf(adminOutboxContracts.show, { params: { id } }),
    retry: false,
  });
  if (q.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) return <Alert color="red">This mail could not be found.</Alert>;
  const m = q.data;
  return (
    <>
      <PageHeader title={m.subject} />
      <AdminNav />
      <Card withBorder padding="lg">
        <Stack gap="xs">
          <Group>
            <Badge>{m.status}</Badge>
            <Text size="sm" c="dimmed">
              {m.kind}
            </Text>
          </Group>
          <Text>
            <b>To:</b> {m.to}
          </Text>
          <Text>
            <b>Written:</b> {showDateTime(m.created_at)}
            {m.sent_at ? ` · sent ${showDateTime(m.sent_at)}` : ''}
          </Text>
          {m.last_error && (
            <Alert color="red" title={`Last error (attempt ${m.attempts})`}>
              {m.last_error}
            </Alert>
          )}
          {m.links_hidden && (
            <Alert color="blue" title="Link hidden">
              This mail carries a one-time link that lets its recipient act on their account, so it is not shown here.
              Once sent, only a note is kept.
            </Alert>
          )}
          <Code block style={{ whiteSpace: 'pre-wrap' }}>
            {m.text}
          </Code>
          <Anchor component={Link} to="/admin/outbox">
            Back to the outbox
          </Anchor>
        </Stack>
      </Card>
    </>
  );
}
