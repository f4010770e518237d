import { Anchor, Badge, Group, Image, NativeSelect, SegmentedControl, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminContestsContracts } from '../../../../shared/contracts/admin-contests.ts';
import { ENTRANT_TYPE_LABELS, type Contest, type EntrantType } from '../../../../shared/schemas/contests.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { hrefOf } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { ListSearch } from '../list-search.tsx';
import { useListFilters } from '../use-list-filters.ts';
import type { ContractAnswer } from '../../../../shared/contracts/contract.ts';

const FILTERS = ['contest', 'search', 'counted', 'sort'] as const;

type EntryRow = ContractAnswer<typeof adminContestsContracts.entries>['data'][number];

/** The file of an entry: a picture for images, a player for videos, and always a download link. */
function Preview({ entry }: { entry: EntryRow }) {
  if (!entry.file_url)
    return (
      <Text size="sm" c="dimmed">
        No file
      </Text>
    );
  const isImage = entry.mime_type?.startsWith('image/') && entry.mime_type !== 'image/svg+xml';
  return (
    <Group gap="sm" wrap="nowrap">
      {isImage && (
        <Image
          src={`${entry.file_url}?inline=1`}
          alt={`Photo from ${entry.organization}`}
          h={64}
          w={96}
          fit="cover"
          radius="sm"
        />
      )}
      {entry.mime_type?.startsWith('video/') && (
        // A member's upload comes without a caption file, so an empty captions track would claim what is not there.
        // eslint-disable-next-line jsx-a11y/media-has-caption -- staff preview the file as entered to judge it
        <video
          src={entry.file_url}
          preload="metadata"
          controls
          width={160}
          aria-label={`Video from ${entry.organization}`}
        />
      )}
      <Anchor href={entry.file_url} download={entry.file_name ?? undefined} size="sm">
        Download {entry.file_name}
      </Anchor>
    </Group>
  );
}

/**
 * Admins browse each contest's entries with previews, counted or not (docs/requirements/product.md tool 4). Entries past
 * the counted three are no longer kept (docs/security.md "Upload quotas"): "Not counted" lists
 * only those received before. Searched by organization or e-mail, sorted by a column title, all
 * kept in the address, with "Export CSV" of every matching entry (docs/staff-lists.md).
 */
export default function ContestEntriesPage() {
  const { current, page, query, go } = useListFilters(FILTERS);
  const contest = (current.contest === 'video' ? 'video' : 'photo') as Contest;
  const { contest: _contest, ...listQuery } = query;
  const q = useQuery({
    ...queryOf(adminContestsContracts.entries, { params: { contest }, query: { ...listQuery, page } }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Contest entries" />
      <AdminNav />
      <SegmentedControl
        mb="md"
        aria-label="Contest"
        value={contest}
        onChange={(v) => go({ contest: v === 'photo' ? '' : v })}
        data={[
          { value: 'photo', label: 'Photo contest' },
          { value: 'video', label: 'Video contest' },
        ]}
      />
      <ListSearch
        label="Contest entries"
        placeholder="Organization or e-mail"
        search={current.search}
        onSearch={(search) => go({ search })}
        filtered={Boolean(current.search || current.counted)}
        onClear={() => go({ search: '', counted: '' })}
        exportHref={hrefOf(adminContestsContracts.entriesCsv, { params: { contest }, query: listQuery })}
      >
        <NativeSelect
          label="Counted"
          value={current.counted}
          onChange={(e) => go({ counted: e.currentTarget.value })}
          data={[
            { value: '', label: 'All entries' },
            { value: 'yes', label: 'Counted' },
            { value: 'no', label: 'Not counted (past three)' },
          ]}
        />
      </ListSearch>
      <ListCard
        query={q}
        label="Contest entries"
        what="The entries"
        empty={
          current.counted === 'no'
            ? 'No entries past the counted three: they are not kept.'
            : current.search
              ? 'No entries match.'
              : 'No entries yet.'
        }
        minWidth={900}
        striped
        columns={[
          { title: 'Received', sort: 'created_at' },
          { title: 'Organization', sort: 'organization' },
          { title: 'Type', sort: 'type' },
          'Message',
          'File',
          { title: 'Counts', sort: 'counts' },
        ]}
        sort={current.sort || '-created_at'}
        onSort={(sort) => go({ sort: sort === '-created_at' ? '' : sort })}
        onPage={(p) => go({ page: p })}
        row={(e) => (
          <Table.Tr key={e.id}>
            <Table.Td>{showDateTime(e.created_at)}</Table.Td>
            <Table.Td>
              <Text size="sm" fw={600}>
                {e.organization}
              </Text>
              <Text size="xs" c="dimmed">
                {e.email}
                {e.is_member ? ' · member' : ''}
              </Text>
            </Table.Td>
            <Table.Td>{ENTRANT_TYPE_LABELS[e.type as EntrantType] ?? e.type}</Table.Td>
            <Table.Td maw={260}>
              <Text size="sm" lineClamp={3}>
                {e.message || '—'}
              </Text>
            </Table.Td>
            <Table.Td>
              <Preview entry={e} />
            </Table.Td>
            <Table.Td>{e.counts ? <Badge color="green">Counts</Badge> : <Badge color="gray">Extra</Badge>}</Table.Td>
          </Table.Tr>
        )}
      />
    </>
  );
}
