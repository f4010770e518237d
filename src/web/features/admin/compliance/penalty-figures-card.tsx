import { Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { adminComplianceContracts } from '../../../../shared/contracts/admin-compliance.ts';
import { centsToDollarsText } from '../../../../shared/rules/billing.ts';
import { formatCurrency } from '../../../../shared/rules/formats.ts';
import { penaltyFiguresSchema, type PenaltyFiguresRow } from '../../../../shared/schemas/penalty-figures.ts';
import { KitForm, SubmitButton, TextField } from '../../../components/form-kit/kit.tsx';
import { useServerForm } from '../../../components/form-kit/use-server-form.ts';
import { confirmAction, toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { call, HttpFailure } from '../../../lib/http.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';

const EMPTY = {
  due_year: '',
  daily: '',
  maximum: '',
  large_receipts_over: '',
  large_daily: '',
  large_maximum: '',
  source: '',
  source_url: '',
};

/**
 * The form for one due year's figures, empty or filled from a row being corrected; posts to
 * POST /api/admin/penalty-figures with the shared schema's messages.
 */
function FiguresForm({ row, onDone }: { row: PenaltyFiguresRow | null; onDone: () => void }) {
  const kit = useServerForm({
    route: adminComplianceContracts.savePenaltyFigures,
    defaultValues: row
      ? {
          due_year: String(row.due_year),
          daily: centsToDollarsText(row.daily_cents),
          maximum: centsToDollarsText(row.maximum_cents),
          large_receipts_over: centsToDollarsText(row.large_receipts_over_cents),
          large_daily: centsToDollarsText(row.large_daily_cents),
          large_maximum: centsToDollarsText(row.large_maximum_cents),
          source: row.source,
          source_url: row.source_url,
        }
      : EMPTY,
    schema: penaltyFiguresSchema,
    onSuccess: (res) => {
      toastSuccess(res.message);
      onDone();
    },
    onFailure: (f) => {
      if (f.status !== 422 && f.status !== 429) toastFailure(f.message);
    },
  });
  return (
    <KitForm kit={kit} label="Late-filing penalty figures">
      <TextField
        name="due_year"
        label="Returns due in"
        required
        inputMode="numeric"
        description="The calendar year the returns are due in."
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField name="daily" label="Penalty a day ($)" required />
        <TextField
          name="maximum"
          label="Maximum ($)"
          required
          description="The most for one return: the lesser of this and 5% of gross receipts."
        />
        <TextField
          name="large_receipts_over"
          label="Gross receipts over ($)"
          required
          description="Above this, the larger figures apply."
        />
        <div />
        <TextField name="large_daily" label="Penalty a day above it ($)" required />
        <TextField name="large_maximum" label="Maximum above it ($)" required />
      </SimpleGrid>
      <TextField
        name="source"
        label="Source"
        required
        description="The IRS text the figures are copied from: the instructions, their tax year and section."
      />
      <TextField name="source_url" label="Address on irs.gov" description="Where the source can be read." />
      <SubmitButton
        extra={
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        }
      >
        Save figures
      </SubmitButton>
    </KitForm>
  );
}

/**
 * Admin → Revocation risk, "Late-filing penalty figures" (docs/irs-standing.md "What being late
 * costs"): the IRC §6652(c)(1)(A) figures kept for each due year, as a late Form 990 reads with
 * them, each with its source; staff add a year, correct one, or remove one after a confirmation.
 * A year without figures makes the pages name the IRS instructions to read instead.
 */
export function PenaltyFiguresCard() {
  const client = useQueryClient();
  const [editing, setEditing] = useState<PenaltyFiguresRow | 'new' | null>(null);
  const q = useQuery({
    ...queryOf(adminComplianceContracts.penaltyFigures, {}),
  });
  const reload = () => {
    setEditing(null);
    void client.invalidateQueries({ queryKey: keyOf(adminComplianceContracts.penaltyFigures) });
  };
  const remove = async (row: PenaltyFiguresRow) => {
    const ok = await confirmAction({
      title: `Remove the figures for ${row.due_year}?`,
      message: `A late return due in ${row.due_year} will then name the IRS instructions to read instead of amounts. The removal is kept in the audit log.`,
      confirm: 'Remove figures',
    });
    if (!ok) return;
    try {
      toastSuccess(
        (await call(adminComplianceContracts.deletePenaltyFigures, { params: { year: String(row.due_year) } })).message,
      );
    } catch (err) {
      toastFailure(err instanceof HttpFailure ? err.message : undefined);
    }
    reload();
  };
  const rows = q.data?.data ?? [];
  return (
    <Card withBorder padding="md" mt="lg" component="section" aria-labelledby="penalty-figures-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="penalty-figures-title">
          Late-filing penalty figures
        </Title>
        <Text size="sm" c="dimmed">
          A late Form 990, 990-EZ, 990-PF or 990-BL is penalised for each day it is late (IRC §6652(c)(1)(A)); the IRS
          adjusts the amounts for inflation each year and prints them in the return's instructions. Copy them here for
          each year, with their source: the check, the profiles and the reminders then state them for a return due that
          year.
        </Text>
        {q.isError ? (
          <Text size="sm" c="red.9">
            The figures could not be loaded.
          </Text>
        ) : rows.length === 0 && !q.isPending ? (
          <Text size="sm">No figures yet: a late return names the IRS instructions to read.</Text>
        ) : (
          <Table.ScrollContainer minWidth={700}>
            <Table aria-label="Late-filing penalty figures by due year">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Due in</Table.Th>
                  <Table.Th>Penalty a day, maximum</Table.Th>
                  <Table.Th>Above the threshold</Table.Th>
                  <Table.Th>Source</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.due_year}>
                    <Table.Td fw={700}>{r.due_year}</Table.Td>
                    <Table.Td>
                      {formatCurrency(r.daily_cents)} a day, up to {formatCurrency(r.maximum_cents)}
                    </Table.Td>
                    <Table.Td>
                      Over {formatCurrency(r.large_receipts_over_cents)}: {formatCurrency(r.large_daily_cents)} a day,
                      up to {formatCurrency(r.large_maximum_cents)}
                    </Table.Td>
                    <Table.Td>
                      {r.source_url ? (
                        <Anchor href={r.source_url} target="_blank" rel="noreferrer" size="sm">
                          {r.source}
                        </Anchor>
                      ) : (
                        <Text size="sm">{r.source}</Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => setEditing(r)}>
                          Correct {r.due_year}
                        </Button>
                        <Button size="xs" variant="subtle" color="red" onClick={() => void remove(r)}>
                          Remove {r.due_year}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {editing ? (
          <FiguresForm
            key={editing === 'new' ? 'new' : editing.due_year}
            row={editing === 'new' ? null : editing}
            onDone={reload}
          />
        ) : (
          <Group>
            <Button variant="default" onClick={() => setEditing('new')}>
              Add a year's figures
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
