import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Divider,
  Drawer,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Textarea,
  Timeline,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { workQueueContracts } from '../../../../shared/contracts/work-queue.ts';
import { formatEin } from '../../../../shared/rules/formats.ts';
import { sortParam } from '../../../../shared/schemas/list-params.ts';
import {
  WORK_ITEM_KIND_LABELS,
  WORK_ITEM_KINDS,
  letterAcceptSchema,
  letterReturnSchema,
  workItemNoteSchema,
  workItemResolveSchema,
  workQueueQuery,
  type WorkItemKind,
} from '../../../../shared/schemas/work-queue.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { confirmAction, toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { call, hrefOf } from '../../../lib/http.ts';
import { showDate, showDateTime } from '../../../lib/locale.ts';
import { AdminNav } from '../admin-nav.tsx';
import { useAdminForm } from '../use-admin-form.ts';
import { addressParams } from '../use-list-filters.ts';
import type { ContractAnswer, ContractInput } from '../../../../shared/contracts/contract.ts';

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

/** Today in the browser's calendar, 'YYYY-MM-DD' (the server checks against its own). */
const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

type ActionAnswer = ContractAnswer<typeof workQueueContracts.assign>;
type BodyOf<K extends keyof typeof workQueueContracts> = ContractInput<(typeof workQueueContracts)[K]>['body'];

/** An action of the item drawer: the route it posts to (after the item's address) and its body. */
type ItemAction =
  | { path: 'assign'; body: BodyOf<'assign'> }
  | { path: 'notes'; body: BodyOf<'addNote'> }
  | { path: 'resolve'; body: BodyOf<'resolve'> }
  | { path: 'accept-letter'; body: BodyOf<'acceptLetter'> }
  | { path: 'return-letter'; body: BodyOf<'returnLetter'> }
  | { path: 'reopen' };

/** Posts one action on item `id` to its route (src/shared/contracts/work-queue.ts). */
function postAction(id: number, action: ItemAction): Promise<ActionAnswer> {
  const params = { id: String(id) };
  switch (action.path) {
    case 'assign':
      return call(workQueueContracts.assign, { params, body: action.body });
    case 'notes':
      return call(workQueueContracts.addNote, { params, body: action.body });
    case 'resolve':
      return call(workQueueContracts.resolve, { params, body: action.body });
    case 'accept-letter':
      return call(workQueueContracts.acceptLetter, { params, body: action.body });
    case 'return-letter':
      return call(workQueueContracts.returnLetter, { params, body: action.body });
    case 'reopen':
      return call(workQueueContracts.reopen, { params });
  }
}

/** The staff users an item can be assigned to. */
function useStaff() {
  return useQuery({
    queryKey: ['admin-work-queue', 'staff'],
    queryFn: () => call(workQueueContracts.staff, {}),
    staleTime: 60_000,
  });
}

/**
 * One item in a drawer: what was found, its account, assignment, notes, resolution and history;
 * each action posts to its route and refreshes the list and the counts.
 */
function ItemDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const client = useQueryClient();
  const staff = useStaff().data?.staff ?? [];
  const q = useQuery({
    queryKey: ['admin-work-queue', 'item', id],
    queryFn: () => call(workQueueContracts.show, { params: { id: String(id) } }),
  });
  const note = useAdminForm({ body: '' }, workItemNoteSchema);
  const resolve = useAdminForm({ resolution: '' }, workItemResolveSchema);
  const accept = useAdminForm({ letter_date: '' }, letterAcceptSchema(localToday()));
  const sendBack = useAdminForm({ reason: '' }, letterReturnSchema);
  const done = (answer: ActionAnswer) => {
    toastSuccess(answer.message);
    client.setQueryData(['admin-work-queue', 'item', id], answer.item);
    void client.invalidateQueries({ queryKey: ['admin-work-queue', 'list'] });
  };
  const act = useMutation({
    mutationFn: ({
      form: _form,
      ...action
    }: ItemAction & { form?: { reset: () => void; fail: (err: unknown) => void } }) => postAction(id, action),
    onSuccess: (answer, { form }) => {
      form?.reset();
      done(answer);
    },
    onError: (err, { form }) => (form ?? note).fail(err),
  });
  const link = useMutation({
    mutationFn: () => call(workQueueContracts.linkApplicant, { params: { id: String(id) } }),
    onSuccess: done,
    onError: (err) => {
      note.fail(err);
      void client.invalidateQueries({ queryKey: ['admin-work-queue', 'item', id] });
    },
  });
  const confirmLink = async (accountName: string) => {
    const ok = await confirmAction({
      title: 'Link the applicant',
      message: `The applicant becomes the primary user of ${accountName}. Their application is completed on this account with its first invoice, and they are told by mail that they can sign in and pay.`,
      confirm: 'Link the applicant',
      confirmColor: 'green',
    });
    if (ok) link.mutate();
  };
  const item = q.data;
  const canLink = item?.link && item.status === 'open' && item.link.blocked === null;
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="lg"
      title={<Text fw={700}>{item ? item.kind_label : 'Work item'}</Text>}
    >
      {q.isPending && (
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      )}
      {q.isError && <Alert color="red">The work item could not be loaded.</Alert>}
      {item && (
        <Stack gap="md">
          <Group gap="xs">
            <Badge color={item.status === 'open' ? 'blue' : 'green'} variant="light">
              {item.status === 'open' ? 'Open' : 'Resolved'}
            </Badge>
            {item.released_on && (
              <Text size="sm" c="dimmed">
                per IRS data released {item.released_on}
              </Text>
            )}
          </Group>
          {item.account && (
            <Text>
              <Anchor component={Link} to={`/admin/accounts/show/${item.account.id}`} fw={600}>
                {item.account.name}
              </Anchor>
              {item.ein && (
                <Text span c="dimmed" size="sm">
                  {' '}
                  · EIN {formatEin(item.ein)}
                </Text>
              )}
            </Text>
          )}
          <Text>{item.summary}</Text>

          {item.letter && (
            <Stack gap="sm" component="section" aria-label="The determination letter">
              <Group gap="xs">
                <Anchor
                  href={hrefOf(workQueueContracts.letter, { params: { id: String(id) } })}
                  target="_blank"
                  rel="noopener noreferrer"
                  fw={600}
                >
                  Open the letter{item.letter.file_name ? ` (${item.letter.file_name})` : ''}
                </Anchor>
                {item.letter.status === 'accepted' && (
                  <Badge color="green" variant="light">
                    Accepted, dated {item.letter.letter_date}
                  </Badge>
                )}
                {item.letter.status === 'returned' && (
                  <Badge color="orange" variant="light">
                    Sent back
                  </Badge>
                )}
              </Group>
              {item.letter.status === 'returned' && (
                <Text size="sm">Reason given to the group: {item.letter.return_reason}</Text>
              )}
              {item.letter.status === 'pending' && (
                <>
                  <form
                    noValidate
                    aria-label="Accept the letter"
                    onSubmit={(e) => {
                      e.preventDefault();
                      if (accept.check()) act.mutate({ path: 'accept-letter', body: accept.values, form: accept });
                    }}
                  >
                    <Group align="flex-end" gap="xs">
                      <TextInput
                        type="date"
                        label="Date on the letter"
                        description="The exemption is recorded as recognized from the letter."
                        max={localToday()}
                        value={accept.values.letter_date}
                        error={accept.errors.letter_date}
                        onChange={(e) => accept.change({ letter_date: e.currentTarget.value })}
                      />
                      <Button
                        type="submit"
                        color="green"
                        loading={act.isPending && act.variables?.path === 'accept-letter'}
                      >
                        Accept the letter
                      </Button>
                    </Group>
                  </form>
                  <form
                    noValidate
                    aria-label="Send the letter back"
                    onSubmit={(e) => {
                      e.preventDefault();
                      if (sendBack.check())
                        act.mutate({ path: 'return-letter', body: sendBack.values, form: sendBack });
                    }}
                  >
                    <Stack gap="xs">
                      <Textarea
                        label="Reason for the group"
                        description="Sent to the group by mail and shown on its home, with a request for a new upload."
                        autosize
                        minRows={2}
                        value={sendBack.values.reason}
                        error={sendBack.errors.reason}
                        onChange={(e) => sendBack.change({ reason: e.currentTarget.value })}
                      />
                      <Group>
                        <Button
                          type="submit"
                          color="orange"
                          variant="light"
                          loading={act.isPending && act.variables?.path === 'return-letter'}
                        >
                          Send it back
                        </Button>
                      </Group>
                    </Stack>
                  </form>
                </>
              )}
            </Stack>
          )}

          {item.link && (
            <Stack gap={4} component="section" aria-label="The applicant">
              <Title order={3} size="h5">
                The applicant
              </Title>
              <Text size="sm">
                Sign-in e-mail:{' '}
                {item.link.applicant_email ? (
                  <Anchor href={`mailto:${item.link.applicant_email}`}>{item.link.applicant_email}</Anchor>
                ) : (
                  'no longer known'
                )}
              </Text>
              {item.link.president_name && <Text size="sm">President: {item.link.president_name}</Text>}
              {item.link.president_phone && (
                <Text size="sm">
                  President's phone:{' '}
                  <Anchor href={`tel:${item.link.president_phone}`}>{item.link.president_phone}</Anchor>
                </Text>
              )}
              {item.status === 'open' && item.link.blocked && (
                <Alert color="yellow" mt="xs">
                  {item.link.blocked}
                </Alert>
              )}
            </Stack>
          )}

          <Group align="flex-end" gap="xs">
            <NativeSelect
              label="Assigned to"
              value={item.assignee ? String(item.assignee.id) : ''}
              w={240}
              onChange={(e) => act.mutate({ path: 'assign', body: { assignee: e.currentTarget.value || null } })}
              data={[{ value: '', label: 'Nobody' }, ...staff.map((s) => ({ value: String(s.id), label: s.name }))]}
            />
            <Button
              variant="default"
              onClick={() => act.mutate({ path: 'assign', body: { assignee: 'me' } })}
              loading={act.isPending && act.variables?.path === 'assign'}
            >
              Assign to me
            </Button>
          </Group>

          <Divider />
          <Title order={3} size="h5">
            Notes
          </Title>
          {item.notes.length === 0 && (
            <Text size="sm" c="dimmed">
              No notes yet.
            </Text>
          )}
          {item.notes.map((n) => (
            <div key={n.id}>
              <Text size="xs" c="dimmed">
                {n.author ?? 'A former staff user'} · {showDateTime(n.created_at)}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {n.body}
              </Text>
            </div>
          ))}
          <form
            noValidate
            aria-label="Add a note"
            onSubmit={(e) => {
              e.preventDefault();
              if (note.check()) act.mutate({ path: 'notes', body: note.values, form: note });
            }}
          >
            <Stack gap="xs">
              <Textarea
                label="Note"
                autosize
                minRows={2}
                value={note.values.body}
                error={note.errors.body}
                onChange={(e) => note.change({ body: e.currentTarget.value })}
              />
              <Group>
                <Button type="submit" variant="default" loading={act.isPending && act.variables?.path === 'notes'}>
                  Add note
                </Button>
              </Group>
            </Stack>
          </form>

          <Divider />
          {item.letter?.status === 'pending' ? (
            <Text size="sm" c="dimmed">
              Accept the letter or send it back to resolve this item.
            </Text>
          ) : canLink ? (
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                Linking makes the applicant the account's primary user, completes their application on it with its first
                invoice, and resolves this item.
              </Text>
              <Group>
                <Button
                  color="green"
                  onClick={() => void confirmLink(item.account?.name ?? 'the account')}
                  loading={link.isPending}
                >
                  Link the applicant
                </Button>
              </Group>
            </Stack>
          ) : item.status === 'open' ? (
            <form
              noValidate
              aria-label="Resolve the item"
              onSubmit={(e) => {
                e.preventDefault();
                if (resolve.check()) act.mutate({ path: 'resolve', body: resolve.values, form: resolve });
              }}
            >
              <Stack gap="xs">
                <Textarea
                  label="Resolution"
                  description="What was done, e.g. listed in the annual GEN update."
                  autosize
                  minRows={2}
                  value={resolve.values.resolution}
                  error={resolve.errors.resolution}
                  onChange={(e) => resolve.change({ resolution: e.currentTarget.value })}
                />
                <Group>
                  <Button type="submit" color="green" loading={act.isPending && act.variables?.path === 'resolve'}>
                    Resolve
                  </Button>
                </Group>
              </Stack>
            </form>
          ) : (
            <Stack gap="xs">
              <Text size="sm">
                Resolved {item.resolved_at ? showDateTime(item.resolved_at) : ''}
                {item.resolved_by ? ` by ${item.resolved_by.name}` : ''}: {item.resolution}
              </Text>
              <Group>
                <Button
                  variant="default"
                  onClick={() => act.mutate({ path: 'reopen' })}
                  loading={act.isPending && act.variables?.path === 'reopen'}
                >
                  Reopen
                </Button>
              </Group>
            </Stack>
          )}

          <Divider />
          <Title order={3} size="h5">
            History
          </Title>
          <Timeline bulletSize={12} lineWidth={2} aria-label="History">
            {item.history.map((h, i) => (
              <Timeline.Item key={i} title={<Text size="sm">{h.text}</Text>}>
                <Text size="xs" c="dimmed">
                  {showDateTime(h.at)}
                  {h.actor ? ` · ${h.actor}` : ''}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        </Stack>
      )}
    </Drawer>
  );
}

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
    queryKey: ['admin-work-queue', 'list', filters, f.page],
    queryFn: () => call(workQueueContracts.list, { query: { ...filters, page: f.page } }),
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
      void client.invalidateQueries({ queryKey: ['admin-work-queue', 'list'] });
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
