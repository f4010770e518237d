import { Alert, Card, Center, Loader, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { PageNav } from '../../components/page-nav.tsx';
import { queryOf } from '../../lib/queries.ts';
import classes from './verify-page.module.css';
import type { subordinateSearchContract } from '../../../shared/contracts/subordinate-search.ts';

/** Keyword box debounce (docs/requirements/constants.md). */
const SEARCH_DEBOUNCE_MS = 500;

/**
 * docs/requirements/product.md tool 16: the subordinate listing search. Keyword box (500 ms debounce), table Name, City,
 * State, pagination with 3 pages either side plus first and last, shown only when the total
 * exceeds the page size. A row click opens the public profile. The keyword and page live in the
 * address so results can be shared and survive a reload.
 */
export default function VerifyPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState(params.get('keyword') ?? '');
  const [debounced] = useDebouncedValue(keyword, SEARCH_DEBOUNCE_MS);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const activeKeyword = params.get('keyword') ?? '';

  useEffect(() => {
    // A new debounced keyword starts a new search on page 1.
    if (debounced.trim() !== activeKeyword)
      setParams(debounced.trim() ? { keyword: debounced.trim() } : {}, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const query = useQuery({
    ...queryOf(routeAt<typeof subordinateSearchContract>('GET', '/search'), {
      query: { search: 'verify-501c3', keyword: activeKeyword, page },
    }),
    placeholderData: keepPreviousData,
  });
  const result = query.data;

  const goToPage = (p: number) => setParams({ ...(activeKeyword ? { keyword: activeKeyword } : {}), page: String(p) });

  return (
    <>
      <PageHeader
        title="Verify a group’s 501(c)(3) status"
        lead="Booster clubs and other groups listed here are subordinates of our IRS group exemption: gifts to them are tax deductible. Search by name or city."
      />
      <Card withBorder padding="lg">
        <TextInput
          label="Keyword"
          placeholder="e.g. wrestling, Soldotna, Eagles"
          value={keyword}
          onChange={(e) => setKeyword(e.currentTarget.value)}
          rightSection={query.isFetching ? <Loader size="xs" aria-label="Searching" /> : null}
          maw={480}
          mb="md"
          type="search"
        />
        {query.isError && (
          <Alert color="red" mb="md">
            The search did not work. Please try again.
          </Alert>
        )}
        {!result && query.isPending && (
          <Center py="xl">
            <Loader role="status" aria-label="Loading" />
          </Center>
        )}
        {result && (
          <>
            <Text size="sm" c="dimmed" mb="xs" role="status" aria-live="polite">
              {result.total === 0
                ? `No organizations match “${activeKeyword}”.`
                : `Showing ${result.from}–${result.to} of ${result.total.toLocaleString('en-US')} organizations${activeKeyword ? ` matching “${activeKeyword}”` : ''}.`}
            </Text>
            {result.data.length > 0 && (
              // Plain elements styled like Mantine's Table (verify-page.module.css): Mantine's
              // brings its scroll area, and its cells render slower (docs/requirements/platform.md §6).
              <div className={classes.scroll}>
                <table className={classes.table} aria-label="Organizations">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>City</th>
                      <th>State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.data.map((row) => (
                      <tr key={row.id} onClick={() => navigate(`/app/account/show/${row.id}`)}>
                        <td>
                          <Link
                            to={`/app/account/show/${row.id}`}
                            className={classes.link}
                            onClick={(e) => e.stopPropagation()}
                          >
                            {row.name}
                          </Link>
                        </td>
                        <td>{row.city}</td>
                        <td>{row.state}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <PageNav page={result} onChange={goToPage} />
          </>
        )}
      </Card>
    </>
  );
}
