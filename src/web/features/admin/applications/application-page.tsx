import { Alert, Anchor, Badge, Card, Center, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { adminApplicationsContracts } from '../../../../shared/contracts/admin-applications.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { showDateTime } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { STATUS_COLOR } from './applications-page.tsx';

/** One application with every answer under its question's label. */
export default function ApplicationPage() {
  const { id = '' } = useParams();
  const q = useQuery({
    ...queryOf(adminApplicationsContracts.show, { params: { id } }),
    retry: false,
  });
  if (q.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) return <Alert color="red">This application could not be found.</Alert>;
  const a = q.data;
  const answers = Object.entries(a.fields).filter(([, v]) => v !== '' && v !== null && v !== undefined);
  return (
    <>
      <PageHeader title={`Application #${a.id}`} lead={`${a.level} · ${a.email}`} />
      <AdminNav />
      <Card withBorder padding="lg">
        <Stack>
          <Group>
            <Badge size="lg" color={STATUS_COLOR[a.status] ?? 'gray'}>
              {a.status}
            </Badge>
            <Text size="sm" c="dimmed">
              Started {showDateTime(a.created_at)} · last activity {showDateTime(a.updated_at)}
              {a.completed_at ? ` · submitted ${showDateTime(a.completed_at)}` : ''}
            </Text>
          </Group>
          {a.account_id && (
            <Anchor component={Link} to={`/app/account/show/${a.account_id}`}>
              Open the organization’s profile
            </Anchor>
          )}
          {answers.length === 0 ? (
            <Text c="dimmed">No answers saved yet.</Text>
          ) : (
            <Table aria-label="Answers">
              <Table.Tbody>
                {answers.map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Th w={320}>{a.labels[k] ?? k}</Table.Th>
                    <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{String(v)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Anchor component={Link} to="/admin/applications">
            Back to applications
          </Anchor>
        </Stack>
      </Card>
    </>
  );
}
