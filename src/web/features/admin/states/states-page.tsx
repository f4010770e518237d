import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { adminConsoleContracts } from '../../../../shared/contracts/admin-console.ts';
import { PAGE_QUERY } from '../../../../shared/page-queries.ts';
import { centsToDollarsText } from '../../../../shared/rules/billing.ts';
import { formatCurrency } from '../../../../shared/rules/formats.ts';
import {
  FILING_MONTH_OPTIONS,
  stateRequirementFormSchema,
  type AdminStateRequirement,
} from '../../../../shared/schemas/admin-levels.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { toastSuccess } from '../../../lib/feedback.tsx';
import { call } from '../../../lib/http.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { useAdminForm } from '../use-admin-form.ts';

const EMPTY = {
  state_name: '',
  maintain_estimate: '',
  aoi_estimate: '',
  notes: '',
  filing_label: '',
  filing_due_month: '',
  filing_due_day: '',
};
type Values = typeof EMPTY;

/** 'Annual report, due May 15' for a state's kept filing; '' when none. */
function filingText(s: AdminStateRequirement): string {
  if (s.filing_due_month === null || s.filing_due_day === null) return '';
  const month = FILING_MONTH_OPTIONS.find((o) => o.value === String(s.filing_due_month))?.label ?? '';
  return `${s.filing_label ?? ''}, due ${month} ${s.filing_due_day}`;
}

/**
 * Admins edit the per-state estimates and notes of the public state registration page, and each
 * state's annual filing date for the compliance calendar, one row at a time (docs/requirements/product.md "Compliance calendar").
 */
export default function StatesPage() {
  const client = useQueryClient();
  const q = useQuery({ ...queryOf(adminConsoleContracts.states, {}) });
  const [editing, setEditing] = useState<string | null>(null);
  const form = useAdminForm<Values>(EMPTY, stateRequirementFormSchema);
  const { values, errors, change } = form;

  const save = useMutation({
    mutationFn: () => {
      // Save is offered only while a state is open for editing.
      if (!editing) throw new Error('No state is open for editing.');
      return call(adminConsoleContracts.saveState, { params: { code: editing }, body: values });
    },
    onSuccess: (saved) => {
      toastSuccess(`${saved.state_name} was saved.`);
      setEditing(null);
      form.reset();
      void client.invalidateQueries({ queryKey: keyOf(adminConsoleContracts.states) });
      void client.invalidateQueries({ queryKey: keyOf(PAGE_QUERY.stateRequirements.route) });
    },
    onError: (err) => form.fail(err),
  });
  const edit = (s: AdminStateRequirement) => {
    setEditing(s.code);
    form.reset({
      state_name: s.state_name,
      maintain_estimate: centsToDollarsText(s.maintain_estimate_cents),
      aoi_estimate: centsToDollarsText(s.aoi_estimate_cents),
      notes: s.notes,
      filing_label: s.filing_label ?? '',
      filing_due_month: s.filing_due_month === null ? '' : String(s.filing_due_month),
      filing_due_day: s.filing_due_day === null ? '' : String(s.filing_due_day),
    });
  };
  const submit = () => {
    if (form.check()) save.mutate();
  };
  const onEnter = (e: React.KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      submit();
    }
  };

  return (
    <>
      <PageHeader
        title="State requirements"
        lead={
          <>
            Estimates and notes shown on the{' '}
            <Anchor component={Link} to="/state-registration" inherit>
              state registration page
            </Anchor>
            .
          </>
        }
      />
      <AdminNav />
      <Card withBorder padding="md">
        {q.isPending && (
          <Center py="xl">
            <Loader role="status" aria-label="Loading" />
          </Center>
        )}
        {q.isError && <Alert color="red">The state requirements could not be loaded.</Alert>}
        {q.data && (
          <Table.ScrollContainer minWidth={1130}>
            <Table striped highlightOnHover verticalSpacing="xs" aria-label="State requirements">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={60}>Code</Table.Th>
                  <Table.Th w={180}>State</Table.Th>
                  <Table.Th w={130}>Maintain / year</Table.Th>
                  <Table.Th w={130}>Articles of incorporation</Table.Th>
                  <Table.Th>Notes</Table.Th>
                  <Table.Th w={230}>Annual filing</Table.Th>
                  <Table.Th w={150}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.data.states.map((s) =>
                  editing === s.code ? (
                    <Table.Tr key={s.code} aria-label={`Edit ${s.state_name}`}>
                      <Table.Td>
                        <Text fw={700} size="sm">
                          {s.code}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          size="xs"
                          aria-label="State name"
                          value={values.state_name}
                          error={errors.state_name}
                          onKeyDown={onEnter}
                          onChange={(e) => change({ state_name: e.currentTarget.value })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          size="xs"
                          aria-label="Maintain estimate"
                          leftSection="$"
                          inputMode="decimal"
                          value={values.maintain_estimate}
                          error={errors.maintain_estimate}
                          onKeyDown={onEnter}
                          onChange={(e) => change({ maintain_estimate: e.currentTarget.value })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          size="xs"
                          aria-label="Articles of incorporation estimate"
                          leftSection="$"
                          inputMode="decimal"
                          value={values.aoi_estimate}
                          error={errors.aoi_estimate}
                          onKeyDown={onEnter}
                          onChange={(e) => change({ aoi_estimate: e.currentTarget.value })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Textarea
                          size="xs"
                          aria-label="Notes"
                          autosize
                          minRows={1}
                          maxRows={4}
                          value={values.notes}
                          error={errors.notes}
                          onChange={(e) => change({ notes: e.currentTarget.value })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={4}>
                          <TextInput
                            size="xs"
                            aria-label="Filing label"
                            placeholder="Annual report"
                            value={values.filing_label}
                            error={errors.filing_label}
                            onKeyDown={onEnter}
                            onChange={(e) => change({ filing_label: e.currentTarget.value })}
                          />
                          <Group gap={4} wrap="nowrap" align="flex-start">
                            <NativeSelect
                              size="xs"
                              aria-label="Filing due month"
                              data={FILING_MONTH_OPTIONS}
                              value={values.filing_due_month}
                              error={errors.filing_due_month}
                              onChange={(e) =>
                                change({ filing_due_month: e.currentTarget.value }, ['filing_due_day', 'filing_label'])
                              }
                            />
                            <TextInput
                              size="xs"
                              w={70}
                              aria-label="Filing due day"
                              placeholder="Day"
                              inputMode="numeric"
                              value={values.filing_due_day}
                              error={errors.filing_due_day}
                              onKeyDown={onEnter}
                              onChange={(e) =>
                                change({ filing_due_day: e.currentTarget.value }, ['filing_due_month', 'filing_label'])
                              }
                            />
                          </Group>
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button size="xs" onClick={submit} loading={save.isPending}>
                            Save
                          </Button>
                          <Button
                            size="xs"
                            variant="subtle"
                            onClick={() => {
                              setEditing(null);
                              form.reset();
                            }}
                          >
                            Cancel
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ) : (
                    <Table.Tr key={s.code}>
                      <Table.Td>
                        <Text fw={700} size="sm">
                          {s.code}
                        </Text>
                      </Table.Td>
                      <Table.Td>{s.state_name}</Table.Td>
                      <Table.Td>{formatCurrency(s.maintain_estimate_cents)}</Table.Td>
                      <Table.Td>{formatCurrency(s.aoi_estimate_cents)}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{s.notes}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{filingText(s)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Button size="xs" variant="default" onClick={() => edit(s)} aria-label={`Edit ${s.state_name}`}>
                          Edit
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ),
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </>
  );
}
