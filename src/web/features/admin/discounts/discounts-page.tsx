import {
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Radio,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { adminConsoleContracts } from '../../../../shared/contracts/admin-console.ts';
import { centsToDollarsText } from '../../../../shared/rules/billing.ts';
import { formatCurrency, formatPercent } from '../../../../shared/rules/formats.ts';
import {
  discountFormSchema,
  endDateOf,
  percentTextOf,
  startDateOf,
  type AdminDiscount,
} from '../../../../shared/schemas/admin-discounts.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { toastSuccess } from '../../../lib/feedback.tsx';
import { call } from '../../../lib/http.ts';
import { showDate } from '../../../lib/locale.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { useAdminForm } from '../use-admin-form.ts';

const FLAGS = [
  ['is_new_account', 'New accounts'],
  ['is_renewals', 'Renewals'],
  ['is_upgrades', 'Upgrades'],
  ['is_service_fees', 'Service fees'],
] as const;

const EMPTY = {
  code: '',
  description: '',
  kind: 'fixed',
  amount: '',
  is_new_account: false,
  is_renewals: false,
  is_upgrades: false,
  is_service_fees: false,
  starts_at: '',
  expires_at: '',
  max_redemptions: '',
  is_active: true,
};
type Values = typeof EMPTY;

/** A listed code -> the form's values (amount in dollars or percent, dates as the days shown). */
function valuesOf(d: AdminDiscount): Values {
  const fixed = d.currency_value_cents > 0;
  return {
    code: d.code,
    description: d.description,
    kind: fixed ? 'fixed' : 'percent',
    amount: fixed ? centsToDollarsText(d.currency_value_cents) : percentTextOf(d.multiplier),
    is_new_account: d.is_new_account,
    is_renewals: d.is_renewals,
    is_upgrades: d.is_upgrades,
    is_service_fees: d.is_service_fees,
    starts_at: startDateOf(d.starts_at),
    expires_at: endDateOf(d.expires_at),
    max_redemptions: d.max_redemptions === null ? '' : String(d.max_redemptions),
    is_active: d.is_active,
  };
}

/** 'Jun 1, 2026 – Jun 30, 2026', 'From …', 'Until …' or 'Always' (dates in UTC, as stored). */
function windowText(d: AdminDiscount): string {
  const start = startDateOf(d.starts_at);
  const end = endDateOf(d.expires_at);
  const show = (day: string) => showDate(`${day}T12:00:00Z`);
  if (start && end) return `${show(start)} – ${show(end)}`;
  if (start) return `From ${show(start)}`;
  if (end) return `Until ${show(end)}`;
  return 'Always';
}

/** Admins list, create and edit discount codes (docs/requirements/product.md "Staff console"); codes are switched off, never deleted. */
export default function DiscountsPage() {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    ...queryOf(adminConsoleContracts.discounts, { query: { page } }),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<AdminDiscount | null>(null);
  const form = useAdminForm<Values>(EMPTY, discountFormSchema);
  const { values, errors, change } = form;
  const formRef = useRef<HTMLFormElement>(null);

  const save = useMutation({
    mutationFn: () =>
      editing
        ? call(adminConsoleContracts.saveDiscount, { params: { id: String(editing.id) }, body: values })
        : call(adminConsoleContracts.createDiscount, { body: values }),
    onSuccess: (saved) => {
      toastSuccess(editing ? `${saved.code} was saved.` : `${saved.code} was created.`);
      setEditing(null);
      form.reset();
      void client.invalidateQueries({ queryKey: keyOf(adminConsoleContracts.discounts) });
    },
    onError: (err) => form.fail(err),
  });

  const edit = (d: AdminDiscount) => {
    setEditing(d);
    form.reset(valuesOf(d));
    formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  const fixed = values.kind === 'fixed';
  return (
    <>
      <PageHeader
        title="Discount codes"
        lead="Codes payers type on the billing screen. A used code cannot be deleted: switch it off instead."
      />
      <AdminNav />
      <Stack gap="lg">
        <ListCard
          query={q}
          label="Discount codes"
          what="The discount codes"
          empty="No discount codes yet."
          minWidth={1000}
          columns={['Code', 'Off', 'Applies to', 'Active window', 'Uses', 'Status', '']}
          onPage={(p) => setParams({ page: String(p) })}
          row={(d) => (
            <Table.Tr key={d.id}>
              <Table.Td>
                <Text fw={700} ff="monospace">
                  {d.code}
                </Text>
                {d.description && (
                  <Text size="xs" c="dimmed">
                    {d.description}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {d.currency_value_cents > 0 ? formatCurrency(d.currency_value_cents) : formatPercent(d.multiplier)}
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {FLAGS.filter(([k]) => d[k]).map(([k, label]) => (
                    <Badge key={k} variant="light" size="sm">
                      {label}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{windowText(d)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                used {d.used}
                {d.max_redemptions !== null ? ` of ${d.max_redemptions}` : ''}
              </Table.Td>
              <Table.Td>
                <Badge style={{ overflow: 'visible' }} miw={70} color={d.is_active ? 'green' : 'gray'}>
                  {d.is_active ? 'Active' : 'Off'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="default" onClick={() => edit(d)} aria-label={`Edit ${d.code}`}>
                  Edit
                </Button>
              </Table.Td>
            </Table.Tr>
          )}
        />

        <Card
          withBorder
          padding="lg"
          component="form"
          ref={formRef}
          aria-label="Discount code"
          noValidate
          onSubmit={(e: React.FormEvent) => {
            e.preventDefault();
            if (form.check()) save.mutate();
          }}
        >
          <Stack>
            <Title order={2} size="h4">
              {editing ? `Edit ${editing.code}` : 'New discount code'}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Code"
                withAsterisk
                value={values.code}
                error={errors.code}
                maxLength={64}
                description="Letters, digits, - and _; payers may type it in any case."
                onChange={(e) => change({ code: e.currentTarget.value.toUpperCase() })}
              />
              <TextInput
                label="Description"
                value={values.description}
                error={errors.description}
                maxLength={255}
                description="For admins; payers see the amount only."
                onChange={(e) => change({ description: e.currentTarget.value })}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Radio.Group
                label="Kind"
                value={values.kind}
                onChange={(v) => change({ kind: v }, ['amount'])}
                error={errors.kind}
              >
                <Group mt={6}>
                  <Radio value="fixed" label="Fixed amount" />
                  <Radio value="percent" label="Percentage" />
                </Group>
              </Radio.Group>
              <TextInput
                label={fixed ? 'Amount off (dollars)' : 'Percentage off (0–100)'}
                withAsterisk
                inputMode="decimal"
                leftSection={fixed ? '$' : undefined}
                rightSection={fixed ? undefined : '%'}
                value={values.amount}
                error={errors.amount}
                onChange={(e) => change({ amount: e.currentTarget.value })}
              />
            </SimpleGrid>
            <Stack
              gap={6}
              component="fieldset"
              style={{ border: 0, padding: 0, margin: 0 }}
              aria-describedby={errors.flags ? 'discount-flags-error' : undefined}
            >
              <Text component="legend" size="sm" fw={500}>
                Applies to{' '}
                <Text span c="red">
                  *
                </Text>
              </Text>
              <Group>
                {FLAGS.map(([k, label]) => (
                  <Checkbox
                    key={k}
                    label={label}
                    checked={values[k]}
                    onChange={(e) => change({ [k]: e.currentTarget.checked }, ['flags'])}
                  />
                ))}
              </Group>
              {errors.flags && (
                <Text id="discount-flags-error" size="xs" c="red">
                  {errors.flags}
                </Text>
              )}
            </Stack>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                type="date"
                label="Starts"
                description="Empty: from now"
                value={values.starts_at}
                error={errors.starts_at}
                onChange={(e) => change({ starts_at: e.currentTarget.value }, ['expires_at'])}
              />
              <TextInput
                type="date"
                label="Ends"
                description="Last day it works; empty: no end"
                value={values.expires_at}
                error={errors.expires_at}
                onChange={(e) => change({ expires_at: e.currentTarget.value })}
              />
              <TextInput
                label="Use limit"
                description="Payments that may use it; empty: unlimited"
                inputMode="numeric"
                placeholder="Unlimited"
                value={values.max_redemptions}
                error={errors.max_redemptions}
                onChange={(e) => change({ max_redemptions: e.currentTarget.value })}
              />
            </SimpleGrid>
            <Checkbox
              label="Active (payers can use it)"
              checked={values.is_active}
              onChange={(e) => change({ is_active: e.currentTarget.checked })}
            />
            <Group>
              <Button type="submit" loading={save.isPending}>
                {editing ? 'Save' : 'Create code'}
              </Button>
              {editing && (
                <Button
                  variant="subtle"
                  onClick={() => {
                    setEditing(null);
                    form.reset();
                  }}
                >
                  Cancel
                </Button>
              )}
            </Group>
          </Stack>
        </Card>
      </Stack>
    </>
  );
}
