import { Anchor, Badge, NativeSelect, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { adminAccountsContracts } from '../../../../shared/contracts/admin-accounts.ts';
import { formatEin } from '../../../../shared/rules/formats.ts';
import { ACCOUNT_STATUS_LABELS, type AccountStatus } from '../../../../shared/schemas/admin-accounts.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { hrefOf } from '../../../lib/http.ts';
import { showDate } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { ListSearch } from '../list-search.tsx';
import { useListFilters } from '../use-list-filters.ts';

export const ACCOUNT_STATUS_COLOR: Record<AccountStatus, string> = {
  active: 'green',
  past_due: 'orange',
  suspended: 'red',
};

/** A 9-digit EIN as the IRS writes it (12-3456789). */
export const showEin = formatEin;

const FILTERS = ['search', 'level', 'status', 'renewal_due', 'sort'] as const;

/**
 * The admin's accounts (docs/requirements/product.md "Staff console"): customer accounts by name, searched by name, EIN or e-mail,
 * filtered by level, status and renewal date and sorted by a column title; each links to
 * /admin/accounts/show/{id}. Search, filters and order live in the address (docs/staff-lists.md),
 * and "Export CSV" downloads every account they match.
 */
export default function AccountsPage() {
  const { current, page, query, filtered, go } = useListFilters(FILTERS);
  const q = useQuery({
    ...queryOf(adminAccountsContracts.list, { query: { ...query, page } }),
    placeholderData: keepPreviousData,
  });

  const levels = q.data?.levels ?? [];
  return (
    <>
      <PageHeader title="Accounts" lead="Customer accounts: open one to see its records and act on its behalf." />
      <AdminNav />
      <ListSearch
        label="Accounts"
        placeholder="Name, EIN or e-mail"
        search={current.search}
        onSearch={(search) => go({ search })}
        filtered={filtered}
        onClear={() => go({ search: '', level: '', status: '', renewal_due: '' })}
        exportHref={hrefOf(adminAccountsContracts.exportCsv, { query })}
      >
        <NativeSelect
          label="Level"
          value={current.level}
          onChange={(e) => go({ level: e.currentTarget.value })}
          data={[{ value: '', label: 'All levels' }, ...levels.map((l) => ({ value: String(l.id), label: l.name }))]}
        />
        <NativeSelect
          label="Status"
          value={current.status}
          onChange={(e) => go({ status: e.currentTarget.value })}
          data={[
            { value: '', label: 'Any status' },
            ...Object.entries(ACCOUNT_STATUS_LABELS).map(([value, label]) => ({ value, label })),
          ]}
        />
        <NativeSelect
          label="Renewal due"
          value={current.renewal_due}
          onChange={(e) => go({ renewal_due: e.currentTarget.value })}
          data={[
            { value: '', label: 'Any time' },
            { value: '30', label: 'In the next 30 days' },
            { value: '90', label: 'In the next 90 days' },
            { value: 'overdue', label: 'Overdue' },
          ]}
        />
      </ListSearch>
      {q.data && q.data.total > 0 && (
        <Text size="sm" c="dimmed" mb="xs">
          {q.data.total === 1 ? '1 account' : `${q.data.total} accounts`}
        </Text>
      )}
      <ListCard
        query={q}
        label="Accounts"
        what="The accounts"
        empty={filtered ? 'No accounts match.' : 'No accounts yet.'}
        columns={[
          { title: 'Name', sort: 'name' },
          { title: 'EIN', sort: 'ein' },
          { title: 'Level', sort: 'level' },
          { title: 'Renewal due', sort: 'renewal_due_at' },
          'Status',
          'Primary user',
        ]}
        sort={current.sort || 'name'}
        onSort={(sort) => go({ sort: sort === 'name' ? '' : sort })}
        onPage={(p) => go({ page: p })}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td>
              <Anchor component={Link} to={`/admin/accounts/show/${r.id}`} fw={600}>
                {r.name}
              </Anchor>
              {(r.city || r.state) && (
                <Text size="xs" c="dimmed">
                  {[r.city, r.state].filter(Boolean).join(', ')}
                </Text>
              )}
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{showEin(r.ein)}</Table.Td>
            <Table.Td>{r.level?.name ?? '—'}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{r.renewal_due_at ? showDate(r.renewal_due_at) : '—'}</Table.Td>
            <Table.Td>
              <Badge color={ACCOUNT_STATUS_COLOR[r.status]} variant="light">
                {ACCOUNT_STATUS_LABELS[r.status]}
              </Badge>
            </Table.Td>
            <Table.Td>
              {r.primary_email ?? '—'}
              {r.users_count > 1 && (
                <Text size="xs" c="dimmed">
                  {r.users_count} users
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
    </>
  );
}
