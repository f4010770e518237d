import { Anchor, Badge, Group, NativeSelect, Table } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { INQUIRY_KINDS, INQUIRY_KIND_LABELS, type InquiryKind } from '../../../shared/lists/subjects.ts';
import { showDateTime } from '../../lib/locale.ts';
import type { PageObject } from '../../../shared/rules/pagination.ts';
import { http } from '../../lib/http.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';
import { AdminListCard } from './admin-list-card.tsx';

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
      <AdminListCard
        query={q}
        label="Inquiries"
        what="The inbox"
        empty="No inquiries yet."
        columns={['Received', 'Kind', 'From', 'Organization', 'State']}
        onPage={(p) => set({ page: String(p) })}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td><Anchor component={Link} to={`/admin/inquiries/${r.id}`}>{showDateTime(r.created_at)}</Anchor></Table.Td>
            <Table.Td>{INQUIRY_KIND_LABELS[r.kind] ?? r.kind}</Table.Td>
            <Table.Td>{r.name ? `${r.name} <${r.email}>` : r.email}</Table.Td>
            <Table.Td>{r.organization}</Table.Td>
            <Table.Td><Badge color={r.is_handled ? 'gray' : 'blue'}>{r.is_handled ? 'Handled' : 'New'}</Badge></Table.Td>
          </Table.Tr>
        )}
      />
    </>
  );
}
