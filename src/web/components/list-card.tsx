import { Alert, Card, Center, Loader, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { PageNav } from './page-nav.tsx';
import type { PageObject } from '../../shared/rules/pagination.ts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/** A column the list can be sorted by: its title and the `sort` value of the list's query (ascending). */
export interface SortableColumn {
  title: string;
  sort: string;
}

/**
 * A column title that sorts the list: a click sorts by it ascending, a second click descending
 * (`-column`, as the list's query takes it); `aria-sort` tells screen readers the current order.
 */
export function SortableTh({
  column,
  sort,
  onSort,
}: {
  column: SortableColumn;
  sort: string;
  onSort: (sort: string) => void;
}) {
  const asc = sort === column.sort;
  const desc = sort === `-${column.sort}`;
  return (
    <Table.Th aria-sort={asc ? 'ascending' : desc ? 'descending' : 'none'}>
      <UnstyledButton
        fw={700}
        fz="sm"
        style={{ whiteSpace: 'nowrap' }}
        onClick={() => onSort(asc ? `-${column.sort}` : column.sort)}
      >
        {column.title} <span aria-hidden="true">{asc ? '▲' : desc ? '▼' : '↕'}</span>
        <VisuallyHidden>
          {asc ? ', sorted ascending; sort descending' : desc ? ', sorted descending; sort ascending' : ', sort'}
        </VisuallyHidden>
      </UnstyledButton>
    </Table.Th>
  );
}

/**
 * One paginated list (staff's lists and the central organization's workspace): a spinner while loading, a readable error, an empty state, the table
 * (named by `label`, with `columns` as headers and `row` rendering each item) and the page links.
 */
export function ListCard<T>({
  query,
  label,
  what,
  empty,
  columns,
  row,
  minWidth = 700,
  onPage,
  striped = true,
  sort = '',
  onSort,
}: {
  query: UseQueryResult<PageObject<T>>;
  /** The table's accessible name, e.g. 'Applications'. */
  label: string;
  /** What could not be loaded, e.g. 'The applications'. */
  what: string;
  /** The empty state, e.g. 'No applications yet.' */
  empty: string;
  /** Column titles; a SortableColumn's title sorts the list (with `sort` and `onSort`). */
  columns: (ReactNode | SortableColumn)[];
  row: (item: T) => ReactNode;
  minWidth?: number;
  onPage: (page: number) => void;
  striped?: boolean;
  /** The list's current `sort` value, e.g. '-created_at'. */
  sort?: string;
  onSort?: (sort: string) => void;
}) {
  const q = query;
  return (
    <Card withBorder padding="md">
      {q.isPending && (
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      )}
      {q.isError && <Alert color="red">{what} could not be loaded.</Alert>}
      {q.data && q.data.total === 0 && (
        <Text c="dimmed" py="lg" ta="center">
          {empty}
        </Text>
      )}
      {q.data && q.data.total > 0 && (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table striped={striped} highlightOnHover verticalSpacing="sm" aria-label={label}>
            <Table.Thead>
              {/* A column of buttons has no visible title; screen readers still hear one. */}
              <Table.Tr>
                {columns.map((c, i) =>
                  isSortable(c) && onSort ? (
                    <SortableTh key={i} column={c} sort={sort} onSort={onSort} />
                  ) : (
                    <Table.Th key={i}>
                      {c === '' ? <VisuallyHidden>Actions</VisuallyHidden> : isSortable(c) ? c.title : c}
                    </Table.Th>
                  ),
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{q.data.data.map(row)}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {q.data && <PageNav page={q.data} onChange={onPage} />}
    </Card>
  );
}

function isSortable(c: ReactNode | SortableColumn): c is SortableColumn {
  return !!c && typeof c === 'object' && 'sort' in c && 'title' in c;
}
