import { Anchor, Badge, Button, Group, NativeSelect, Table, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { workQueueContracts } from '../../../../shared/contracts/work-queue.ts';
import { formatEin } from '../../../../shared/rules/formats.ts';
import { sortParam } from '../../../../shared/schemas/list-params.ts';
import {
  WORK_ITEM_KIND_LABELS,
  WORK_ITEM_KINDS,
  workQueueQuery,
  type WorkItemKind,
} from '../../../../shared/schemas/work-queue.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { call, hrefOf } from '../../../lib/http.ts';
import { showDate } from '../../../lib/locale.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { addressParams } from '../use-list-filters.ts';
import { useStaff } from './item-actions.ts';
import { ItemDrawer } from './item-drawer.tsx';

const SORTS = [
  { value: 'created_at', label: 'Oldest first' },
  { value: '-created_at', label: 'Newest first' },
  { value: '-updated_at', label: 'Recently updated' },
  { value: 'kind', label: 'Kind' },
  { value: 'account', label: 'Account name' },
];

const KIND_COLORS: Record<WorkItemKind, string> = {
  left_roster: 'grape',
  past_due: 'red',
  fiscal_year_mismatch: 'yellow',
  name_changed: 'blue',
  address_changed: 'cyan',
  paying_not_on_roster: 'orange',
  roster_no_membership: 'gray',
  revoked: 'red',
  reinstated: 'green',
  determination_letter: 'teal',
  link_request: 'indigo',
  reinstatement_order: 'lime',
};

/**
 * The list's query as `params` (the page's address) gives it: `f` the parsed query (defaults when
 * the schema refuses it), `filters` as the list and its export take them (the open status and the
 * oldest-first order are the defaults and stay out), and `openItem`, the item open in the drawer.
 */
function filtersOf(params: URLSearchParams) {
  const raw = (k: string) => params.get(k) ?? '';
  const parsed = workQueueQuery.safeParse({
    kind: raw('kind'),
    status: raw('status'),
    assignee: raw('assignee'),
    sort: raw('sort'),
    page: raw('page'),
  });
  const f = parsed.success ? parsed.data : workQueueQuery.parse({});
  const filters = {
    kind: f.kind,
    status: f.status === 'open' ? undefined : f.status,
    assignee: f.assignee,
    sort: sortParam(f.sort) === 'created_at' ? undefined : sortParam(f.sort),
  };
  return { f, filters, openItem: Number(raw('item')) || null };
}

/**
 * /admin/work-queue (docs/work-queue.md): what the IRS data refresh found for central staff. Tabs
 * by kind with their counts, filters (status, assignee, order) and the CSV export of the filtered
 * list; "Find new items" runs the builder now; each row links to its account and opens the item in
 * a drawer (`?item=`) to assign, note, resolve or reopen it. Filters, tab, page and the open item live in the address.
 */
export default function WorkQueuePage() {
  const [params, setParams] = useSearchParams();
  const { f, filters, openItem } = filtersOf(params);
  const staff = useStaff().data?.staff ?? [];
  const list = useQuery({
    ...queryOf(workQueueContracts.list, { query: { ...filters, page: f.page } }),
    placeholderData: keepPreviousData,
  });

  /** The address with `change` applied; a new filter starts again at page 1. */
  const go = (change: Record<string, string | number | undefined | null>) => {
    // From the address as it is now, which can be a step ahead of this render (addressParams).
    const now = filtersOf(addressParams());
    const merged: Record<string, string | number | undefined | null> = {
      ...now.filters,
      page: now.f.page,
      item: now.openItem,
      ...change,
    };
    if (!('page' in change)) merged.page = undefined;
    const next: Record<string, string> = {};
    for (const [k, v] of Object.entries(merged))
      if (v !== undefined && v !== null && v !== '' && !(k === 'page' && Number(v) <= 1)) next[k] = String(v);
    setParams(next);
  };
  const client = useQueryClient();
  const build = useMutation({
    mutationFn: () => call(workQueueContracts.build, {}),
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      void client.invalidateQueries({ queryKey: keyOf(workQueueContracts.list) });
    },
    onError: () => toastFailure('The work queue could not be checked. Try again.'),
  });
  const counts = list.data?.counts;
  const all = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;

  return (
    <>
      <PageHeader
        title="Work queue"
        lead="What needs staff: IRS letters groups uploaded for review, applicants to link to a group imported from the IRS data, reinstatement applications groups paid for, and what the IRS data refresh found: subordinates that left the GEN roster, members past a due date, differences between the IRS data and ours, paying members not on the roster, roster entries without a membership, revocations and reinstatements."
      />
      <AdminNav />
      <Group mb="md" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Status"
          value={f.status}
          onChange={(e) => go({ status: e.currentTarget.value === 'open' ? undefined : e.currentTarget.value })}
          data={[
            { value: 'open', label: 'Open' },
            { value: 'resolved', label: 'Resolved' },
            { value: 'all', label: 'Open and resolved' },
          ]}
        />
        <NativeSelect
          label="Assigned to"
          value={f.assignee === undefined ? '' : String(f.assignee)}
          onChange={(e) => go({ assignee: e.currentTarget.value })}
          data={[
            { value: '', label: 'Anyone' },
            { value: 'me', label: 'Me' },
            { value: 'none', label: 'Nobody' },
            ...staff.map((s) => ({ value: String(s.id), label: s.name })),
          ]}
        />
        <NativeSelect
          label="Order"
          value={sortParam(f.sort)}
          onChange={(e) => go({ sort: e.currentTarget.value === 'created_at' ? undefined : e.currentTarget.value })}
          data={SORTS}
        />
        <Button
          component="a"
          variant="default"
          href={hrefOf(workQueueContracts.exportCsv, { query: filters })}
          download
        >
          Export CSV
        </Button>
        <Button variant="light" onClick={() => build.mutate()} loading={build.isPending}>
          Find new items
        </Button>
      </Group>
      <Tabs
        value={f.kind ?? 'all'}
        onChange={(v) => go({ kind: v === 'all' ? undefined : (v ?? undefined) })}
        keepMounted={false}
        mb="md"
      >
        <Tabs.List aria-label="Kinds">
          <Tabs.Tab
            value="all"
            rightSection={
              <Badge size="sm" variant="light" color="gray">
                {all ?? '…'}
              </Badge>
            }
          >
            All kinds
          </Tabs.Tab>
          {WORK_ITEM_KINDS.map((k) => (
            <Tabs.Tab
              key={k}
              value={k}
              rightSection={
                <Badge size="sm" variant="light" color={KIND_COLORS[k]}>
                  {counts ? counts[k] : '…'}
                </Badge>
              }
            >
              {WORK_ITEM_KIND_LABELS[k]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <ListCard
        query={list}
        label="Work items"
        what="The work queue"
        empty={f.status === 'open' ? 'Nothing to do here: no open items.' : 'No items match.'}
        columns={['Kind', 'Account', 'What was found', 'Assigned to', 'Found', '']}
        minWidth={1000}
        onPage={(p) => go({ page: p })}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td>
              <Text size="sm" fw={600} c={`${KIND_COLORS[r.kind]}.9`}>
                {r.kind_label}
              </Text>
              {r.status === 'resolved' && (
                <Text size="xs" c="green" mt={4}>
                  Resolved
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {r.account ? (
                <Anchor component={Link} to={`/admin/accounts/show/${r.account.id}`} fw={600}>
                  {r.account.name}
                </Anchor>
              ) : (
                <Text c="dimmed">No account</Text>
              )}
              {r.ein && (
                <Text size="xs" c="dimmed">
                  EIN {formatEin(r.ein)}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm">{r.summary}</Text>
            </Table.Td>
            <Table.Td>
              {r.assignee ? (
                r.assignee.name
              ) : (
                <Text c="dimmed" size="sm">
                  Nobody
                </Text>
              )}
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{showDate(r.created_at)}</Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="default"
                onClick={() => go({ item: r.id, page: f.page })}
                aria-label={`Open the item ${r.kind_label}${r.account ? ` for ${r.account.name}` : ''}`}
              >
                Open
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {openItem !== null && (
        <ItemDrawer key={openItem} id={openItem} onClose={() => go({ item: undefined, page: f.page })} />
      )}
    </>
  );
}
