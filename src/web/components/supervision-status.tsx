import { Alert, Anchor, Badge, Button, Card, Group, NativeSelect, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCurrency, formatEin } from '../../shared/rules/formats.ts';
import {
  SUPERVISION_STATUS_LABELS,
  SUPERVISION_STATUSES,
  type SupervisionOverview,
  type SupervisionStatusPage,
} from '../../shared/schemas/supervision.ts';
import { confirmAction, toastFailure, toastSuccess } from '../lib/feedback.tsx';
import { HttpFailure } from '../lib/http.ts';
import { showDate, showDateTime } from '../lib/locale.ts';

type OverviewGroup = SupervisionOverview['groups'][number];
type StatusRow = SupervisionStatusPage['data'][number];

/**
 * This year's compliance education notice of one GEN group (docs/supervision.md "Compliance
 * education"): when it was sent, or the button that sends it after a confirmation; for those who
 * may not send it (a central organization's viewer), a line saying it has not been sent yet.
 * @param send sends the notice and answers the message to show; `refresh` is invalidated after it
 */
export function EducationCard({
  group,
  year,
  send,
  refresh,
  canSend = true,
}: {
  group: OverviewGroup;
  year: number;
  send: () => Promise<{ message: string }>;
  refresh: QueryKey;
  canSend?: boolean;
}) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: send,
    onSuccess: (answer) => {
      toastSuccess(answer.message);
      void client.invalidateQueries({ queryKey: refresh });
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
      ) : !canSend ? (
        <Text size="sm">Not sent yet this year: a manager of the group sends it.</Text>
      ) : (
        <Button
          loading={mutation.isPending}
          onClick={async () => {
            const ok = await confirmAction({
              title: `Send the ${year} compliance education notice?`,
              message: `This e-mails ${group.recipients} users of ${group.members} member groups of ${group.label} a reminder of their filing duties and a link to IRS Publication 557. It can be sent once a year.`,
              confirm: 'Send the notice',
              confirmColor: 'blue',
            });
            if (ok) mutation.mutate();
          }}
        >
          Send the {year} compliance education notice
        </Button>
      )}
    </Card>
  );
}

/** The column titles of {@link supervisionRow}'s table; the last is the staff's links, when shown. */
export const supervisionColumns = (staffLinks: boolean) => [
  'Group',
  'Users',
  'Supervision report',
  'IRS Form 990-N',
  ...(staffLinks ? [''] : []),
];

/**
 * One member group's line of the supervision status list (docs/supervision.md "Staff"): its name,
 * EIN and place, its users, its report (submitted when, receipts and expenses) and whether the IRS
 * 990-N data shows its return. `staffLinks` adds the staff's links to the account and its form.
 */
export function supervisionRow(r: StatusRow, taxYear: number | null, staffLinks: boolean) {
  return (
    <Table.Tr key={r.account_id}>
      <Table.Td>
        {staffLinks ? (
          <Anchor component={Link} to={`/admin/accounts/show/${r.account_id}`} fw={600}>
            {r.name}
          </Anchor>
        ) : (
          <Text fw={600}>{r.name}</Text>
        )}
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
      {staffLinks && (
        <Table.Td>
          <Anchor
            component={Link}
            to={`/app/supervision?account_id=${r.account_id}&tax_year=${taxYear}`}
            aria-label={`Open the report of ${r.name}`}
          >
            Open
          </Anchor>
        </Table.Td>
      )}
    </Table.Tr>
  );
}

/**
 * The filters of the supervision status list (docs/supervision.md "Staff"): the tax year, the
 * status and a search by name or city (applied with Search), after any `children` (staff's GEN
 * group). Each change is handed to `onChange` as the query's fields, as text ('' for none).
 */
export function SupervisionFilters({
  taxYears,
  taxYear,
  status,
  search,
  onChange,
  children,
}: {
  taxYears: number[];
  taxYear: number | null;
  status: string;
  search: string;
  onChange: (patch: { tax_year?: string; status?: string; search?: string }) => void;
  children?: ReactNode;
}) {
  const [searchText, setSearchText] = useState(search);
  return (
    <Group
      align="flex-end"
      wrap="wrap"
      component="form"
      aria-label="Filters"
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        onChange({ search: searchText.trim() });
      }}
    >
      {children}
      <NativeSelect
        label="Tax year"
        value={String(taxYear)}
        onChange={(e) => onChange({ tax_year: e.currentTarget.value })}
        data={taxYears.map((y) => ({ value: String(y), label: String(y) }))}
      />
      <NativeSelect
        label="Status"
        value={status}
        onChange={(e) => onChange({ status: e.currentTarget.value })}
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
  );
}
