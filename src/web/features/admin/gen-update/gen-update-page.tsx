import {
  Alert,
  Anchor,
  Badge,
  Card,
  Center,
  Group,
  List,
  Loader,
  NativeSelect,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { adminGenUpdateContracts } from '../../../../shared/contracts/admin-gen-update.ts';
import { longDate } from '../../../../shared/rules/compliance-calendar.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { WINDOW_STATE, days, SettingsCard, TransitionCard, LinesTable, SubmissionCard } from './gen-update-cards.tsx';

/**
 * Admin → Annual GEN update (docs/irs-gen-duties.md): the transition checklist for 22 January
 * 2027, the GEN settings, and for the accounting period chosen (the current one by default) the
 * window, the checks, the lines to submit, the exports and the record of the submission; and the
 * way to the group's central organization's workspace (docs/roles.md "Central organizations").
 */
export default function GenUpdatePage() {
  const [params, setParams] = useSearchParams();
  const groupId = params.get('group_id') ?? '';
  const periodEnd = params.get('period_end') ?? '';
  const q = useQuery({
    ...queryOf(adminGenUpdateContracts.show, {
      query: { group_id: groupId || undefined, period_end: periodEnd || undefined },
    }),
  });
  const view = q.data;
  const query = new URLSearchParams({
    ...(view?.group ? { group_id: String(view.group.id) } : {}),
    ...(view?.period ? { period_end: view.period.period_end } : {}),
  }).toString();
  const group = view?.group ?? null;
  const p = view?.period;
  // A period exists only once the group's accounting period end month is set (GenUpdateView).
  const month = group?.accounting_period_end_month;
  const periodOptions =
    p && month
      ? [-1, 0, 1].map((d) => {
          const year = Number(p.period_end.slice(0, 4)) + d;
          const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
          const iso = `${year}-${String(month).padStart(2, '0')}-${String(last).padStart(2, '0')}`;
          return { value: iso, label: longDate(iso) };
        })
      : [];
  return (
    <>
      <PageHeader
        title="Annual GEN update"
        lead="The yearly subordinate information a central organization submits to the IRS under Rev. Proc. 2026-8: at least 30 and at most 90 days before its accounting period closes."
      />
      <AdminNav />
      {q.isPending && (
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      )}
      {q.isError && <Alert color="red">The annual GEN update could not be loaded.</Alert>}
      {view && !view.group && (
        <Card withBorder padding="lg">
          <Text c="dimmed" ta="center">
            No group exemption (GEN) is recorded yet. Import the IRS roster of your GEN first.
          </Text>
        </Card>
      )}
      {view?.group && (
        <Stack gap="lg">
          <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
            {view.groups.length > 1 && (
              <NativeSelect
                label="Group exemption"
                w={360}
                maw="100%"
                value={String(view.group.id)}
                onChange={(e) => setParams({ group_id: e.currentTarget.value })}
                data={view.groups.map((g) => ({ value: String(g.id), label: `GEN ${g.gen}: ${g.label}` }))}
              />
            )}
            {/* The group's own workspace, as its central organization's users see it (docs/roles.md "Central organizations"). */}
            <Anchor component={Link} to={`/app/group/${view.group.id}`}>
              Open the central organization’s workspace
            </Anchor>
          </Group>
          <TransitionCard view={view} />
          <SettingsCard key={view.group.id} group={view.group} />
          {!p ? (
            <Alert color="orange" title="Settings needed">
              Choose the month the accounting period ends in the GEN settings: the window and the update follow from it.
            </Alert>
          ) : (
            <Card withBorder padding="md" component="section" aria-labelledby="update-title">
              <Group justify="space-between" align="flex-end" mb="xs">
                <Title order={2} size="h4" id="update-title">
                  Update for the period ending {longDate(p.period_end)}
                </Title>
                <NativeSelect
                  label="Accounting period ending"
                  size="xs"
                  w={200}
                  value={p.period_end}
                  data={periodOptions}
                  onChange={(e) =>
                    group && setParams({ group_id: String(group.id), period_end: e.currentTarget.value })
                  }
                />
              </Group>
              <Group gap="xs" mb="xs">
                <Badge color={WINDOW_STATE[p.state].color} variant="light">
                  {WINDOW_STATE[p.state].label}
                </Badge>
                <Text size="sm">
                  Submit between <b>{longDate(p.opens_on)}</b> and <b>{longDate(p.closes_on)}</b>
                  {p.state === 'upcoming'
                    ? ` (opens in ${days(p.days_until_open)})`
                    : p.state === 'open'
                      ? ` (${p.days_left === 0 ? 'closes today' : `${days(p.days_left)} left`})`
                      : ''}
                  .
                </Text>
              </Group>
              <Text size="sm" c="dimmed" mb="md">
                {view.baseline
                  ? `Additions, deletions and changes since the update for the period ending ${longDate(view.baseline.period_end)} (submitted ${longDate(view.baseline.submitted_on)}).`
                  : 'First update: the whole roster is listed, and becomes the baseline of the next one.'}{' '}
                {view.roster_count} {view.roster_count === 1 ? 'subordinate' : 'subordinates'} on the roster now.
              </Text>
              <Title order={3} size="h5" mb="xs">
                Checks
              </Title>
              <List spacing="xs" listStyleType="none" mb="md" aria-label="Checks">
                {view.checks.map((c) => (
                  <List.Item
                    key={c.key}
                    icon={
                      <Badge
                        color={c.passed ? 'green' : 'red'}
                        variant="filled"
                        miw={56}
                        styles={{ label: { overflow: 'visible' } }}
                      >
                        {c.passed ? 'Pass' : 'Fail'}
                      </Badge>
                    }
                  >
                    <Text size="sm">
                      <b>{c.label}.</b> {c.reason}
                    </Text>
                  </List.Item>
                ))}
              </List>
              <Group gap="xs" mb="xs">
                <Title order={3} size="h5">
                  Lines to submit
                </Title>
                {view.counts.roster > 0 && (
                  <Badge variant="light" color="gray">
                    {view.counts.roster} on the roster
                  </Badge>
                )}
                {view.baseline && (
                  <>
                    <Badge variant="light" color="green">
                      {view.counts.add} added
                    </Badge>
                    <Badge variant="light" color="red">
                      {view.counts.delete} deleted
                    </Badge>
                    <Badge variant="light" color="blue">
                      {view.counts.change} changed
                    </Badge>
                  </>
                )}
              </Group>
              <LinesTable key={query} view={view} />
            </Card>
          )}
          {p && <SubmissionCard key={query} view={view} group={view.group} period={p} />}
          <Text size="xs" c="dimmed">
            Rules: Rev. Proc. 2026-8 (published January 20, 2026), which modifies and supersedes Rev. Proc. 80-27. The
            IRS's electronic submission procedure applies once it is published.
          </Text>
        </Stack>
      )}
    </>
  );
}
