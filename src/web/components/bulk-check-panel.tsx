import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { STANDING_LABELS, type StandingState } from '../../shared/rules/standing.ts';
import {
  IRS_BULK_CHECK_MAX_ROWS,
  type IrsBulkCheck,
  type IrsBulkCheckList,
} from '../../shared/schemas/irs-bulk-check.ts';
import { toastSuccess } from '../lib/feedback.tsx';
import { showDateTime } from '../lib/locale.ts';
import { useFileUpload } from '../lib/use-file-upload.ts';

const number = (n: number) => n.toLocaleString('en-US');

/** A count's label: a standing's words, or "Not found". */
const countLabel = (key: string) =>
  key === 'not_found' ? 'Not found in the IRS data' : (STANDING_LABELS[key as StandingState] ?? key);

/** One check's progress while it runs; its summary and download once done. */
function CheckStatus({ check, resultHref }: { check: IrsBulkCheck; resultHref: (id: number) => string }) {
  const percent = check.total ? Math.round((check.done / check.total) * 100) : 0;
  if (check.status === 'running')
    return (
      <Stack gap={4}>
        <Progress value={percent} aria-label={`Checked ${number(check.done)} of ${number(check.total)} EINs`} />
        <Text size="sm" c="dimmed">
          Checked {number(check.done)} of {number(check.total)} EINs…
        </Text>
      </Stack>
    );
  if (check.status === 'failed') return <Alert color="red">{check.error}</Alert>;
  const counts = Object.entries(check.counts).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0));
  return (
    <Stack gap="xs">
      <Anchor href={resultHref(check.id)} download>
        Download the standings of {number(check.total)} EINs (CSV)
      </Anchor>
      <Table withTableBorder fz="sm" maw={520}>
        <Table.Tbody>
          {counts.map(([key, n]) => (
            <Table.Tr key={key}>
              <Table.Td>{countLabel(key)}</Table.Td>
              <Table.Td ta="right">{number(n ?? 0)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

const STATUS_BADGE = {
  running: { color: 'blue', label: 'Running' },
  done: { color: 'green', label: 'Done' },
  failed: { color: 'red', label: 'Failed' },
} as const;

/** Where a {@link BulkCheckPanel} reads and sends its checks: the staff's routes, or a group's. */
export interface BulkCheckPanelProps {
  /** Reads the latest checks and how long they are kept: the list route's `queryOf`. */
  list: { queryKey: QueryKey; queryFn: () => Promise<IrsBulkCheckList> };
  /** Sends the multipart body (the file in `file`) and answers the check it started. */
  uploadChecks: (body: FormData) => Promise<IrsBulkCheck>;
  /** The address of a finished check's CSV of standings. */
  resultHref: (checkId: number) => string;
  /** The level of the panel's own headings (the file shown, "Earlier checks"): 2 on a page of its own, 3 in a section. */
  headingOrder?: 2 | 3;
}

/**
 * Checking a list of EINs (docs/irs-standing.md "Checking a list of EINs"): upload a CSV of EINs,
 * watch its progress, download the CSV of standings with a summary by standing, and the earlier
 * checks, with how long they are kept (RETAIN_BULK_CHECK_DAYS). Progress is read from the server
 * every second while a check runs. The staff's page (/admin/irs-bulk-checks) and a central
 * organization's workspace (docs/roles.md "Central organizations") show it, each with its routes.
 */
export function BulkCheckPanel({ list: read, uploadChecks, resultHref, headingOrder = 2 }: BulkCheckPanelProps) {
  const client = useQueryClient();
  const [current, setCurrent] = useState<number | null>(null);
  const list = useQuery({
    ...read,
    refetchInterval: (q) => (q.state.data?.data.some((r) => r.status === 'running') ? 1000 : false),
  });
  const fileUpload = useFileUpload(uploadChecks, {
    showRefusal: true,
    onDone: async (check) => {
      setCurrent(check.id);
      toastSuccess(`Checking ${number(check.total)} EINs.`);
      await client.invalidateQueries({ queryKey: read.queryKey });
    },
  });
  const checks = list.data?.data ?? [];
  const shown = checks.find((r) => r.id === current);

  return (
    <Stack gap="lg">
      <Card withBorder>
        <Stack gap="sm">
          <FileInput
            label="CSV file of EINs"
            description={`One EIN a line, in the first column, with or without the dash; a header line is optional. Up to ${number(IRS_BULK_CHECK_MAX_ROWS)} EINs.`}
            accept=".csv,.txt"
            value={fileUpload.file}
            onChange={fileUpload.choose}
            error={fileUpload.error}
            disabled={fileUpload.busy}
            clearable
          />
          <Group>
            <Button onClick={() => void fileUpload.upload()} disabled={!fileUpload.file} loading={fileUpload.busy}>
              Check the EINs
            </Button>
          </Group>
          {shown && (
            <Stack gap="xs" aria-live="polite">
              <Title order={headingOrder} size="h4" style={{ overflowWrap: 'anywhere' }}>
                {shown.file_name}
              </Title>
              <CheckStatus check={shown} resultHref={resultHref} />
            </Stack>
          )}
        </Stack>
      </Card>

      <Stack gap="xs">
        <Title order={headingOrder} size={headingOrder === 2 ? 'h3' : 'h4'}>
          Earlier checks
        </Title>
        {list.isSuccess && (
          <Text size="sm" c="dimmed">
            {list.data.kept_days
              ? `A check and its CSV are deleted ${number(list.data.kept_days)} days after it finished: download what you need to keep.`
              : 'Checks and their CSVs are kept with no time limit.'}
          </Text>
        )}
        {list.isSuccess && checks.length === 0 && <Text c="dimmed">No list of EINs has been checked yet.</Text>}
        {checks.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Uploaded</Table.Th>
                  <Table.Th>File</Table.Th>
                  <Table.Th>EINs</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {checks.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>{showDateTime(r.created_at)}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.file_name}</Table.Td>
                    <Table.Td>{number(r.total)}</Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_BADGE[r.status].color} variant="light">
                        {r.status === 'running'
                          ? `${number(r.done)} of ${number(r.total)}`
                          : STATUS_BADGE[r.status].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {r.status === 'done' ? (
                        <Anchor href={resultHref(r.id)} download>
                          Download CSV
                        </Anchor>
                      ) : (
                        <Button variant="subtle" size="compact-xs" onClick={() => setCurrent(r.id)}>
                          Show
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  );
}
