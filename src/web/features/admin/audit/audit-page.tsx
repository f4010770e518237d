import { Anchor, Button, Card, Code, Group, Table, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { adminConsoleContracts } from '../../../../shared/contracts/admin-console.ts';
import { actionWords, auditDetailWords } from '../../../../shared/rules/audit-words.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { hrefOf } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { useListFilters } from '../use-list-filters.ts';

/** The audit log's filters as the address keeps them (docs/audit.md). */
const FILTERS = ['account_id', 'action', 'search', 'sort'] as const;

/**
 * Who did what, when, on behalf of which account, with what changed in words (docs/audit.md):
 * newest first, 50 a page, narrowed by account id, action and a search of the actor's e-mail or
 * the account's name; sorted by time, actor, account or action either way; the filtered rows
 * export as CSV. Every filter
 * lives in the address, so a filtered log can be reloaded or shared.
 */
export default function AuditPage() {
  const { current, page, query, filtered, go } = useListFilters(FILTERS);
  const [draft, setDraft] = useState(current);
  const { account_id: accountId, action, search } = current;
  // The form follows the address when it changes (back, forward, a link): adjusted while rendering, not after.
  const filterKey = JSON.stringify([accountId, action, search]);
  const [draftKey, setDraftKey] = useState(filterKey);
  if (draftKey !== filterKey) {
    setDraftKey(filterKey);
    setDraft({ account_id: accountId, action, search, sort: '' });
  }

  const q = useQuery({
    ...queryOf(adminConsoleContracts.audit, { query: { ...query, page } }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const filterError = q.error && 'errors' in q.error ? (q.error as { errors: Record<string, string[]> }).errors : {};

  return (
    <>
      <PageHeader title="Audit log" lead="Who did what and when, on behalf of which account, and what changed." />
      <AdminNav />
      <Card
        withBorder
        padding="md"
        mb="md"
        component="form"
        aria-label="Filter the audit log"
        onSubmit={(e: React.FormEvent) => {
          e.preventDefault();
          go({ account_id: draft.account_id.trim(), action: draft.action.trim(), search: draft.search.trim() });
        }}
      >
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="Actor's e-mail or account name"
            w={260}
            maxLength={100}
            value={draft.search}
            error={filterError.search?.[0]}
            onChange={(e) => setDraft({ ...draft, search: e.currentTarget.value })}
          />
          <TextInput
            label="Account id"
            inputMode="numeric"
            w={120}
            value={draft.account_id}
            error={filterError.account_id?.[0]}
            onChange={(e) => setDraft({ ...draft, account_id: e.currentTarget.value })}
          />
          <TextInput
            label="Action starts with"
            placeholder="e.g. discount."
            w={200}
            value={draft.action}
            error={filterError.action?.[0]}
            onChange={(e) => setDraft({ ...draft, action: e.currentTarget.value })}
          />
          <Button type="submit">Filter</Button>
          {filtered && (
            <Button
              variant="subtle"
              onClick={() => {
                setDraft({ account_id: '', action: '', search: '', sort: '' });
                go({ account_id: '', action: '', search: '' });
              }}
            >
              Clear
            </Button>
          )}
          <Button component="a" variant="default" href={hrefOf(adminConsoleContracts.auditCsv, { query })} download>
            Export CSV
          </Button>
        </Group>
      </Card>
      <ListCard
        query={q}
        label="Audit log"
        what="The audit log"
        empty={filtered ? 'No entries match.' : 'Nothing has been recorded yet.'}
        minWidth={900}
        columns={[
          { title: 'Time', sort: 'created_at' },
          { title: 'Who', sort: 'actor' },
          { title: 'Account', sort: 'account' },
          { title: 'What', sort: 'action' },
          'Changes and details',
        ]}
        sort={current.sort || '-created_at'}
        onSort={(sort) => go({ sort: sort === '-created_at' ? '' : sort })}
        onPage={(p) => go({ page: p })}
        row={(r) => {
          const words = auditDetailWords(r.details);
          return (
            <Table.Tr key={r.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm">{showDateTime(r.created_at)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{r.actor_email ?? (r.actor_user_id ? `User ${r.actor_user_id}` : 'System')}</Text>
              </Table.Td>
              <Table.Td>
                {r.account_id !== null ? (
                  <Anchor size="sm" component={Link} to={`/admin/accounts/show/${r.account_id}`}>
                    {r.account_name ?? `Account ${r.account_id}`}
                  </Anchor>
                ) : (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{actionWords(r.action)}</Text>
                <Code fz="xs">{r.action}</Code>
              </Table.Td>
              <Table.Td>
                {words.changes.length === 0 && words.facts.length === 0 && (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                )}
                {words.changes.map((line) => (
                  <Text key={line} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {line}
                  </Text>
                ))}
                {words.facts.map((line) => (
                  <Text key={line} size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {line}
                  </Text>
                ))}
              </Table.Td>
            </Table.Tr>
          );
        }}
      />
    </>
  );
}
