import { Anchor, Badge, Group, NativeSelect, Table } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { adminApplicationsContracts } from '../../../../shared/contracts/admin-applications.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { showDateTime } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';

export const STATUS_COLOR: Record<string, string> = { draft: 'blue', completed: 'green', deleted: 'gray' };

/** Admins see every application: drafts, completed and deleted, newest activity first. */
export default function ApplicationsPage() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    ...queryOf(adminApplicationsContracts.list, { query: { status, page } }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Applications" />
      <AdminNav />
      <Group mb="md">
        <NativeSelect
          label="Status"
          value={status}
          onChange={(e) => setParams(e.currentTarget.value ? { status: e.currentTarget.value } : {})}
          data={[
            { value: '', label: 'All' },
            { value: 'draft', label: 'Draft' },
            { value: 'completed', label: 'Completed' },
            { value: 'deleted', label: 'Deleted' },
          ]}
        />
      </Group>
      <ListCard
        query={q}
        label="Applications"
        what="The applications"
        empty="No applications yet."
        columns={['Last activity', 'Applicant', 'Level', 'Page', 'Status']}
        onPage={(p) => setParams({ ...(status ? { status } : {}), page: String(p) })}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td>
              <Anchor component={Link} to={`/admin/applications/${r.id}`}>
                {showDateTime(r.updated_at)}
              </Anchor>
            </Table.Td>
            <Table.Td>{r.email}</Table.Td>
            <Table.Td>{r.level}</Table.Td>
            <Table.Td>{r.page}</Table.Td>
            <Table.Td>
              <Badge color={STATUS_COLOR[r.status] ?? 'gray'}>{r.status}</Badge>
            </Table.Td>
          </Table.Tr>
        )}
      />
    </>
  );
}
