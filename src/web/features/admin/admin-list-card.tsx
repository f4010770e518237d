import type { ReactNode } from 'react';
import { Alert, Card, Center, Loader, Table, Text, VisuallyHidden } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { PageObject } from '../../../shared/rules/pagination.ts';
import { PageNav } from '../../components/page-nav.tsx';

/**
 * One paginated admin list: a spinner while loading, a readable error, an empty state, the table
 * (named by `label`, with `columns` as headers and `row` rendering each item) and the page links.
 */
export function AdminListCard<T>({ query, label, what, empty, columns, row, minWidth = 700, onPage, striped = true }: {
  query: UseQueryResult<PageObject<T>>;
  /** The table's accessible name, e.g. 'Applications'. */
  label: string;
  /** What could not be loaded, e.g. 'The applications'. */
  what: string;
  /** The empty state, e.g. 'No applications yet.' */
  empty: string;
  columns: ReactNode[];
  row: (item: T) => ReactNode;
  minWidth?: number;
  onPage: (page: number) => void;
  striped?: boolean;
}) {
  const q = query;
  return (
    <Card withBorder padding="md">
      {q.isPending && <Center py="xl"><Loader role="status" aria-label="Loading" /></Center>}
      {q.isError && <Alert color="red">{what} could not be loaded.</Alert>}
      {q.data && q.data.total === 0 && <Text c="dimmed" py="lg" ta="center">{empty}</Text>}
      {q.data && q.data.total > 0 && (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table striped={striped} highlightOnHover verticalSpacing="sm" aria-label={label}>
            <Table.Thead>
              {/* A column of buttons has no visible title; screen readers still hear one. */}
              <Table.Tr>{columns.map((c, i) => <Table.Th key={i}>{c === '' ? <VisuallyHidden>Actions</VisuallyHidden> : c}</Table.Th>)}</Table.Tr>
            </Table.Thead>
            <Table.Tbody>{q.data.data.map(row)}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {q.data && <PageNav page={q.data} onChange={onPage} />}
    </Card>
  );
}
