import { Group, Pagination } from '@mantine/core';
import { isPaginationShown, PAGINATION_SIBLINGS, type PageObject } from '../../shared/rules/pagination.ts';

/** The arrow buttons show only an icon: their names. */
const CONTROL_NAMES = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/**
 * Pagination of SPEC §9 for a page object: 3 pages either side of the current one plus the first
 * and last, shown only when the total exceeds the page size.
 */
export function PageNav({ page, onChange }: { page: Pick<PageObject<unknown>, 'total' | 'per_page' | 'last_page' | 'current_page'>; onChange: (page: number) => void }) {
  if (!isPaginationShown(page)) return null;
  return (
    <Group justify="center" mt="lg" component="nav" aria-label="Pages">
      <Pagination
        total={page.last_page}
        value={page.current_page}
        onChange={onChange}
        siblings={PAGINATION_SIBLINGS}
        boundaries={1}
        getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
        getControlProps={(control) => ({ 'aria-label': CONTROL_NAMES[control] })}
      />
    </Group>
  );
}
