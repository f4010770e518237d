import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  List,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { adminRosterImportsContracts } from '../../../../shared/contracts/admin-roster-imports.ts';
import { countOf } from '../../../../shared/text.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { PageNav } from '../../../components/page-nav.tsx';
import { confirmAction, toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { call, HttpFailure } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { IMPORT_STATUS } from './roster-import-status.ts';
import type { RosterImportAction } from '../../../../shared/schemas/roster-imports.ts';

const number = (n: number) => n.toLocaleString('en-US');

const TABS: { action: RosterImportAction; label: string; empty: string }[] = [
  {
    action: 'add',
    label: 'Adds',
    empty: 'No new subordinates: every EIN of the GEN in the file is already an account.',
  },
  { action: 'change', label: 'Changes', empty: 'No changes: the accounts already hold what the file says.' },
  {
    action: 'remove',
    label: 'Removals',
    empty: 'No removals: every listed subordinate in the states the file covers is in the file.',
  },
];

const roster = adminRosterImportsContracts;
/** The three actions on an import; each answers with a message and the import as it is now. */
const ACTIONS = {
  confirm: (input: { params: { id: string } }) => call(roster.confirm, input),
  discard: (input: { params: { id: string } }) => call(roster.discard, input),
  undo: (input: { params: { id: string } }) => call(roster.undo, input),
};

/**
 * One roster import of an IRS file (docs/irs-data.md "Roster import"): what the file held (rows of
 * the GEN taken, of other GENs and without a GEN skipped, rejected), the preview of adds, changes
 * and removals in paged lists, and Confirm / Discard (a preview) or Undo (the latest confirmed
 * import of its GEN), each after a confirmation dialog. Staff only.
 */
export default function RosterImportPage() {
  const { id = '' } = useParams();
  const client = useQueryClient();
  const read = queryOf(roster.show, { params: { id } });
  const q = useQuery({ ...read, retry: false });
  const act = useMutation({
    mutationFn: (action: 'confirm' | 'discard' | 'undo') => ACTIONS[action]({ params: { id } }),
    onSuccess: (data) => {
      client.setQueryData(read.queryKey, data.import);
      void client.invalidateQueries({ queryKey: keyOf(roster.rows, { id }) });
      // Dropped, not just invalidated: the list must not show the old status while it reloads.
      client.removeQueries({ queryKey: keyOf(adminRosterImportsContracts.list) });
      toastSuccess(data.message);
    },
    onError: (err) => {
      toastFailure(err instanceof HttpFailure && err.message ? err.message : undefined);
      void client.invalidateQueries({ queryKey: read.queryKey });
    },
  });

  if (q.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) {
    return (
      <>
        <PageHeader title="Roster import" />
        <AdminNav />
        <Alert color="red">This roster import could not be found.</Alert>
      </>
    );
  }
  const r = q.data;
  const c = r.counts;
  const status = IMPORT_STATUS[r.status];

  async function run(action: 'confirm' | 'discard' | 'undo') {
    const dialogs = {
      confirm: {
        title: `Confirm import #${r.id}?`,
        message: `${countOf(c.adds, 'new subordinate', 'new subordinates')} will be added and listed in the public search, ${countOf(c.changes, 'account', 'accounts')} changed, and ${countOf(c.removals, 'subordinate', 'subordinates')} taken off the public list (never deleted). You can undo this import as one batch.`,
        confirm: 'Confirm import',
        color: 'blue',
      },
      discard: {
        title: `Discard the preview of import #${r.id}?`,
        message: 'Nothing has been written; the preview is kept in the list of imports as discarded.',
        confirm: 'Discard preview',
        color: 'red',
      },
      undo: {
        title: `Undo import #${r.id}?`,
        message: `The ${countOf(c.adds, 'added subordinate', 'added subordinates')} will be removed (kept unlisted when other records refer to them), the changes put back, and the ${countOf(c.removals, 'removed subordinate', 'removed subordinates')} listed again.`,
        confirm: 'Undo import',
        color: 'red',
      },
    }[action];
    if (
      await confirmAction({
        title: dialogs.title,
        message: dialogs.message,
        confirm: dialogs.confirm,
        confirmColor: dialogs.color,
      })
    )
      act.mutate(action);
  }

  const skipped = c.other_gen + c.no_gen;
  return (
    <>
      <PageHeader title={`Roster import #${r.id}`} lead={`GEN ${r.gen} · ${r.group.label}`} />
      <AdminNav />
      <Stack gap="lg">
        <Card withBorder padding="lg" component="section" aria-labelledby="import-summary-title">
          <Stack gap="md">
            <Group justify="space-between" align="flex-start">
              <Stack gap={4}>
                <Title order={2} size="h4" id="import-summary-title">
                  {r.file_name}
                </Title>
                <Text size="sm" c="dimmed">
                  Uploaded {showDateTime(r.created_at)}
                  {r.created_by ? ` by ${r.created_by}` : ''}
                  {r.confirmed_at
                    ? ` · confirmed ${showDateTime(r.confirmed_at)}${r.confirmed_by ? ` by ${r.confirmed_by}` : ''}`
                    : ''}
                  {r.undone_at
                    ? ` · undone ${showDateTime(r.undone_at)}${r.undone_by ? ` by ${r.undone_by}` : ''}`
                    : ''}
                </Text>
              </Stack>
              <Badge size="lg" variant="light" color={status.color}>
                {status.label}
              </Badge>
            </Group>
            {r.status === 'preview' && r.can_confirm && (
              <Alert color="blue" title="Nothing has been written yet">
                The public search lists nothing from this file until you confirm. Confirming applies every add, change
                and removal below at once.
              </Alert>
            )}
            {r.blocked_reason && (
              <Alert
                color="yellow"
                title={
                  r.status === 'preview'
                    ? 'This preview can no longer be confirmed'
                    : 'This import cannot be undone now'
                }
              >
                {r.blocked_reason}
              </Alert>
            )}
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              <Stat label="Adds" value={c.adds} color="green" />
              <Stat label="Changes" value={c.changes} color="blue" />
              <Stat label="Removals" value={c.removals} color="red" />
              <Stat label="Unchanged" value={c.unchanged} color="gray" />
            </SimpleGrid>
            <List size="sm" spacing={2}>
              <List.Item>
                {countOf(c.read, 'row', 'rows')} read; {countOf(c.gen_rows, 'subordinate', 'subordinates')} of GEN{' '}
                {r.gen} taken.
              </List.Item>
              <List.Item>
                {countOf(skipped, 'row', 'rows')} skipped: {countOf(c.other_gen, 'row', 'rows')} of other GENs
                {r.other_gens.length
                  ? ` (${r.other_gens.map((g) => `${g.gen}: ${number(g.rows)}`).join(', ')}${r.other_gens.length < 10 ? '' : ', …'})`
                  : ''}
                , {countOf(c.no_gen, 'row', 'rows')} without a GEN.
              </List.Item>
              {(c.rejected > 0 || c.duplicates > 0) && (
                <List.Item>
                  {countOf(c.rejected, 'row', 'rows')} rejected,{' '}
                  {countOf(c.duplicates, 'repeated EIN', 'repeated EINs')} skipped (listed below).
                </List.Item>
              )}
              <List.Item>
                Removals are proposed only for listed subordinates in the{' '}
                {r.covered_states.length === 1 ? 'state' : 'states'} this file covers:{' '}
                {r.covered_states.join(', ') || 'none'}.
              </List.Item>
            </List>
            <Group>
              {r.status === 'preview' && (
                <>
                  <Button
                    onClick={() => void run('confirm')}
                    loading={act.isPending && act.variables === 'confirm'}
                    disabled={!r.can_confirm || act.isPending}
                  >
                    Confirm import
                  </Button>
                  <Button
                    variant="default"
                    color="red"
                    onClick={() => void run('discard')}
                    loading={act.isPending && act.variables === 'discard'}
                    disabled={act.isPending}
                  >
                    Discard preview
                  </Button>
                </>
              )}
              {r.status === 'confirmed' && (
                <Button
                  color="red"
                  variant="outline"
                  onClick={() => void run('undo')}
                  loading={act.isPending}
                  disabled={!r.can_undo || act.isPending}
                >
                  Undo import
                </Button>
              )}
              <Anchor component={Link} to="/admin/uploads" size="sm">
                All roster imports
              </Anchor>
            </Group>
          </Stack>
        </Card>

        <Card withBorder padding="lg" component="section" aria-labelledby="import-rows-title">
          <Title order={2} size="h4" id="import-rows-title" mb="sm">
            {r.status === 'preview' ? 'What confirming will do' : 'What this import did'}
          </Title>
          <Tabs defaultValue="add" keepMounted={false}>
            <Tabs.List mb="md">
              {TABS.map((t) => (
                <Tabs.Tab key={t.action} value={t.action}>
                  {t.label} ({number(t.action === 'add' ? c.adds : t.action === 'change' ? c.changes : c.removals)})
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {TABS.map((t) => (
              <Tabs.Panel key={t.action} value={t.action}>
                <ImportRows id={id} action={t.action} label={t.label} empty={t.empty} />
              </Tabs.Panel>
            ))}
          </Tabs>
        </Card>

        {(r.rejected.length > 0 || r.skipped.length > 0) && (
          <Card withBorder padding="lg" component="section" aria-labelledby="import-issues-title">
            <Title order={2} size="h4" id="import-issues-title" mb="sm">
              Rejected and repeated rows
            </Title>
            <Table striped withTableBorder fz="sm" aria-label="Rejected and repeated rows">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={160}>Row</Table.Th>
                  <Table.Th>Reason</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {[...r.rejected, ...r.skipped].map((i) => (
                  <Table.Tr key={`${i.file_name}-${i.row}-${i.reason}`}>
                    <Table.Td>
                      {i.file_name} {i.row}
                    </Table.Td>
                    <Table.Td>{i.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        )}
      </Stack>
    </>
  );
}

/** One paged list of the preview (adds, changes or removals). */
function ImportRows({
  id,
  action,
  label,
  empty,
}: {
  id: string;
  action: RosterImportAction;
  label: string;
  empty: string;
}) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    ...queryOf(roster.rows, { params: { id }, query: { action, page } }),
    placeholderData: keepPreviousData,
  });
  if (q.isPending)
    return (
      <Center py="md">
        <Loader size="sm" role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) return <Alert color="red">This list could not be loaded.</Alert>;
  const data = q.data;
  if (!data.total)
    return (
      <Text c="dimmed" ta="center" py="lg">
        {empty}
      </Text>
    );
  return (
    <>
      <Table striped withTableBorder fz="sm" aria-label={label} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th w={110}>EIN</Table.Th>
            <Table.Th>City, state</Table.Th>
            {action === 'change' && <Table.Th>What changes</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.data.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>
                {row.account_id ? (
                  <Anchor component={Link} to={`/admin/accounts/show/${row.account_id}`} size="sm">
                    {row.name}
                  </Anchor>
                ) : (
                  row.name
                )}
              </Table.Td>
              <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>
                {row.ein.replace(/^(\d{2})(\d{7})$/, '$1-$2')}
              </Table.Td>
              <Table.Td>{[row.city, row.state].filter(Boolean).join(', ')}</Table.Td>
              {action === 'change' && (
                <Table.Td>
                  <Stack gap={2}>
                    {row.changes.map((ch) => (
                      <Text key={ch.field} size="sm">
                        <Text span fw={600} size="sm">
                          {ch.label}:
                        </Text>{' '}
                        {ch.before} → {ch.after}
                      </Text>
                    ))}
                  </Stack>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="xs">
        Showing {number(data.from ?? 0)}–{number(data.to ?? 0)} of {number(data.total)}.
      </Text>
      <PageNav page={data} onChange={setPage} />
    </>
  );
}

function Stat({ label, value, color }: { label: string; value: number; color: string }) {
  return (
    <Paper bg={`var(--mantine-color-${color}-light)`} p="sm" radius="md" ta="center">
      <Text fz={26} fw={700} lh={1.1} data-testid={`roster-${label.toLowerCase()}`}>
        {number(value)}
      </Text>
      <Text size="xs" tt="uppercase" fw={600} c="gray.7">
        {label}
      </Text>
    </Paper>
  );
}
