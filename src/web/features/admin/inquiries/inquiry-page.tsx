import { Alert, Anchor, Badge, Button, Card, Center, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { adminInboxContracts } from '../../../../shared/contracts/admin-inbox.ts';
import { INQUIRY_KIND_LABELS } from '../../../../shared/lists/subjects.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { call } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';

const LABELS: Record<string, string> = {
  subject: 'Subject',
  message: 'Message',
  ein: 'EIN',
  group_id: 'Group exemption number',
  affiliates: 'Number of affiliates',
  regions: 'Nationwide or regional',
  concerns: 'Biggest concerns',
};

/** One inquiry with every field, and the button to mark it handled. */
export default function InquiryPage() {
  const { id = '' } = useParams();
  const client = useQueryClient();
  const read = queryOf(adminInboxContracts.show, { params: { id } });
  const q = useQuery({ ...read, retry: false });
  const mark = useMutation({
    mutationFn: (isHandled: boolean) =>
      call(adminInboxContracts.handled, { params: { id }, body: { is_handled: isHandled } }),
    onSuccess: (data) => {
      client.setQueryData(read.queryKey, data);
      void client.invalidateQueries({ queryKey: keyOf(adminInboxContracts.list) });
      toastSuccess(data.is_handled ? 'Marked as handled.' : 'Marked as new.');
    },
    onError: () => toastFailure(),
  });
  if (q.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) return <Alert color="red">This inquiry could not be found.</Alert>;
  const r = q.data;
  const rows: [string, string][] = [
    ['Received', showDateTime(r.created_at)],
    ['Name', r.name],
    ['E-mail', r.email],
    ['Phone', r.phone],
    [r.kind === 'campus_report' ? 'Campus' : 'Organization', r.organization],
    ...Object.entries(r.details).map(([k, v]) => [LABELS[k] ?? k, String(v ?? '')] as [string, string]),
  ].filter(([, v]) => v !== '') as [string, string][];
  return (
    <>
      <PageHeader title={`${INQUIRY_KIND_LABELS[r.kind] ?? r.kind} #${r.id}`} />
      <AdminNav />
      <Card withBorder padding="lg">
        <Stack>
          <Group justify="space-between">
            <Badge size="lg" color={r.is_handled ? 'gray' : 'blue'}>
              {r.is_handled ? 'Handled' : 'New'}
            </Badge>
            <Button
              onClick={() => mark.mutate(!r.is_handled)}
              loading={mark.isPending}
              variant={r.is_handled ? 'default' : 'filled'}
            >
              {r.is_handled ? 'Mark as new' : 'Mark as handled'}
            </Button>
          </Group>
          {r.is_handled && r.handled_by && (
            <Text size="sm" c="dimmed">
              Handled by {r.handled_by}
              {r.handled_at ? ` on ${showDateTime(r.handled_at)}` : ''}.
            </Text>
          )}
          <Table aria-label="Inquiry fields">
            <Table.Tbody>
              {rows.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th w={220}>{k}</Table.Th>
                  <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group>
            <Button component="a" href={`mailto:${r.email}`} variant="light">
              Reply by e-mail
            </Button>
            <Anchor component={Link} to="/admin/inquiries">
              Back to the inbox
            </Anchor>
          </Group>
        </Stack>
      </Card>
    </>
  );
}
