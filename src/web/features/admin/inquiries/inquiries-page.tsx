import { Anchor, Badge, NativeSelect, Table } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { adminInboxContracts } from '../../../../shared/contracts/admin-inbox.ts';
import { INQUIRY_KINDS, INQUIRY_KIND_LABELS } from '../../../../shared/lists/subjects.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { hrefOf } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { ListSearch } from '../list-search.tsx';
import { useListFilters } from '../use-list-filters.ts';

const FILTERS = ['search', 'kind', 'status', 'sort'] as const;

/**
 * Admin inbox of public form submissions: searched by the sender's name, e-mail or organization,
 * filtered by kind and state, newest first (each column title sorts by it), paged; all kept in
 * the address, and "Export CSV" of every matching inquiry (docs/staff-lists.md).
 */
export default function InquiriesPage() {
  const { current, page, query, filtered, go } = useListFilters(FILTERS);
  const q = useQuery({
    ...queryOf(adminInboxContracts.list, { query: { ...query, page } }),
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <PageHeader title="Inquiries" />
      <AdminNav />
      <ListSearch
        label="Inquiries"
        placeholder="Name, e-mail or organization"
        search={current.search}
        onSearch={(search) => go({ search })}
        filtered={filtered}
        onClear={() => go({ search: '', kind: '', status: '' })}
        exportHref={hrefOf(adminInboxContracts.exportCsv, { query })}
      >
        <NativeSelect
          label="Kind"
          value={current.kind}
          onChange={(e) => go({ kind: e.currentTarget.value })}
          data={[
            { value: '', label: 'All kinds' },
            ...INQUIRY_KINDS.map((k) => ({ value: k, label: INQUIRY_KIND_LABELS[k] })),
          ]}
        />
        <NativeSelect
          label="State"
          value={current.status}
          onChange={(e) => go({ status: e.currentTarget.value })}
          data={[
            { value: '', label: 'New and handled' },
            { value: 'new', label: 'New' },
            { value: 'handled', label: 'Handled' },
          ]}
        />
      </ListSearch>
      <ListCard
        query={q}
        label="Inquiries"
        what="The inbox"
        empty={filtered ? 'No inquiries match.' : 'No inquiries yet.'}
        columns={[
          { title: 'Received', sort: 'created_at' },
          { title: 'Kind', sort: 'kind' },
          { title: 'From', sort: 'name' },
          { title: 'Organization', sort: 'organization' },
          { title: 'State', sort: 'state' },
        ]}
        sort={current.sort || '-created_at'}
        onSort={(sort) => go({ sort: sort === '-created_at' ? '' : sort })}
        onPage={(p) => go({ page: p })}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td>
              <Anchor component={Link} to={`/admin/inquiries/${r.id}`}>
                {showDateTime(r.created_at)}
              </Anchor>
            </Table.Td>
            <Table.Td>{INQUIRY_KIND_LABELS[r.kind] ?? r.kind}</Table.Td>
            <Table.Td>{r.name ? `${r.name} <${r.email}>` : r.email}</Table.Td>
            <Table.Td>{r.organization}</Table.Td>
            <Table.Td>
              <Badge color={r.is_handled ? 'gray' : 'blue'}>{r.is_handled ? 'Handled' : 'New'}</Badge>
            </Table.Td>
          </Table.Tr>
        )}
      />
    </>
  );
}
