import { Alert, Badge, Button, Card, Center, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { adminJobContracts } from '../../../../shared/contracts/admin-jobs.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { confirmAction, toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { HttpFailure, call } from '../../../lib/http.ts';
import { showDateTime } from '../../../lib/locale.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import type { JobRunView, JobView } from '../../../../shared/schemas/admin-jobs.ts';

const RESULT: Record<JobRunView['result'], { label: string; color: string }> = {
  ok: { label: 'OK', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  timed_out: { label: 'Timed out', color: 'orange' },
  running: { label: 'Running', color: 'blue' },
};

const TRIGGER: Record<JobRunView['trigger'], string> = {
  schedule: 'scheduled',
  staff: 'by staff',
  startup: 'at start',
};
const STARTED_BY: Record<JobRunView['trigger'], string> = {
  schedule: 'Schedule',
  staff: 'Staff',
  startup: 'Server start',
};

/** "30 s", "5 min", "2 h". */
function span(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

function ResultBadge({ result }: { result: JobRunView['result'] }) {
  return (
    <Badge color={RESULT[result].color} variant="light">
      {RESULT[result].label}
    </Badge>
  );
}

/** "1.2 s", "3 min": how long a run took. */
function duration(run: JobRunView): string {
  if (!run.finished_at) return '';
  const ms = new Date(run.finished_at).getTime() - new Date(run.started_at).getTime();
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
}

function LastRun({ job }: { job: JobView }) {
  const run = job.last_run;
  if (!run) {
    return (
      <Text size="sm" c="dimmed">
        Never run{job.last_checked_at ? `; last checked ${showDateTime(job.last_checked_at)}, nothing to do` : ''}
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <ResultBadge result={run.result} />
        <Text size="sm">{run.items_done} done</Text>
      </Group>
      <Text size="xs" c="dimmed">
        {showDateTime(run.started_at)} · {TRIGGER[run.trigger]}
        {run.finished_at ? ` · ${duration(run)}` : ''}
      </Text>
      {/* A quiet poll's idle rounds are not recorded: say when it last looked. */}
      {job.last_checked_at &&
        new Date(job.last_checked_at).getTime() > new Date(run.finished_at ?? run.started_at).getTime() + 1000 && (
          <Text size="xs" c="dimmed">
            Last checked {showDateTime(job.last_checked_at)}
          </Text>
        )}
    </Stack>
  );
}

function Failures({ job }: { job: JobView }) {
  if (!job.recent_failures.length)
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  const latest = job.recent_failures[0];
  return (
    <Stack gap={2}>
      <Text size="sm">{job.recent_failures.length === 5 ? '5 or more' : job.recent_failures.length} recent</Text>
      <Text size="xs" c="red.9" title={latest.error ?? ''} lineClamp={2}>
        {showDateTime(latest.started_at)}: {latest.error}
      </Text>
    </Stack>
  );
}

/** One job's recorded runs, newest first, 25 a page. */
function RunHistory({ job }: { job: JobView }) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    ...queryOf(adminJobContracts.runs, { params: { name: job.name }, query: { page } }),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack gap="xs" mt="lg">
      <Title order={2} size="h4">
        Runs of {job.title}
      </Title>
      <ListCard
        query={q}
        label={`Runs of ${job.title}`}
        what="The runs"
        empty="No runs recorded yet."
        columns={['Started', 'Result', 'Items done', 'Took', 'Started by', 'Error']}
        onPage={setPage}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td>{showDateTime(r.started_at)}</Table.Td>
            <Table.Td>
              <ResultBadge result={r.result} />
              {r.attempt > 1 && (
                <Text size="xs" c="dimmed">
                  attempt {r.attempt}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{r.items_done}</Table.Td>
            <Table.Td>{duration(r)}</Table.Td>
            <Table.Td>{STARTED_BY[r.trigger]}</Table.Td>
            <Table.Td>{r.error ? <Code>{r.error}</Code> : ''}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

/**
 * Admin → Jobs (docs/jobs.md "Staff page"): every scheduled job with its schedule, last run, next
 * run and recent failures; "Run now" (after a confirmation) runs one in this server and shows
 * the recorded result; "Runs" lists a job's history.
 */
export default function JobsPage() {
  const client = useQueryClient();
  const [shown, setShown] = useState<string | null>(null);
  const q = useQuery({ ...queryOf(adminJobContracts.list, {}) });
  const run = useMutation({
    mutationFn: (job: JobView) => call(adminJobContracts.run, { params: { name: job.name } }),
    onSuccess: (answer) => {
      if (answer.run.result === 'ok') toastSuccess(answer.message);
      else toastFailure(answer.message, 'The job did not succeed');
    },
    onError: (err) => toastFailure(err instanceof HttpFailure ? err.message : undefined),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: keyOf(adminJobContracts.list) });
      void client.invalidateQueries({ queryKey: keyOf(adminJobContracts.runs) });
    },
  });
  const runNow = async (job: JobView) => {
    const ok = await confirmAction({
      title: `Run ${job.title} now?`,
      message: 'It runs in this server right away, as it would on its schedule, and the run is recorded.',
      confirm: 'Run now',
      confirmColor: 'blue',
    });
    if (ok) run.mutate(job);
  };
  const jobs = q.data?.data ?? [];
  const shownJob = jobs.find((j) => j.name === shown);

  return (
    <>
      <PageHeader
        title="Jobs"
        lead="The server's scheduled jobs: when each last ran and how it went, when it runs next, and its recent failures."
      />
      <AdminNav />
      <Card withBorder padding="md">
        {q.isPending && (
          <Center py="xl">
            <Loader role="status" aria-label="Loading" />
          </Center>
        )}
        {q.isError && <Alert color="red">The jobs could not be loaded.</Alert>}
        {q.data && jobs.length === 0 && (
          <Text c="dimmed" py="lg" ta="center">
            No jobs are defined.
          </Text>
        )}
        {jobs.length > 0 && (
          <Table.ScrollContainer minWidth={980}>
            <Table verticalSpacing="sm" highlightOnHover aria-label="Jobs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Job</Table.Th>
                  <Table.Th>Schedule</Table.Th>
                  <Table.Th>Last run</Table.Th>
                  <Table.Th>Next run</Table.Th>
                  <Table.Th>Failures</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {jobs.map((job) => (
                  <Table.Tr key={job.name}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {job.title}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {job.name}
                      </Text>
                      {job.unavailable && (
                        <Text size="xs" c="gray.7" fs="italic" maw={280}>
                          {job.unavailable}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{job.schedule}</Text>
                      <Text size="xs" c="dimmed">
                        Timeout {span(job.timeout_ms)}
                        {job.retry.limit
                          ? ` · ${job.retry.limit} ${job.retry.limit === 1 ? 'retry' : 'retries'}`
                          : ' · no retries'}
                      </Text>
                    </Table.Td>
                    <Table.Td>{job.running ? <ResultBadge result="running" /> : <LastRun job={job} />}</Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {job.next_run_at
                          ? showDateTime(job.next_run_at)
                          : job.schedule === 'At server start'
                            ? 'At next start'
                            : '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Failures job={job} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          onClick={() => void runNow(job)}
                          disabled={!!job.unavailable || job.running}
                          loading={run.isPending && run.variables?.name === job.name}
                        >
                          Run now
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setShown(shown === job.name ? null : job.name)}
                          aria-pressed={shown === job.name}
                        >
                          Runs
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {shownJob && <RunHistory key={shownJob.name} job={shownJob} />}
    </>
  );
}
