import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Group,
  List,
  Loader,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { adminConsoleContracts } from '../../../../shared/contracts/admin-console.ts';
import { centsToDollarsText } from '../../../../shared/rules/billing.ts';
import { formatCurrency } from '../../../../shared/rules/formats.ts';
import { levelFormSchema, type AdminLevel } from '../../../../shared/schemas/admin-levels.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { toastSuccess } from '../../../lib/feedback.tsx';
import { call } from '../../../lib/http.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { useAdminForm } from '../use-admin-form.ts';

const EMPTY = {
  price: '',
  price_discount: '',
  upgrade_to_id: '',
  upgrade: '',
  upgrade_discount: '',
  inc_package: '',
  inc_package_discount: '',
  renewal_features: '',
};
type Values = typeof EMPTY;

const valuesOf = (l: AdminLevel): Values => ({
  price: centsToDollarsText(l.price_cents),
  price_discount: centsToDollarsText(l.price_discount_cents),
  upgrade_to_id: l.upgrade_to_id === null ? '' : String(l.upgrade_to_id),
  upgrade: centsToDollarsText(l.upgrade_cents),
  upgrade_discount: centsToDollarsText(l.upgrade_discount_cents),
  inc_package: centsToDollarsText(l.inc_package_cents),
  inc_package_discount: centsToDollarsText(l.inc_package_discount_cents),
  renewal_features: l.renewal_features.join('\n'),
});

/** '$345.00 / early-bird $295.00' */
const pair = (price: number, early: number) => (
  <>
    <Text size="sm" fw={600}>
      {formatCurrency(price)}
    </Text>
    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
      early-bird {formatCurrency(early)}
    </Text>
  </>
);

/** Admins edit each level's prices, early-bird prices, upgrade and renewal features (docs/requirements/product.md "Staff console"). */
export default function LevelsPage() {
  const client = useQueryClient();
  const q = useQuery({ ...queryOf(adminConsoleContracts.levels, {}) });
  const [editing, setEditing] = useState<AdminLevel | null>(null);
  const form = useAdminForm<Values>(EMPTY, levelFormSchema);
  const { values, errors, change } = form;
  const formRef = useRef<HTMLFormElement>(null);

  const save = useMutation({
    mutationFn: () => {
      // Save is offered only while a level is open for editing.
      if (!editing) throw new Error('No level is open for editing.');
      return call(adminConsoleContracts.saveLevel, { params: { id: String(editing.id) }, body: values });
    },
    onSuccess: (saved) => {
      toastSuccess(`${saved.name} was saved.`);
      setEditing(null);
      form.reset();
      void client.invalidateQueries({ queryKey: keyOf(adminConsoleContracts.levels) });
    },
    onError: (err) => form.fail(err),
  });
  const edit = (l: AdminLevel) => {
    setEditing(l);
    form.reset(valuesOf(l));
    requestAnimationFrame(() => formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
  };
  const money = (name: keyof Values, label: string, description?: string) => (
    <TextInput
      label={label}
      description={description}
      withAsterisk
      inputMode="decimal"
      leftSection="$"
      value={values[name]}
      error={errors[name]}
      onChange={(e) => change({ [name]: e.currentTarget.value })}
    />
  );

  return (
    <>
      <PageHeader
        title="Levels and prices"
        lead="Prices are shown on the pricing page and used for new invoices and renewals. The early-bird price is what a group pays when it renews before its due date."
      />
      <AdminNav />
      <Stack gap="lg">
        <Card withBorder padding="md">
          {q.isPending && (
            <Center py="xl">
              <Loader role="status" aria-label="Loading" />
            </Center>
          )}
          {q.isError && <Alert color="red">The levels could not be loaded.</Alert>}
          {q.data && (
            <Table.ScrollContainer minWidth={900}>
              <Table striped verticalSpacing="sm" aria-label="Levels">
                <Table.Thead>
                  <Table.Tr>
                    {['Level', 'Price', 'Upgrade to', 'Upgrade', 'Incorporation', 'Renewal features', ''].map((c) => (
                      <Table.Th key={c}>{c || <VisuallyHidden>Actions</VisuallyHidden>}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {q.data.levels.map((l) => (
                    <Table.Tr key={l.id}>
                      <Table.Td>
                        <Text fw={700} size="sm">
                          {l.name}
                        </Text>
                        {!l.is_public && (
                          <Badge size="xs" color="gray">
                            Not on the pricing page
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>{pair(l.price_cents, l.price_discount_cents)}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{l.upgrade_to_name ?? '—'}</Text>
                      </Table.Td>
                      <Table.Td>
                        {l.upgrade_to_id !== null ? pair(l.upgrade_cents, l.upgrade_discount_cents) : '—'}
                      </Table.Td>
                      <Table.Td>
                        {l.upgrade_to_id !== null ? pair(l.inc_package_cents, l.inc_package_discount_cents) : '—'}
                      </Table.Td>
                      <Table.Td>
                        <List size="xs" spacing={2}>
                          {l.renewal_features.map((f) => (
                            <List.Item key={f}>{f}</List.Item>
                          ))}
                        </List>
                      </Table.Td>
                      <Table.Td>
                        <Button size="xs" variant="default" onClick={() => edit(l)} aria-label={`Edit ${l.name}`}>
                          Edit
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>

        {editing && q.data && (
          <Card
            withBorder
            padding="lg"
            component="form"
            ref={formRef}
            aria-label="Level"
            noValidate
            onSubmit={(e: React.FormEvent) => {
              e.preventDefault();
              if (form.check()) save.mutate();
            }}
          >
            <Stack>
              <Title order={2} size="h4">
                Edit {editing.name}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {money('price', 'Price')}
                {money(
                  'price_discount',
                  'Early-bird price',
                  'The price when renewing early, not an amount off; at most the price.',
                )}
              </SimpleGrid>
              <NativeSelect
                label="Upgrade to"
                value={values.upgrade_to_id}
                error={errors.upgrade_to_id}
                onChange={(e) => change({ upgrade_to_id: e.currentTarget.value })}
                data={[
                  { value: '', label: 'None' },
                  ...q.data.levels
                    .filter((l) => l.id !== editing.id)
                    .map((l) => ({ value: String(l.id), label: l.name })),
                ]}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {money('upgrade', 'Upgrade price')}
                {money('upgrade_discount', 'Early-bird upgrade price')}
                {money('inc_package', 'Incorporation price')}
                {money('inc_package_discount', 'Early-bird incorporation price')}
              </SimpleGrid>
              <Textarea
                label="Renewal features"
                description="One per line, as the pricing page lists them."
                autosize
                minRows={3}
                maxRows={10}
                value={values.renewal_features}
                error={errors.renewal_features}
                onChange={(e) => change({ renewal_features: e.currentTarget.value })}
              />
              <Group>
                <Button type="submit" loading={save.isPending}>
                  Save
                </Button>
                <Button
                  variant="subtle"
                  onClick={() => {
                    setEditing(null);
                    form.reset();
                  }}
                >
                  Cancel
                </Button>
              </Group>
            </Stack>
          </Card>
        )}
      </Stack>
    </>
  );
}
