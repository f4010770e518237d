import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { supervisionContracts } from '../../../../shared/contracts/supervision.ts';
import { formatCurrency, formatEin } from '../../../../shared/rules/formats.ts';
import {
  SUPERVISION_STATUS_LABELS,
  SUPERVISION_STATUSES,
  type SupervisionOverview,
} from '../../../../shared/schemas/supervision.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { confirmAction, toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { call, HttpFailure } from '../../../lib/http.ts';
import { showDate, showDateTime } from '../../../lib/locale.ts';
import { AdminListCard } from '../admin-list-card.tsx';
import { AdminNav } from '../admin-nav.tsx';
import { addressParams } from '../use-list-filters.ts';

type Group = SupervisionOverview['groups'][number];

/** This year's compliance education notice of one GEN group: when it was sent, or the button that sends it (after a confirmation). */
function EducationCard({ group, year }: { group: Group; year: number }) {
  const client = useQueryClient();
  const send = useMutation({
    mutationFn: () => call(supervisionContracts.sendEducation, { body: { group_id: group.id, year } }),
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      void client.invalidateQueries({ queryKey: ['admin-supervision-overview'] });
    },
    onError: (err) => toastFailure(err instanceof HttpFailure ? err.message : undefined),
  });
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="education-title">
      <Title order={2} size="h4" id="education-title" mb="xs">
        Compliance education {year}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Rev. Proc. 2026-8 asks the central organization to give every subordinate compliance education each year; an
        e-mail with a link to IRS Publication 557 is enough. It is sent once a year to the users of every member group.
      </Text>
      {group.education ? (
        <Alert color="green" variant="light" title="Sent">
          Sent {showDateTime(group.education.sent_at)}
          {group.education.sent_by ? ` by ${group.education.sent_by}` : ''} to {group.education.recipients} users.
        </Alert>
      ) : group.recipients === 0 ? (
        <Alert color="gray" variant="light">
          No member group of {group.label} has a user yet: there is nobody to send the notice to.
        </Alert>
      ) : (
        <Button
          loading={send.isPending}
          onClick={async () => {
            const ok = await confirmAction({
              title: `Send the ${year} compliance education notice?`,
              message: `This e-mails ${group.recipients} users of ${group.members} member groups of ${group.label} a reminder of their filing duties and a link to IRS Publication 557. It can be sent once a year.`,
              confirm: 'Send the notice',
              confirmColor: 'blue',
            });
            if (ok) send.mutate();
          }}
        >
          Send the {year} compliance education notice
        </Button>
      )}
    </Card>
  );
}

/**
 * /admin/supervision (docs/supervision.md "Staff"): for one GEN group and one tax year, each
 * member group's supervision report and whether the IRS 990-N data shows its return, filtered and
 * paginated; and this year's compliance education notice, sent once after a confirmation.
 */
export default function SupervisionAdminPage() {
  const [params, setParams] = useSearchParams();
  const overview = useQuery({
    queryKey: ['admin-supervision-overview'],
    queryFn: () => call(supervisionContracts.overview, {}),
  });
  const groupId = Number(params.get('group_id')) || overview.data?.groups[0]?.id || null;
  const taxYear = Number(params.get('tax_year')) || overview.data?.default_tax_year || null;
  const status = params.get('status') ?? '';
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [searchText, setSearchText] = useState(search);
  const list = useQuery({
    queryKey: ['admin-supervision', groupId, taxYear, status, search, page],
    queryFn: () =>
      call(supervisionContracts.list, {
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
          <Group
            align="flex-end"
            wrap="wrap"
            component="form"
            aria-label="Filters"
            onSubmit={(e: React.FormEvent) => {
              e.preventDefault();
              set({ search: searchText.trim() });
            }}
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
            <NativeSelect
              label="Tax year"
              value={String(taxYear)}
              onChange={(e) => set({ tax_year: e.currentTarget.value })}
              data={years.map((y) => ({ value: String(y), label: String(y) }))}
            />
            <NativeSelect
              label="Status"
              value={status}
              onChange={(e) => set({ status: e.currentTarget.value })}
              data={[
                { value: '', label: 'Any' },
                ...SUPERVISION_STATUSES.map((s) => ({ value: s, label: SUPERVISION_STATUS_LABELS[s] })),
              ]}
            />
            <TextInput
              label="Search"
              w={180}
              placeholder="Name or city"
              value={searchText}
              onChange={(e) => setSearchText(e.currentTarget.value)}
            />
            <Button type="submit" variant="default">
              Search
            </Button>
          </Group>
          <EducationCard group={group} year={overview.data.year} />
          <Text size="sm" c="dimmed">
            Tax year {taxYear} is the calendar year the fiscal year ends in. {group.members} member groups in{' '}
            {group.label}.
          </Text>
          <AdminListCard
            query={list}
            label={`Supervision status for tax year ${taxYear}`}
            what="The supervision status"
            empty="No member groups match."
            columns={['Group', 'Users', 'Supervision report', 'IRS Form 990-N', '']}
            minWidth={900}
            onPage={(p) => set({ page: String(p) })}
            row={(r) => (
              <Table.Tr key={r.account_id}>
                <Table.Td>
                  <Anchor component={Link} to={`/admin/accounts/show/${r.account_id}`} fw={600}>
                    {r.name}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {r.ein ? `EIN ${formatEin(r.ein)}` : 'No EIN'}
                    {r.city ? ` · ${r.city}, ${r.state}` : ''}
                  </Text>
                </Table.Td>
                <Table.Td>{r.users}</Table.Td>
                <Table.Td>
                  {r.report ? (
                    <>
                      <Badge color="blue" variant="light" tt="none">
                        Submitted {showDate(r.report.submitted_at)}
                      </Badge>
                      <Text size="xs" c="dimmed">
                        Receipts {formatCurrency(r.report.gross_receipts_cents)} · expenses{' '}
                        {formatCurrency(r.report.expenses_cents)}
                      </Text>
                    </>
                  ) : (
                    <Badge color="orange" variant="light">
                      Missing
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  {r.filed ? (
                    <Badge color="green" variant="light" tt="none">
                      Filed: seen in the IRS 990-N data released {showDate(r.filed.released_on)}
                    </Badge>
                  ) : (
                    <Text size="sm" c="dimmed">
                      Not seen
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={`/app/supervision?account_id=${r.account_id}&tax_year=${taxYear}`}
                    aria-label={`Open the report of ${r.name}`}
                  >
                    Open
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            )}
          />
        </Stack>
      )}
    </>
  );
}
