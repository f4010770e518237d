import { Alert, Anchor, Badge, Card, Center, Group, Loader, NativeSelect, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { INQUIRY_KINDS, INQUIRY_KIND_LABELS, type InquiryKind } from '../../../shared/lists/subjects.ts';
import { showDateTime } from '../../lib/locale.ts';
import type { PageObject } from '../../../shared/rules/pagination.ts';
import { PageNav } from '../../components/page-nav.tsx';
import { http } from '../../lib/http.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';

interface InquiryRow {
  id: number;
  kind: InquiryKind;
  name: string;
  email: string;
  organization: string;
  is_handled: boolean;
  created_at: string;
}


/** Admin inbox of public form submissions: filter by kind and state, newest first, paged. */
export default function InquiriesPage() {
  const [params, setParams] = useSearchParams();
  const kind = params.get('kind') ?? '';
  const status = params.get('status') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    queryKey: ['admin-inquiries', kind, status, page],
    queryFn: () => http.get<PageObject<InquiryRow>>('/api/admin/inquiries', { kind, status, page }),
    placeholderData: keepPreviousData,
  });
  const set = (next: Record<string, string>) => setParams(Object.fromEntries(Object.entries({ kind, status, ...next }).filter(([, v]) => v)));

  return (
    <>
      <PageHeader title="Inquiries" />
      <AdminNav />
      <Group mb="md" align="flex-end">
        <NativeSelect label="Kind" value={kind} onChange={(e) => set({ kind: e.currentTarget.value, page: '' })}
          data={[{ value: '', label: 'All kinds' }, ...INQUIRY_KINDS.map((k) => ({ value: k, label: INQUIRY_KIND_LABELS[k] }))]} />
        <NativeSelect label="State" value={status} onChange={(e) => set({ status: e.currentTarget.value, page: '' })}
          data={[{ value: '', label: 'New and handled' }, { value: 'new', label: 'New' }, { value: 'handled', label: 'Handled' }]} />
      </Group>
      <Card withBorder padding="md">
        {q.isPending && <Center py="xl"><Loader aria-label="Loading" /></Center>}
        {q.isError && <Alert color="red">The inbox could not be loaded.</Alert>}
        {q.data && q.data.total === 0 && <Text c="dimmed" py="lg" ta="center">No inquiries yet.</Text>}
        {q.data && q.data.total > 0 && (
          <Table.ScrollContainer minWidth={700}>
            <Table striped highlightOnHover aria-label="Inquiries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Received</Table.Th><Table.Th>Kind</Table.Th><Table.Th>From</Table.Th><Table.Th>Organization</Table.Th><Table.Th>State</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.data.data.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td><Anchor component={Link} to={`/admin/inquiries/${r.id}`}>{showDateTime(r.created_at)}</Anchor></Table.Td>
                    <Table.Td>{INQUIRY_KIND_LABELS[r.kind] ?? r.kind}</Table.Td>
                    <Table.Td>{r.name ? `${r.name} <${r.email}>` : r.email}</Table.Td>
                    <Table.Td>{r.organization}</Table.Td>
                    <Table.Td><Badge color={r.is_handled ? 'gray' : 'blue'}>{r.is_handled ? 'Handled' : 'New'}</Badge></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {q.data && <PageNav page={q.data} onChange={(p) => set({ page: String(p) })} />}
      </Card>
    </>
  );
}
