import { Anchor, Badge, NativeSelect, Table } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { adminOutboxContracts } from '../../../../shared/contracts/admin-outbox.ts';
import { OUTBOX_STATUSES } from '../../../../shared/schemas/admin.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { hrefOf } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { ListSearch } from '../list-search.tsx';
import { useListFilters } from '../use-list-filters.ts';

const STATUS_COLOR: Record<string, string> = { pending: 'yellow', sent: 'green', failed: 'red' };
const STATUS_LABEL: Record<string, string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed' };
const FILTERS = ['search', 'status', 'sort'] as const;

/**
 * Every mail the product wrote, newest first (each column title sorts by it, both ways), searched
 * by recipient and subject and filtered by status, all kept in the address, and "Export CSV" of
 * every matching mail (docs/staff-lists.md); pending ones wait for SMTP.
 */
export default function OutboxPage() {
  const { current, page, query, filtered, go } = useListFilters(FILTERS);
  const q = useQuery({
    ...queryOf(adminOutboxContracts.list, { query: { ...query, page } }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="Mail outbox"
        lead="Mails are kept here until they are sent. Without an SMTP server configured they stay pending."
      />
      <AdminNav />
      <ListSearch
        label="Mails"
        placeholder="Recipient or subject"
        search={current.search}
        onSearch={(search) => go({ search })}
        filtered={filtered}
        onClear={() => go({ search: '', status: '' })}
        exportHref={hrefOf(adminOutboxContracts.exportCsv, { query })}
      >
        <NativeSelect
          label="Status"
          value={current.status}
          onChange={(e) => go({ status: e.currentTarget.value })}
          data={[
            { value: '', label: 'Any status' },
            ...OUTBOX_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] })),
          ]}
        />
      </ListSearch>
      <ListCard
        query={q}
        label="Mails"
        what="The outbox"
        empty={filtered ? 'No mails match.' : 'No mail yet.'}
        columns={[
          { title: 'Written', sort: 'created_at' },
          { title: 'To', sort: 'to' },
          { title: 'Subject', sort: 'subject' },
          { title: 'Status', sort: 'status' },
        ]}
        sort={current.sort || '-created_at'}
        onSort={(sort) => go({ sort: sort === '-created_at' ? '' : sort })}
        onPage={(p) => go({ page: p })}
        row={(m) => (
          <Table.Tr key={m.id}>
            <Table.Td>{showDateTime(m.created_at)}</Table.Td>
            <Table.Td>{m.to}</Table.Td>
            <Table.Td>
              <Anchor component={Link} to={`/admin/outbox/${m.id}`}>
                {m.subject}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Badge color={STATUS_COLOR[m.status] ?? 'gray'}>{STATUS_LABEL[m.status] ?? m.status}</Badge>
            </Table.Td>
          </Table.Tr>
        )}
      />
    </>
  );
}
