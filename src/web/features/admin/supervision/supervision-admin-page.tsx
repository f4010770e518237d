import { Alert, NativeSelect, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { supervisionContracts } from '../../../../shared/contracts/supervision.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import {
  EducationCard,
  SupervisionFilters,
  supervisionColumns,
  supervisionRow,
} from '../../../components/supervision-status.tsx';
import { call } from '../../../lib/http.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { addressParams } from '../use-list-filters.ts';

/**
 * /admin/supervision (docs/supervision.md "Staff"): for one GEN group and one tax year, each
 * member group's supervision report and whether the IRS 990-N data shows its return, filtered and
 * paginated; and this year's compliance education notice, sent once after a confirmation.
 */
export default function SupervisionAdminPage() {
  const [params, setParams] = useSearchParams();
  const overview = useQuery({
    ...queryOf(supervisionContracts.overview, {}),
  });
  const groupId = Number(params.get('group_id')) || overview.data?.groups[0]?.id || null;
  const taxYear = Number(params.get('tax_year')) || overview.data?.default_tax_year || null;
  const status = params.get('status') ?? '';
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery({
    ...queryOf(supervisionContracts.list, {
      query: {
        group_id: groupId ?? undefined,
        tax_year: taxYear ?? undefined,
        status: status || undefined,
        search: search || undefined,
        page,
      },
    }),
    enabled: groupId !== null && taxYear !== null,
    placeholderData: keepPreviousData,
  });
  const set = (patch: Record<string, string>) => {
    // From the address as it is now, which can be a step ahead of this render (addressParams).
    const now = addressParams();
    const next = {
      group_id: now.get('group_id') || String(groupId ?? ''),
      tax_year: now.get('tax_year') || String(taxYear ?? ''),
      status: now.get('status') ?? '',
      search: now.get('search') ?? '',
      page: '1',
      ...patch,
    };
    setParams(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== '')));
  };
  const group = overview.data?.groups.find((g) => g.id === groupId);
  const years = overview.data ? Array.from({ length: 6 }, (_, i) => overview.data.default_tax_year + 1 - i) : [];
  return (
    <>
      <PageHeader
        title="Supervision"
        lead="Each member group's yearly supervision report and Form 990-N, per GEN and tax year, and the yearly compliance education notice."
      />
      <AdminNav />
      {overview.isError && <Alert color="red">The GEN groups could not be loaded.</Alert>}
      {overview.data && overview.data.groups.length === 0 && (
        <Text c="dimmed" py="lg" ta="center">
          No GEN groups yet. Groups appear once a roster or the IRS data is imported.
        </Text>
      )}
      {overview.data && group && (
        <Stack gap="lg">
          <SupervisionFilters
            taxYears={years}
            taxYear={taxYear}
            status={status}
            search={search}
            onChange={(patch) => set(patch)}
          >
            <NativeSelect
              label="GEN group"
              w={300}
              value={String(group.id)}
              onChange={(e) => set({ group_id: e.currentTarget.value })}
              data={overview.data.groups.map((g) => ({
                value: String(g.id),
                label: `${g.label}${g.gen ? ` (GEN ${g.gen})` : ''}`,
              }))}
            />
          </SupervisionFilters>
          <EducationCard
            group={group}
            year={overview.data.year}
            send={() =>
              call(supervisionContracts.sendEducation, { body: { group_id: group.id, year: overview.data.year } })
            }
            refresh={keyOf(supervisionContracts.overview)}
          />
          <Text size="sm" c="dimmed">
            Tax year {taxYear} is the calendar year the fiscal year ends in. {group.members} member groups in{' '}
            {group.label}.
          </Text>
          <ListCard
            query={list}
            label={`Supervision status for tax year ${taxYear}`}
            what="The supervision status"
            empty="No member groups match."
            columns={supervisionColumns(true)}
            minWidth={900}
            onPage={(p) => set({ page: String(p) })}
            row={(r) => supervisionRow(r, taxYear, true)}
          />
        </Stack>
      )}
    </>
  );
}
