import { Group, Pagination } from '@mantine/core';
import { isPaginationShown, pageWindow, type PageObject } from '../../shared/rules/pagination.ts';

/**
 * Pagination of docs/requirements/constants.md for a page object: the first and last page and 3 pages either side of the
 * current one, as `pageWindow` lists them (docs/ARCHITECTURE.md "Pagination"), shown only when
 * the total exceeds the page size. Mantine's own item list keeps a fixed count of buttons (9 near
 * either end), so the page buttons are drawn here from the shared rule instead.
 */
export function PageNav({
  page,
  onChange,
}: {
  page: Pick<PageObject<unknown>, 'total' | 'per_page' | 'last_page' | 'current_page'>;
  onChange: (page: number) => void;
}) {
  if (!isPaginationShown(page)) return null;
  return (
    <Group justify="center" mt="lg" component="nav" aria-label="Pages">
      <Pagination.Root total={page.last_page} value={page.current_page} onChange={onChange}>
        <Group gap={8} justify="center">
          <Pagination.Previous aria-label="Previous page" />
          {pageWindow(page.current_page, page.last_page).map((p, i) =>
            p === 'dots' ? (
              <Pagination.Dots key={`dots-${i}`} />
            ) : (
              <Pagination.Control
                key={p}
                active={p === page.current_page}
                aria-current={p === page.current_page ? 'page' : undefined}
                aria-label={`Page ${p}`}
                onClick={() => onChange(p)}
              >
                {p}
              </Pagination.Control>
            ),
          )}
          <Pagination.Next aria-label="Next page" />
        </Group>
      </Pagination.Root>
    </Group>
  );
}
