import { useEffect, useState } from 'react';
import { Anchor, Badge, Button, Group, NativeSelect, Table, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import {
  ACCOUNT_STATUS_LABELS, type AccountStatus, type AdminAccountsPage,
} from '../../../shared/schemas/admin-accounts.ts';
import { http } from '../../lib/http.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { showDate } from '../../lib/locale.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';
import { AdminListCard } from './admin-list-card.tsx';

export const ACCOUNT_STATUS_COLOR: Record<AccountStatus, string> = { active: 'green', past_due: 'orange', suspended: 'red' };

/** A 9-digit EIN as the IRS writes it (12-3456789). */
export const showEin = formatEin;

const FILTERS = ['search', 'level', 'status', 'renewal_due'] as const;

/**
 * The admin's accounts (issue 7): customer accounts by name, searched by name, EIN or e-mail and
 * filtered by level, status and renewal date; each links to /admin/accounts/show/{id}. The search
 * and filters live in the address, so a filtered list can be reloaded or shared.
 */
export default function AccountsPage() {
  const [params, setParams] = useSearchParams();
  const current = Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [search, setSearch] = useState(current.search);
  useEffect(() => setSearch(current.search), [current.search]);

  const q = useQuery({
    queryKey: ['admin-accounts', current, page],
    queryFn: () => http.get<AdminAccountsPage>('/api/admin/accounts', { ...current, page }),
    placeholderData: keepPreviousData,
  });

  /** The address with one value changed; a new search or filter starts again at page 1. */
  const go = (change: Partial<typeof current> & { page?: number }) => {
    const next = { ...current, ...change };
    const out: Record<string, string> = {};
    for (const k of FILTERS) if (next[k]) out[k] = next[k];
    if (change.page && change.page > 1) out.page = String(change.page);
    setParams(out);
  };

  const levels = q.data?.levels ?? [];
  return (
    <>
      <PageHeader title="Accounts" lead="Customer accounts: open one to see its records and act on its behalf." />
      <AdminNav />
      <form role="search" aria-label="Accounts" onSubmit={(e) => { e.preventDefault(); go({ search: search.trim() }); }}>
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput label="Search" placeholder="Name, EIN or e-mail" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={280} maxLength={100} />
        <Button type="submit" variant="default">Search</Button>
        <NativeSelect label="Level" value={current.level} onChange={(e) => go({ level: e.currentTarget.value })}
          data={[{ value: '', label: 'All levels' }, ...levels.map((l) => ({ value: String(l.id), label: l.name }))]} />
        <NativeSelect label="Status" value={current.status} onChange={(e) => go({ status: e.currentTarget.value })}
          data={[{ value: '', label: 'Any status' }, ...Object.entries(ACCOUNT_STATUS_LABELS).map(([value, label]) => ({ value, label }))]} />
        <NativeSelect label="Renewal due" value={current.renewal_due} onChange={(e) => go({ renewal_due: e.currentTarget.value })}
          data={[{ value: '', label: 'Any time' }, { value: '30', label: 'In the next 30 days' }, { value: '90', label: 'In the next 90 days' }, { value: 'overdue', label: 'Overdue' }]} />
        {FILTERS.some((k) => current[k]) && <Button variant="subtle" onClick={() => { setSearch(''); setParams({}); }}>Clear</Button>}
      </Group>
      </form>
      {q.data && q.data.total > 0 && (
        <Text size="sm" c="dimmed" mb="xs">{q.data.total === 1 ? '1 account' : `${q.data.total} accounts`}</Text>
      )}
      <AdminListCard
        query={q}
        label="Accounts"
        what="The accounts"
        empty={FILTERS.some((k) => current[k]) ? 'No accounts match.' : 'No accounts yet.'}
        columns={['Name', 'EIN', 'Level', 'Renewal due', 'Status', 'Primary user']}
        onPage={(p) => go({ page: p })}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td>
              <Anchor component={Link} to={`/admin/accounts/show/${r.id}`} fw={600}>{r.name}</Anchor>
              {(r.city || r.state) && <Text size="xs" c="dimmed">{[r.city, r.state].filter(Boolean).join(', ')}</Text>}
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{showEin(r.ein)}</Table.Td>
            <Table.Td>{r.level?.name ?? '—'}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{r.renewal_due_at ? showDate(r.renewal_due_at) : '—'}</Table.Td>
            <Table.Td><Badge color={ACCOUNT_STATUS_COLOR[r.status]} variant="light">{ACCOUNT_STATUS_LABELS[r.status]}</Badge></Table.Td>
            <Table.Td>
              {r.primary_email ?? '—'}
              {r.users_count > 1 && <Text size="xs" c="dimmed">{r.users_count} users</Text>}
            </Table.Td>
          </Table.Tr>
        )}
      />
    </>
  );
}
