import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  List,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { adminGenUpdateContracts } from '../../../../shared/contracts/admin-gen-update.ts';
import { MONTH_NAMES } from '../../../../shared/lists/months.ts';
import { longDate } from '../../../../shared/rules/compliance-calendar.ts';
import { formatEin } from '../../../../shared/rules/formats.ts';
import { FOUNDATION_CODES, GEN_SUBSECTIONS } from '../../../../shared/rules/gen-update.ts';
import { subsectionLabel } from '../../../../shared/rules/standing.ts';
import {
  genSettingsSchema,
  genSubmitSchema,
  PURPOSE_STATEMENT_MAX,
  type GenItem,
  type GenUpdateView,
} from '../../../../shared/schemas/gen-updates.ts';
import { PageNav } from '../../../components/page-nav.tsx';
import { confirmAction, toastSuccess } from '../../../lib/feedback.tsx';
import { call, hrefOf } from '../../../lib/http.ts';
import { keyOf } from '../../../lib/queries.ts';
import { useAdminForm } from '../use-admin-form.ts';

const LINES_PER_PAGE = 25;
const ACTION: Record<GenItem['action'], { label: string; color: string }> = {
  add: { label: 'Addition', color: 'green' },
  delete: { label: 'Deletion', color: 'red' },
  change: { label: 'Change', color: 'blue' },
  roster: { label: 'Roster', color: 'gray' },
  unchanged: { label: 'Unchanged', color: 'gray' },
};
export const WINDOW_STATE = {
  upcoming: { label: 'Window not open yet', color: 'gray' },
  open: { label: 'Window open', color: 'green' },
  closed: { label: 'Window closed', color: 'red' },
} as const;

export const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** Today's local calendar date, 'YYYY-MM-DD' (what a date input holds). */
function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export type GenGroupView = NonNullable<GenUpdateView['group']>;
export type GenPeriodView = NonNullable<GenUpdateView['period']>;

/**
 * The GEN settings form: central organization, EIN, accounting period, 501(c) paragraph, uniform purpose statement.
 * Keyed by the group where it is shown, so another group starts from its own saved settings.
 */
export function SettingsCard({ group: g }: { group: GenGroupView }) {
  const client = useQueryClient();
  const initial = {
    group_id: g.id,
    central_name: g.central_name,
    central_ein: formatEin(g.central_ein),
    accounting_period_end_month: g.accounting_period_end_month ? String(g.accounting_period_end_month) : '',
    subsection: g.subsection ?? '',
    uniform_purpose_statement: g.uniform_purpose_statement,
  };
  const form = useAdminForm(initial, genSettingsSchema);
  const save = useMutation({
    mutationFn: () => call(adminGenUpdateContracts.saveSettings, { body: form.values }),
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      void client.invalidateQueries({ queryKey: keyOf(adminGenUpdateContracts.show) });
    },
    onError: (err) => form.fail(err),
  });
  const v = form.values;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="gen-settings-title">
      <Title order={2} size="h4" id="gen-settings-title" mb="xs">
        GEN settings
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        What the annual update states about the central organization holding GEN {g.gen}.
      </Text>
      <form
        aria-label="GEN settings"
        onSubmit={(e) => {
          e.preventDefault();
          if (form.check()) save.mutate();
        }}
      >
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Central organization name"
              required
              value={v.central_name}
              error={form.errors.central_name}
              onChange={(e) => form.change({ central_name: e.currentTarget.value })}
            />
            <TextInput
              label="Central organization EIN"
              required
              placeholder="12-3456789"
              value={v.central_ein}
              error={form.errors.central_ein}
              onChange={(e) => form.change({ central_ein: e.currentTarget.value })}
            />
            <NativeSelect
              label="Accounting period ends in"
              required
              value={v.accounting_period_end_month}
              error={form.errors.accounting_period_end_month}
              onChange={(e) => form.change({ accounting_period_end_month: e.currentTarget.value })}
              data={[
                { value: '', label: 'Choose a month' },
                ...MONTH_NAMES.map((m, i) => ({ value: String(i + 1), label: m })),
              ]}
            />
            <NativeSelect
              label="501(c) paragraph"
              required
              value={v.subsection}
              error={form.errors.subsection}
              onChange={(e) => form.change({ subsection: e.currentTarget.value })}
              data={[
                { value: '', label: 'Choose a paragraph' },
                ...GEN_SUBSECTIONS.map((s) => ({ value: s, label: subsectionLabel(s) })),
              ]}
            />
          </SimpleGrid>
          <Textarea
            label="Uniform purpose statement"
            description="The purpose statement every subordinate shares, as kept on file."
            autosize
            minRows={3}
            maxRows={10}
            maxLength={PURPOSE_STATEMENT_MAX}
            value={v.uniform_purpose_statement}
            error={form.errors.uniform_purpose_statement}
            onChange={(e) => form.change({ uniform_purpose_statement: e.currentTarget.value })}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save settings
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** The transition checklist for 22 January 2027, with a countdown. */
export function TransitionCard({ view }: { view: GenUpdateView }) {
  const t = view.transition;
  const done = t.items.filter((i) => i.status === 'done').length;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="transition-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="transition-title">
          Transition checklist: {longDate(t.deadline)}
        </Title>
        <Badge size="lg" color={t.days_left < 0 ? 'red' : t.days_left <= 30 ? 'orange' : 'blue'} variant="light">
          {t.days_left < 0
            ? `Passed ${days(-t.days_left)} ago`
            : t.days_left === 0
              ? 'Today'
              : `${days(t.days_left)} left`}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Group exemptions that existed on January 20, 2026 have until then to meet Rev. Proc. 2026-8; missing it may end
        the group exemption and every subordinate's coverage. {done} of {t.items.length} done.
      </Text>
      <List spacing="sm" listStyleType="none" aria-label="Transition checklist">
        {t.items.map((i) => (
          <List.Item
            key={i.key}
            icon={
              <ThemeIcon size={22} radius="xl" color={i.status === 'done' ? 'green' : 'orange'} aria-hidden>
                {i.status === 'done' ? '✓' : '!'}
              </ThemeIcon>
            }
          >
            <Text fw={600} size="sm">
              {i.label}{' '}
              <Badge size="xs" variant="light" color={i.status === 'done' ? 'green' : 'orange'}>
                {i.status === 'done' ? 'Done' : 'To do'}
              </Badge>
            </Text>
            <Text size="xs" c="dimmed">
              {i.requirement}
            </Text>
            <Text size="sm">{i.detail}</Text>
          </List.Item>
        ))}
      </List>
    </Card>
  );
}

/** The lines to submit, 25 a page; keyed by group and period where it is shown, so another starts on page 1. */
export function LinesTable({ view }: { view: GenUpdateView }) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(view.items.length / LINES_PER_PAGE));
  const shown = view.items.slice((page - 1) * LINES_PER_PAGE, page * LINES_PER_PAGE);
  const withChanges = view.counts.change > 0;
  if (!view.items.length) {
    return (
      <Text c="dimmed" py="md" ta="center">
        No subordinates were added, deleted or changed since the last update
        {view.baseline ? ` (period ending ${longDate(view.baseline.period_end)})` : ''}.
      </Text>
    );
  }
  return (
    <>
      <Table.ScrollContainer minWidth={900}>
        <Table striped verticalSpacing="xs" aria-label="Lines of the update">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Action</Table.Th>
              <Table.Th>EIN</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Mailing address</Table.Th>
              <Table.Th>501(c)</Table.Th>
              <Table.Th>Private foundation</Table.Th>
              {withChanges && <Table.Th>What changed</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((i) => (
              <Table.Tr key={`${i.action}-${i.ein}`}>
                <Table.Td>
                  <Badge variant="light" color={ACTION[i.action].color} styles={{ label: { overflow: 'visible' } }}>
                    {ACTION[i.action].label}
                  </Badge>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatEin(i.ein)}</Table.Td>
                <Table.Td>{i.name}</Table.Td>
                <Table.Td>
                  <Text size="sm">{i.street}</Text>
                  <Text size="sm">
                    {[i.city, [i.state, i.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{subsectionLabel(i.subsection) || '—'}</Table.Td>
                <Table.Td title={i.foundation ? FOUNDATION_CODES[i.foundation] : undefined}>
                  {i.private_foundation === null ? 'Not stated' : i.private_foundation ? 'Yes' : 'No'}
                  {i.foundation && (
                    <Text size="xs" c="dimmed">
                      code {i.foundation}
                    </Text>
                  )}
                </Table.Td>
                {withChanges && (
                  <Table.Td>
                    {(i.changes ?? []).map((c) => (
                      <Text size="xs" key={c.field}>
                        {c.field}: {c.before ?? '(none)'} → {c.after ?? '(none)'}
                      </Text>
                    ))}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed">
            Lines {(page - 1) * LINES_PER_PAGE + 1}–{Math.min(page * LINES_PER_PAGE, view.items.length)} of{' '}
            {view.items.length}
          </Text>
          <PageNav
            page={{ total: view.items.length, per_page: LINES_PER_PAGE, last_page: pages, current_page: page }}
            onChange={setPage}
          />
        </Group>
      )}
    </>
  );
}

/**
 * Recording the submission: a date (not in the future), a confirmation, then the frozen record. Keyed by group and
 * period where it is shown, so another starts from today's date.
 */
export function SubmissionCard({
  view,
  group: g,
  period: p,
}: {
  view: GenUpdateView;
  group: GenGroupView;
  period: GenPeriodView;
}) {
  const query = { group_id: g.id, period_end: p.period_end };
  const client = useQueryClient();
  const form = useAdminForm({ group_id: g.id, period_end: p.period_end, submitted_on: localToday() }, genSubmitSchema);
  const submit = useMutation({
    mutationFn: () => call(adminGenUpdateContracts.submit, { body: form.values }),
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      void client.invalidateQueries({ queryKey: keyOf(adminGenUpdateContracts.show) });
    },
    onError: (err) => form.fail(err),
  });
  const failed = view.checks.filter((c) => !c.passed).length;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="submission-title">
      <Title order={2} size="h4" id="submission-title" mb="xs">
        Export and submission
      </Title>
      <Group mb="sm">
        <Button component="a" variant="default" href={hrefOf(adminGenUpdateContracts.exportCsv, { query })} download>
          Download CSV
        </Button>
        <Button component="a" variant="default" href={hrefOf(adminGenUpdateContracts.exportPdf, { query })} download>
          Download PDF
        </Button>
      </Group>
      {view.submission ? (
        <Alert color={view.submission.in_window ? 'green' : 'orange'} title="Submission recorded">
          Submitted to the IRS on {longDate(view.submission.submitted_on)}
          {view.submission.submitted_by ? `, recorded by ${view.submission.submitted_by}` : ''}, with{' '}
          {view.submission.items} {view.submission.items === 1 ? 'line' : 'lines'}; the lines above are frozen as
          submitted.
          {!view.submission.in_window && ' That date is outside the window of 90 to 30 days before the period ends.'}
        </Alert>
      ) : (
        <form
          aria-label="Record the submission"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!form.check()) return;
            const ok = await confirmAction({
              title: 'Record the submission',
              message: `Record that the annual update for the period ending ${longDate(p.period_end)} was submitted to the IRS on ${longDate(form.values.submitted_on)}? Its ${view.items.length} ${view.items.length === 1 ? 'line is' : 'lines are'} frozen as they are now, and it cannot be recorded twice.${failed ? ` ${failed} ${failed === 1 ? 'check fails' : 'checks fail'}.` : ''}`,
              confirm: 'Record submission',
              confirmColor: 'blue',
            });
            if (ok) submit.mutate();
          }}
        >
          <Group align="flex-start">
            <TextInput
              label="Date submitted to the IRS"
              type="date"
              w={220}
              value={form.values.submitted_on}
              max={localToday()}
              error={form.errors.submitted_on ?? form.errors.period_end}
              onChange={(e) => form.change({ submitted_on: e.currentTarget.value })}
            />
            <Button type="submit" mt={25} loading={submit.isPending}>
              Record submission
            </Button>
          </Group>
        </form>
      )}
    </Card>
  );
}
