import { Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { groupWorkspaceContracts } from '../../../shared/contracts/group-workspace.ts';
import { ListCard } from '../../components/list-card.tsx';
import {
  EducationCard,
  SupervisionFilters,
  supervisionColumns,
  supervisionRow,
} from '../../components/supervision-status.tsx';
import { call } from '../../lib/http.ts';
import { queryOf } from '../../lib/queries.ts';
import type { WorkspaceSummary } from '../../../shared/schemas/group-workspace.ts';

const c = groupWorkspaceContracts;

/** The filters of the list, as the query takes them ('' for none). */
interface Filters {
  tax_year: string;
  status: string;
  search: string;
  page: number;
}

/**
 * The supervision of the group's member groups in its workspace (docs/supervision.md "Staff",
 * docs/roles.md "Central organizations"): this year's compliance education notice (sent by a
 * manager or staff, after a confirmation; a viewer sees whether it was sent), and each member
 * group's supervision report and Form 990-N for a tax year, filtered by status and searched by
 * name or city, 25 a page.
 */
export function SupervisionSection({ group }: { group: WorkspaceSummary }) {
  const groupId = String(group.id);
  const params = { groupId };
  const [filters, setFilters] = useState<Filters>({ tax_year: '', status: '', search: '', page: 1 });
  const overviewRead = queryOf(c.supervisionOverview, { params });
  const overview = useQuery(overviewRead);
  const list = useQuery({
    ...queryOf(c.supervision, {
      params,
      query: {
        tax_year: filters.tax_year ? Number(filters.tax_year) : undefined,
        status: filters.status || undefined,
        search: filters.search || undefined,
        page: filters.page,
      },
    }),
    placeholderData: keepPreviousData,
  });
  const summary = overview.data?.groups[0];
  const taxYear = list.data?.tax_year ?? overview.data?.default_tax_year ?? null;
  const years = overview.data ? Array.from({ length: 6 }, (_, i) => overview.data.default_tax_year + 1 - i) : [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="workspace-supervision-title">
      <div>
        <Title order={2} size="h3" id="workspace-supervision-title" mb={4}>
          Supervision of your member groups
        </Title>
        <Text c="gray.7">
          Each member group’s yearly supervision report and whether the IRS shows its Form 990-N, and the compliance
          education notice Rev. Proc. 2026-8 asks you to send every year.
        </Text>
      </div>
      {summary && overview.data && (
        <EducationCard
          group={summary}
          year={overview.data.year}
          send={() => call(c.sendEducation, { params, body: { year: overview.data.year } })}
          refresh={overviewRead.queryKey}
          canSend={group.role !== 'viewer'}
        />
      )}
      <SupervisionFilters
        taxYears={years}
        taxYear={taxYear}
        status={filters.status}
        search={filters.search}
        onChange={(patch) => setFilters((f) => ({ ...f, ...patch, page: 1 }))}
      />
      <ListCard
        query={list}
        label={`Supervision status for tax year ${taxYear ?? ''}`}
        what="The supervision status"
        empty={
          filters.status || filters.search
            ? 'No member groups match.'
            : 'No member groups yet: they appear once staff import the group’s roster.'
        }
        columns={supervisionColumns(false)}
        minWidth={720}
        onPage={(page) => setFilters((f) => ({ ...f, page }))}
        row={(r) => supervisionRow(r, taxYear, false)}
      />
    </Stack>
  );
}
