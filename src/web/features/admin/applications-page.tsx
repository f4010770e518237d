import { Alert, Anchor, Badge, Card, Center, Group, Loader, NativeSelect, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { PageObject } from '../../../shared/rules/pagination.ts';
import { http } from '../../lib/http.ts';
import { showDateTime } from '../../lib/locale.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { PageNav } from '../../components/page-nav.tsx';
import { AdminNav } from './admin-nav.tsx';

interface ApplicationRow { id: number; email: string; level: string; type: string; status: string; page: number; account_id: number | null; updated_at: string }

export const STATUS_COLOR: Record<string, string> = { draft: 'blue', completed: 'green', deleted: 'gray' };

/** Admins see every application: drafts, completed and deleted, newest activity first. */
export default function ApplicationsPage() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    queryKey: ['admin-applications', status, page],
    queryFn: () => http.get<PageObject<ApplicationRow>>('/api/admin/applications', { status, page }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Applications" />
      <AdminNav />
      <Group mb="md">
        <NativeSelect label="Status" value={status} onChange={(e) => setParams(e.currentTarget.value ? { status: e.currentTarget.value } : {})}
          data={[{ value: '', label: 'All' }, { value: 'draft', label: 'Draft' }, { value: 'completed', label: 'Completed' }, { value: 'deleted', label: 'Deleted' }]} />
      </Group>
      <Card withBorder padding="md">
        {q.isPending && <Center py="xl"><Loader aria-label="Loading" /></Center>}
        {q.isError && <Alert color="red">The applications could not be loaded.</Alert>}
        {q.data && q.data.total === 0 && <Text c="dimmed" py="lg" ta="center">No applications yet.</Text>}
        {q.data && q.data.total > 0 && (
          <Table.ScrollContainer minWidth={700}>
            <Table striped highlightOnHover aria-label="Applications">
              <Table.Thead>
                <Table.Tr><Table.Th>Last activity</Table.Th><Table.Th>Applicant</Table.Th><Table.Th>Level</Table.Th><Table.Th>Page</Table.Th><Table.Th>Status</Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.data.data.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td><Anchor component={Link} to={`/admin/applications/${r.id}`}>{showDateTime(r.updated_at)}</Anchor></Table.Td>
                    <Table.Td>{r.email}</Table.Td>
                    <Table.Td>{r.level}</Table.Td>
                    <Table.Td>{r.page}</Table.Td>
                    <Table.Td><Badge color={STATUS_COLOR[r.status] ?? 'gray'}>{r.status}</Badge></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {q.data && <PageNav page={q.data} onChange={(p) => setParams({ ...(status ? { status } : {}), page: String(p) })} />}
      </Card>
    </>
  );
}
