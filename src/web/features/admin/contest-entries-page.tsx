import { Anchor, Badge, Group, Image, NativeSelect, SegmentedControl, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { PageObject } from '../../../shared/rules/pagination.ts';
import { ENTRANT_TYPE_LABELS, type Contest, type EntrantType } from '../../../shared/schemas/contests.ts';
import { http } from '../../lib/http.ts';
import { showDateTime } from '../../lib/locale.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';
import { AdminListCard } from './admin-list-card.tsx';

interface EntryRow {
  id: number; organization: string; email: string; type: EntrantType; message: string; is_member: boolean; counts: boolean; created_at: string;
  file_id: number | null; file_name: string | null; mime_type: string | null; size_bytes: number | null; file_url: string | null;
}

/** The file of an entry: a picture for images, a player for videos, and always a download link. */
function Preview({ entry }: { entry: EntryRow }) {
  if (!entry.file_url) return <Text size="sm" c="dimmed">No file</Text>;
  const isImage = entry.mime_type?.startsWith('image/') && entry.mime_type !== 'image/svg+xml';
  return (
    <Group gap="sm" wrap="nowrap">
      {isImage && <Image src={`${entry.file_url}?inline=1`} alt={`Photo from ${entry.organization}`} h={64} w={96} fit="cover" radius="sm" />}
      {entry.mime_type?.startsWith('video/') && (
        <video src={entry.file_url} preload="metadata" controls width={160} aria-label={`Video from ${entry.organization}`} />
      )}
      <Anchor href={entry.file_url} download={entry.file_name ?? undefined} size="sm">Download {entry.file_name}</Anchor>
    </Group>
  );
}

/**
 * Admins browse each contest's entries with previews, counted or not (SPEC tool 4). Entries past
 * the counted three are no longer kept (docs/security.md "Upload quotas"): "Not counted" lists
 * only those received before.
 */
export default function ContestEntriesPage() {
  const [params, setParams] = useSearchParams();
  const contest = (params.get('contest') === 'video' ? 'video' : 'photo') as Contest;
  const counted = params.get('counted') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    queryKey: ['admin-contest-entries', contest, counted, page],
    queryFn: () => http.get<PageObject<EntryRow>>(`/api/admin/contests/${contest}/entries`, { page, ...(counted ? { counted } : {}) }),
    placeholderData: keepPreviousData,
  });
  const set = (next: Record<string, string>) => setParams(Object.fromEntries(Object.entries({ contest, counted, ...next }).filter(([, v]) => v)));
  return (
    <>
      <PageHeader title="Contest entries" />
      <AdminNav />
      <Group mb="md" align="flex-end">
        <SegmentedControl aria-label="Contest" value={contest} onChange={(v) => set({ contest: v, page: '' })} data={[{ value: 'photo', label: 'Photo contest' }, { value: 'video', label: 'Video contest' }]} />
        <NativeSelect label="Counted" value={counted} onChange={(e) => set({ counted: e.currentTarget.value, page: '' })}
          data={[{ value: '', label: 'All entries' }, { value: 'yes', label: 'Counted' }, { value: 'no', label: 'Not counted (past three)' }]} />
      </Group>
      <AdminListCard
        query={q}
        label="Contest entries"
        what="The entries"
        empty={counted === 'no' ? 'No entries past the counted three: they are not kept.' : 'No entries yet.'}
        minWidth={900}
        striped
        columns={['Received', 'Organization', 'Type', 'Message', 'File', 'Counts']}
        onPage={(p) => set({ page: String(p) })}
        row={(e) => (
          <Table.Tr key={e.id}>
            <Table.Td>{showDateTime(e.created_at)}</Table.Td>
            <Table.Td>
              <Text size="sm" fw={600}>{e.organization}</Text>
              <Text size="xs" c="dimmed">{e.email}{e.is_member ? ' · member' : ''}</Text>
            </Table.Td>
            <Table.Td>{ENTRANT_TYPE_LABELS[e.type] ?? e.type}</Table.Td>
            <Table.Td maw={260}><Text size="sm" lineClamp={3}>{e.message || '—'}</Text></Table.Td>
            <Table.Td><Preview entry={e} /></Table.Td>
            <Table.Td>{e.counts ? <Badge color="green">Counts</Badge> : <Badge color="gray">Extra</Badge>}</Table.Td>
          </Table.Tr>
        )}
      />
    </>
  );
}
