import { Alert, Button, Group, Modal, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { extensionContracts } from '../../shared/contracts/extensions.ts';
import { longDate } from '../../shared/rules/compliance-calendar.ts';
import { periodText } from '../../shared/rules/standing.ts';
import { EXTENSION_RETURN_FORM_LABELS, filingExtensionSchema } from '../../shared/schemas/extensions.ts';
import { confirmAction, toastFailure, toastSuccess } from '../lib/feedback.tsx';
import { call, HttpFailure } from '../lib/http.ts';
import { queryOf } from '../lib/queries.ts';
import { KitForm, SubmitButton, TextField } from './form-kit/kit.tsx';
import { SelectField } from './form-kit/select-field.tsx';
import { defaultPayload, useServerForm } from './form-kit/use-server-form.ts';
import type { ContractAnswer } from '../../shared/contracts/contract.ts';

/** GET /api/account/extensions as it arrives. */
type FilingExtensionsView = ContractAnswer<typeof extensionContracts.list>;
type FilingExtensionRow = FilingExtensionsView['extensions'][number];

/** 'Period ending June 2025' for '2025-06'. */
const periodLabel = (period: string) => {
  const text = periodText(period);
  return text[0].toUpperCase() + text.slice(1);
};

/** Who recorded an extension, in words. */
function recorderText(row: FilingExtensionRow): string {
  if (row.recorded_as === 'staff') return row.recorded_by ? `${row.recorded_by} (staff)` : 'Staff';
  return row.recorded_by ?? 'A former user of the group';
}

interface ExtensionValues {
  period_end: string;
  return_form: string;
  filed_on: string;
  extended_due: string;
}

/**
 * The form of "Record a Form 8868 extension" (docs/irs-standing.md "Extensions"): the periods and
 * returns the server offers, the extended due date filled in from the period chosen, checked with
 * the shared schema and sent to POST /api/account/extensions (with `account_id` for staff); each
 * 422 message shows under its field.
 */
function ExtensionForm({
  view,
  accountId,
  suggestedPeriod,
  onDone,
  onCancel,
}: {
  view: FilingExtensionsView;
  accountId?: number;
  suggestedPeriod?: string;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const [defaults] = useState<ExtensionValues>(() => {
    const first = view.periods.find((p) => p.period_end === suggestedPeriod) ?? view.periods[0];
    return {
      period_end: first?.period_end ?? '',
      return_form: view.return_forms.length === 1 ? view.return_forms[0] : '',
      filed_on: '',
      extended_due: first?.extended_due ?? '',
    };
  });
  const kit = useServerForm<ExtensionValues, typeof extensionContracts.record>({
    route: extensionContracts.record,
    defaultValues: defaults,
    schema: filingExtensionSchema,
    isClearing: false,
    toPayload: (v) => ({ ...defaultPayload(v), ...(accountId ? { account_id: accountId } : {}) }),
    onSuccess: (res) => onDone(res.message),
    onFailure: (f) => {
      if (f.status !== 422 && f.status !== 429) toastFailure(f.message);
    },
  });
  const { setValue } = kit.form;
  const period = kit.form.watch('period_end');
  const chosen = view.periods.find((p) => p.period_end === period);
  // The extended due date follows the period: Form 8868 gives six months from its due date.
  useEffect(() => {
    if (chosen) setValue('extended_due', chosen.extended_due);
  }, [chosen, setValue]);
  return (
    <KitForm kit={kit} label="Record a Form 8868 extension">
      <SelectField
        name="period_end"
        label="Return period"
        required
        description={
          chosen
            ? `Its return was due ${longDate(chosen.due)}; Form 8868 extends it to ${longDate(chosen.extended_due)}.`
            : 'The accounting period the return covers.'
        }
        options={view.periods.map((p) => [p.period_end, periodLabel(p.period_end)])}
      />
      <SelectField
        name="return_form"
        label="Return extended"
        required
        options={view.return_forms.map((f) => [f, EXTENSION_RETURN_FORM_LABELS[f]])}
      />
      <TextField
        name="filed_on"
        type="date"
        label="Date Form 8868 was filed"
        required
        description="Form 8868 extends the return only when it is filed by the return's due date."
      />
      <TextField
        name="extended_due"
        type="date"
        label="Extended due date"
        required
        description="Six months after the due date, moved to a business day: filled in from the return period."
      />
      <SubmitButton
        extra={
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        }
      >
        Record extension
      </SubmitButton>
    </KitForm>
  );
}

/**
 * The Form 8868 extensions of an account, shown inside its standing card on /account (the group)
 * and /admin/accounts/show/{id} (staff, with `accountId`), never on the public profile
 * (docs/irs-standing.md "Extensions", docs/roles.md "Form 8868 extensions"): the recorded ones
 * (period, return, filed on, extended due date, who recorded it), "Record a Form 8868 extension"
 * in a dialog while a period can take one, and for staff "Remove" after a confirmation. Nothing
 * shows for an organization Form 8868 does not apply to (a 990-N filer, a church) that has none.
 * After a change every query is reloaded, so the standing shows the new due dates.
 * @param suggestedPeriod the period the form starts on: the return missed unless extended, if any
 */
export function FilingExtensions({ accountId, suggestedPeriod }: { accountId?: number; suggestedPeriod?: string }) {
  const queryClient = useQueryClient();
  const [recording, setRecording] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);
  const q = useQuery({
    ...queryOf(extensionContracts.list, { query: accountId ? { account_id: accountId } : {} }),
    retry: false,
  });
  const view = q.data;
  if (!view || (view.refusal && view.extensions.length === 0)) return null;

  const remove = async (row: FilingExtensionRow) => {
    const ok = await confirmAction({
      title: 'Remove this Form 8868 extension?',
      message: `The standing will count the original due date of the return for the ${periodText(row.period_end)} again, ${longDate(row.extended_due)} no longer. The removal is kept in the audit log.`,
      confirm: 'Remove extension',
    });
    if (!ok || !accountId) return;
    setRemoving(row.id);
    try {
      const res = await call(extensionContracts.remove, {
        params: { id: String(accountId), extensionId: String(row.id) },
      });
      toastSuccess(res.message);
    } catch (err) {
      toastFailure(err instanceof HttpFailure ? err.message : undefined);
    } finally {
      setRemoving(null);
      await queryClient.invalidateQueries();
    }
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby="filing-extensions-title">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={3} size="h5" id="filing-extensions-title">
          Form 8868 extensions
        </Title>
        {!view.refusal && view.periods.length > 0 && (
          <Button size="xs" variant="light" onClick={() => setRecording(true)}>
            Record a Form 8868 extension
          </Button>
        )}
      </Group>
      {view.extensions.length === 0 ? (
        <Text size="sm" c="gray.7">
          No Form 8868 extension is recorded. Form 8868 gives a Form 990, 990-EZ or 990-PF six more months when it is
          filed by the return&apos;s due date; record it here so the standing counts the extended due date.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={view.can_remove ? 640 : 540}>
          <Table aria-label="Form 8868 extensions" verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Return period</Table.Th>
                <Table.Th>Return</Table.Th>
                <Table.Th>Form 8868 filed</Table.Th>
                <Table.Th>Extended due date</Table.Th>
                <Table.Th>Recorded by</Table.Th>
                {view.can_remove && (
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.extensions.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{periodLabel(row.period_end)}</Table.Td>
                  <Table.Td>{EXTENSION_RETURN_FORM_LABELS[row.return_form]}</Table.Td>
                  <Table.Td>{longDate(row.filed_on)}</Table.Td>
                  <Table.Td>{longDate(row.extended_due)}</Table.Td>
                  <Table.Td>{recorderText(row)}</Table.Td>
                  {view.can_remove && (
                    <Table.Td ta="right">
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        loading={removing === row.id}
                        aria-label={`Remove the extension for the ${periodText(row.period_end)}`}
                        onClick={() => void remove(row)}
                      >
                        Remove
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!view.can_remove && view.extensions.length > 0 && (
        <Text size="xs" c="gray.7">
          Recorded one by mistake? Ask us to remove it.
        </Text>
      )}
      {view.refusal && (
        <Alert color="gray" variant="light" p="xs">
          <Text size="sm">{view.refusal}</Text>
        </Alert>
      )}
      <Modal
        opened={recording}
        onClose={() => setRecording(false)}
        title={<Text fw={700}>Record a Form 8868 extension</Text>}
        centered
        size="lg"
      >
        <Text size="sm" mb="md">
          Record the extension once Form 8868 is filed with the IRS. The standing then counts the extended due date, and
          the return is missed only if it is not filed by then.
        </Text>
        <ExtensionForm
          view={view}
          accountId={accountId}
          suggestedPeriod={suggestedPeriod}
          onCancel={() => setRecording(false)}
          onDone={(message) => {
            setRecording(false);
            toastSuccess(message);
            void queryClient.invalidateQueries();
          }}
        />
      </Modal>
    </Stack>
  );
}
