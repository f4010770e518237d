import { useEffect, useState } from 'react';
import { Anchor, Button, Card, Code, Group, Table, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { AuditRow } from '../../../shared/schemas/admin-audit.ts';
import type { PageObject } from '../../../shared/rules/pagination.ts';
import { http } from '../../lib/http.ts';
import { showDateTime } from '../../lib/locale.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';
import { AdminListCard } from './admin-list-card.tsx';

/** Details as one compact line of JSON; long ones are cut (the full text is in the title). */
function compact(details: Record<string, unknown>): { short: string; full: string } {
  const full = JSON.stringify(details).replace(/,(?=")/g, ', ');
  return { short: full.length > 160 ? `${full.slice(0, 157)}…` : full, full };
}

/** Who did what, on behalf of which account: newest first, 50 a page, by account id and action prefix (issue 7). */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const accountId = params.get('account_id') ?? '';
  const action = params.get('action') ?? '';
  const [draft, setDraft] = useState({ account_id: accountId, action });
  useEffect(() => setDraft({ account_id: accountId, action }), [accountId, action]);

  const q = useQuery({
    queryKey: ['admin-audit', accountId, action, page],
    queryFn: () => http.get<PageObject<AuditRow>>('/api/admin/audit', { account_id: accountId || undefined, action: action || undefined, page }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const go = (next: { account_id?: string; action?: string; page?: number }) => {
    const merged = { account_id: accountId, action, page: 1, ...next };
    const out: Record<string, string> = {};
    if (merged.account_id.trim()) out.account_id = merged.account_id.trim();
    if (merged.action.trim()) out.action = merged.action.trim();
    if (merged.page > 1) out.page = String(merged.page);
    setParams(out);
  };
  const filterError = q.error && 'errors' in q.error ? (q.error as { errors: Record<string, string[]> }).errors : {};

  return (
    <>
      <PageHeader title="Audit log" lead="Who did what, on behalf of which account. Newest first." />
      <AdminNav />
      <Card withBorder padding="md" mb="md" component="form" aria-label="Filter the audit log"
        onSubmit={(e: React.FormEvent) => { e.preventDefault(); go(draft); }}>
        <Group align="flex-end">
          <TextInput label="Account id" inputMode="numeric" w={140} value={draft.account_id} error={filterError.account_id?.[0]}
            onChange={(e) => setDraft({ ...draft, account_id: e.currentTarget.value })} />
          <TextInput label="Action starts with" placeholder="e.g. discount." w={240} value={draft.action} error={filterError.action?.[0]}
            onChange={(e) => setDraft({ ...draft, action: e.currentTarget.value })} />
          <Button type="submit">Filter</Button>
          {(accountId || action) && <Button variant="subtle" onClick={() => go({ account_id: '', action: '' })}>Clear</Button>}
        </Group>
      </Card>
      <AdminListCard
        query={q}
        label="Audit log"
        what="The audit log"
        empty="No entries match."
        minWidth={900}
        columns={['Time', 'Actor', 'Account', 'Action', 'Details']}
        onPage={(p) => go({ page: p })}
        row={(r) => {
          const d = compact(r.details);
          return (
            <Table.Tr key={r.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}><Text size="sm">{showDateTime(r.created_at)}</Text></Table.Td>
              <Table.Td><Text size="sm">{r.actor_email ?? (r.actor_user_id ? `User ${r.actor_user_id}` : 'System')}</Text></Table.Td>
              <Table.Td>
                {r.account_id !== null
                  ? <Anchor size="sm" component={Link} to={`/admin/accounts/show/${r.account_id}`}>{r.account_name ?? `Account ${r.account_id}`}</Anchor>
                  : <Text size="sm" c="dimmed">—</Text>}
              </Table.Td>
              <Table.Td><Code>{r.action}</Code></Table.Td>
              <Table.Td><Code title={d.full} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 12 }}>{d.short}</Code></Table.Td>
            </Table.Tr>
          );
        }}
      />
    </>
  );
}
