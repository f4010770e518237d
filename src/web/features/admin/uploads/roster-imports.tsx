import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Paper,
  ScrollArea,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { adminRosterImportsContracts } from '../../../../shared/contracts/admin-roster-imports.ts';
import { SortableTh } from '../../../components/list-card.tsx';
import { PageNav } from '../../../components/page-nav.tsx';
import { hrefOf } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { ListSearch } from '../list-search.tsx';
import { useListFilters } from '../use-list-filters.ts';
import { IMPORT_STATUS } from './roster-import-status.ts';
import type { RosterImportReport, RosterRowIssue } from '../../../../shared/schemas/generic-upload.ts';
import type { RosterImportSummary } from '../../../../shared/schemas/roster-imports.ts';

const number = (n: number) => n.toLocaleString('en-US');
const LAYOUT_LABEL: Record<string, string> = { 'irs-bmf': 'IRS EO BMF extract', roster: 'Roster' };

const SHOWN_ISSUES = 50;

export function ImportReport({ report }: { report: RosterImportReport }) {
  const issues: (RosterRowIssue & { outcome: 'Rejected' | 'Skipped' })[] = [
    ...report.rejected.map((i) => ({ ...i, outcome: 'Rejected' as const })),
    ...report.skipped.map((i) => ({ ...i, outcome: 'Skipped' as const })),
  ];
  const listed = issues.slice(0, SHOWN_ISSUES);
  const total = report.skipped_count + report.rejected_count;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="baseline">
        <Title order={3} size="h5">
          Account import
        </Title>
        <Text size="sm" c="dimmed">
          {report.group ? `Group: ${report.group.label}` : 'No group'}
        </Text>
      </Group>
      <SimpleGrid cols={3} spacing="sm">
        <Stat label="Created" value={report.created} color="green" />
        <Stat label="Skipped" value={report.skipped_count} color="yellow" />
        <Stat label="Rejected" value={report.rejected_count} color="red" />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        {report.files
          .map(
            (f) =>
              `${f.file_name}: ${LAYOUT_LABEL[f.layout] ?? f.layout}, ${number(f.read)} ${f.read === 1 ? 'row' : 'rows'}`,
          )
          .join(' · ')}
      </Text>
      {listed.length > 0 && (
        <>
          <ScrollArea.Autosize mah={360} type="auto">
            <Table striped withTableBorder fz="sm" aria-label="Skipped and rejected rows" stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={report.files.length > 1 ? 160 : 64}>Row</Table.Th>
                  <Table.Th w={104}>Outcome</Table.Th>
                  <Table.Th>Reason</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {listed.map((i) => (
                  <Table.Tr key={`${i.outcome}-${i.file_name}-${i.row}-${i.reason}`}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {report.files.length > 1 ? `${i.file_name} ` : ''}
                      {i.row}
                    </Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="light" miw={84} color={i.outcome === 'Rejected' ? 'red' : 'yellow'}>
                        {i.outcome}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{i.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          {total > listed.length && (
            <Text size="xs" c="dimmed">
              Showing the first {number(listed.length)} of {number(total)} skipped and rejected rows.
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

function Stat({ label, value, color }: { label: string; value: number; color: string }) {
  return (
    <Paper bg={`var(--mantine-color-${color}-light)`} p="sm" radius="md" ta="center">
      <Text fz={26} fw={700} lh={1.1} data-testid={`import-${label.toLowerCase()}`}>
        {number(value)}
      </Text>
      <Text size="xs" tt="uppercase" fw={600} c="gray.7">
        {label}
      </Text>
    </Paper>
  );
}

/** The preview an IRS file was staged as: its counts and the way to review and confirm it. */
export function StagedRosterImport({ staged }: { staged: RosterImportSummary }) {
  const c = staged.counts;
  const skipped = c.other_gen + c.no_gen;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="baseline">
        <Title order={3} size="h5">
          IRS roster preview for GEN {staged.gen}
        </Title>
        <Badge variant="light" color="blue">
          Not applied yet
        </Badge>
      </Group>
      <SimpleGrid cols={3} spacing="sm">
        <Stat label="Adds" value={c.adds} color="green" />
        <Stat label="Changes" value={c.changes} color="blue" />
        <Stat label="Removals" value={c.removals} color="red" />
      </SimpleGrid>
      <Text size="sm">
        {number(c.read)} {c.read === 1 ? 'row' : 'rows'} read: {number(c.gen_rows)} of GEN {staged.gen} taken,{' '}
        {number(skipped)} of other GENs or without a GEN skipped
        {c.rejected ? `, ${number(c.rejected)} rejected` : ''}. Nothing is listed publicly until you confirm.
      </Text>
      <Group>
        <Button component={Link} to={`/admin/uploads/roster-imports/${staged.id}`} size="sm">
          Review import #{staged.id}
        </Button>
      </Group>
    </Stack>
  );
}

const IMPORT_FILTERS = ['search', 'status', 'sort'] as const;

/**
 * Every roster import of an IRS file, newest first, with its status, counts, who and when;
 * searched by GEN or file name, filtered by status, sorted by a column title, all kept in the
 * address, with "Export CSV" of every matching import (docs/staff-lists.md).
 */
export function RosterImports() {
  const { current, page, query, filtered, go } = useListFilters(IMPORT_FILTERS);
  const q = useQuery({
    ...queryOf(adminRosterImportsContracts.list, { query: { ...query, page } }),
    placeholderData: keepPreviousData,
  });
  const sort = current.sort || '-created_at';
  const onSort = (next: string) => go({ sort: next === '-created_at' ? '' : next });
  const th = (title: string, column: string) => (
    <SortableTh column={{ title, sort: column }} sort={sort} onSort={onSort} />
  );
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="roster-imports-title">
      <Title order={2} size="h4" id="roster-imports-title" mb="sm">
        Roster imports of IRS files
      </Title>
      <ListSearch
        label="Roster imports"
        placeholder="GEN or file name"
        search={current.search}
        onSearch={(search) => go({ search })}
        filtered={filtered}
        onClear={() => go({ search: '', status: '' })}
        exportHref={hrefOf(adminRosterImportsContracts.exportCsv, { query })}
      >
        <NativeSelect
          label="Status"
          value={current.status}
          onChange={(e) => go({ status: e.currentTarget.value })}
          data={[
            { value: '', label: 'Any status' },
            ...Object.entries(IMPORT_STATUS).map(([value, v]) => ({ value, label: v.label })),
          ]}
        />
      </ListSearch>
      {q.isPending && (
        <Center py="md">
          <Loader size="sm" role="status" aria-label="Loading" />
        </Center>
      )}
      {q.isError && <Alert color="red">The roster imports could not be loaded.</Alert>}
      {q.data && q.data.total === 0 && (
        <Text c="dimmed" py="lg" ta="center">
          {filtered
            ? 'No imports match.'
            : 'No IRS file has been imported yet. Tick "Create new accounts from a roster" and drop an IRS EO BMF extract to stage one.'}
        </Text>
      )}
      {q.data && q.data.total > 0 && (
        <>
          <ScrollArea type="auto">
            <Table striped withTableBorder fz="sm" aria-label="Roster imports" miw={760}>
              <Table.Thead>
                <Table.Tr>
                  {th('Import', 'id')}
                  {th('GEN', 'gen')}
                  {th('File', 'file_name')}
                  {th('Status', 'status')}
                  <Table.Th ta="right">Adds</Table.Th>
                  <Table.Th ta="right">Changes</Table.Th>
                  <Table.Th ta="right">Removals</Table.Th>
                  {th('Uploaded', 'created_at')}
                  <Table.Th>Confirmed / undone</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.data.data.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/uploads/roster-imports/${r.id}`} size="sm">
                        #{r.id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{r.gen}</Table.Td>
                    <Table.Td>{r.file_name}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Badge
                        size="sm"
                        variant="light"
                        color={IMPORT_STATUS[r.status].color}
                        styles={{ label: { overflow: 'visible' } }}
                      >
                        {IMPORT_STATUS[r.status].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{number(r.counts.adds)}</Table.Td>
                    <Table.Td ta="right">{number(r.counts.changes)}</Table.Td>
                    <Table.Td ta="right">{number(r.counts.removals)}</Table.Td>
                    <Table.Td>
                      {showDateTime(r.created_at)}
                      {r.created_by ? ` · ${r.created_by}` : ''}
                    </Table.Td>
                    <Table.Td>
                      {r.undone_at
                        ? `Undone ${showDateTime(r.undone_at)}${r.undone_by ? ` · ${r.undone_by}` : ''}`
                        : r.confirmed_at
                          ? `${showDateTime(r.confirmed_at)}${r.confirmed_by ? ` · ${r.confirmed_by}` : ''}`
                          : '—'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          <PageNav page={q.data} onChange={(p) => go({ page: p })} />
        </>
      )}
    </Card>
  );
}
