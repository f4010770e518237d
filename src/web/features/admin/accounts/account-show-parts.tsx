import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { adminAccountsContracts } from '../../../../shared/contracts/admin-accounts.ts';
import { toFieldErrors } from '../../../../shared/field-errors.ts';
import {
  accountSettingsSchema,
  type AccountSettingsInput,
  type AdminAccountDetail,
} from '../../../../shared/schemas/admin-accounts.ts';
import { toastSuccess } from '../../../lib/feedback.tsx';
import { call, HttpFailure } from '../../../lib/http.ts';

/** A titled section (a landmark named by its title) with the count and the links of its list. */
export function Section({
  id,
  title,
  count,
  shown,
  actions,
  children,
}: {
  id: string;
  title: string;
  count: number;
  shown: number;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Group gap="xs">
          <Title order={2} size="h3" id={id}>
            {title}
          </Title>
          <Badge variant="light" color="gray">
            {count}
          </Badge>
        </Group>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {count === 0 ? <Text c="dimmed">None yet.</Text> : children}
      {count > shown && (
        <Text size="sm" c="dimmed" mt="xs">
          The newest {shown} of {count}.
        </Text>
      )}
    </Card>
  );
}

/** A label and its value in the summary. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div">{children}</Text>
    </div>
  );
}

/**
 * The account's renewal flags (docs/requirements/behaviour.md "Renewal", docs/requirements/errors.md): suspended from the basic renewal, its group
 * and whether that group is billed as a group (a flag of the group: every account of the group
 * gets it). Saved with PUT /api/admin/accounts/:id/settings, which audits the change; the page and
 * the renewal form are reloaded afterwards.
 */
export function AccountSettingsCard({ detail }: { detail: AdminAccountDetail }) {
  const { account: a, groups } = detail;
  const queryClient = useQueryClient();
  const [suspended, setSuspended] = useState(a.is_suspended_from_basic_renewal);
  const [groupId, setGroupId] = useState<number | null>(a.group?.id ?? null);
  const billedOf = (id: number | null) => groups.find((g) => g.id === id)?.is_billed_as_group ?? false;
  const [billed, setBilled] = useState(billedOf(a.group?.id ?? null));
  const [dueOn, setDueOn] = useState(a.renewal_due_at ? a.renewal_due_at.slice(0, 10) : '');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const group = groups.find((g) => g.id === groupId) ?? null;

  const save = async () => {
    setFailure(null);
    const parsed = accountSettingsSchema.safeParse({
      is_suspended_from_basic_renewal: suspended,
      group_id: groupId,
      is_billed_as_group: groupId === null ? false : billed,
      ...(dueOn ? { renewal_due_on: dueOn } : {}),
    });
    if (!parsed.success) {
      setFailure(Object.values(toFieldErrors(parsed.error))[0]?.[0] ?? 'Please check the settings.');
      return;
    }
    const body: AccountSettingsInput = parsed.data;
    setBusy(true);
    try {
      await call(adminAccountsContracts.saveSettings, { params: { id: String(a.id) }, body });
      await queryClient.invalidateQueries();
      toastSuccess('The account settings were saved.');
    } catch (err) {
      const f = err instanceof HttpFailure ? err : null;
      const first = f ? Object.values(f.errors).find((list) => list?.length)?.[0] : undefined;
      setFailure(first ?? f?.message ?? 'Something went wrong!');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-settings">
      <Title order={2} size="h3" id="account-settings" mb="md">
        Account settings
      </Title>
      <Stack gap="md" maw={560}>
        <Checkbox
          label="Suspended from basic renewal"
          description="The account can only renew with the upgrade."
          checked={suspended}
          disabled={busy}
          onChange={(e) => setSuspended(e.currentTarget.checked)}
        />
        <NativeSelect
          label="Group"
          value={groupId === null ? '' : String(groupId)}
          disabled={busy}
          data={[{ value: '', label: 'None' }, ...groups.map((g) => ({ value: String(g.id), label: g.label }))]}
          onChange={(e) => {
            const next = e.currentTarget.value ? Number(e.currentTarget.value) : null;
            setGroupId(next);
            setBilled(billedOf(next));
          }}
        />
        {group && (
          <Checkbox
            label="Billed as a group"
            description={`A setting of the group: it applies to every account of ${group.label}, not only this one.`}
            checked={billed}
            disabled={busy}
            onChange={(e) => setBilled(e.currentTarget.checked)}
          />
        )}
        <TextInput
          type="date"
          label="Renewal due date"
          description="Renewal opens for the account 60 days before this date."
          value={dueOn}
          disabled={busy}
          styles={{ input: { maxWidth: 220 } }}
          onChange={(e) => setDueOn(e.currentTarget.value)}
        />
        {failure && (
          <Alert color="red" title="Oops..." role="alert">
            {failure}
          </Alert>
        )}
        <Group>
          <Button onClick={() => void save()} loading={busy}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
