import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { adminConsoleContracts } from '../../../../shared/contracts/admin-console.ts';
import { BANNER_KINDS, type AdminBanner } from '../../../../shared/schemas/admin.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { confirmAction, toastFailure, toastSuccess } from '../../../lib/feedback.tsx';
import { HttpFailure, call } from '../../../lib/http.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';

const EMPTY = { kind: 'holiday-alert', text: '', is_active: true };
const KIND_LABEL: Record<string, string> = { 'holiday-alert': 'Holiday alert', 'urgent-alert': 'Urgent alert' };

/** Admins manage the holiday-alert and urgent-alert banners (docs/requirements/behaviour.md "Banner"). */
export default function BannersPage() {
  const client = useQueryClient();
  const q = useQuery({ ...queryOf(adminConsoleContracts.banners, {}) });
  const [editing, setEditing] = useState<number | null>(null);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = useMutation({
    mutationFn: () =>
      editing
        ? call(adminConsoleContracts.saveBanner, { params: { id: String(editing) }, body: values })
        : call(adminConsoleContracts.createBanner, { body: values }),
    onSuccess: () => {
      toastSuccess('Your data was saved.');
      setEditing(null);
      setValues(EMPTY);
      void client.invalidateQueries({ queryKey: keyOf(adminConsoleContracts.banners) });
    },
    onError: (err) => {
      if (err instanceof HttpFailure && Object.keys(err.errors).length)
        setErrors(Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [k, v[0]])));
      else toastFailure();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => call(adminConsoleContracts.deleteBanner, { params: { id: String(id) } }),
    onSuccess: () => {
      toastSuccess('The banner was deleted.');
      void client.invalidateQueries({ queryKey: keyOf(adminConsoleContracts.banners) });
    },
    onError: () => toastFailure(),
  });

  const edit = (b: AdminBanner) => {
    setEditing(b.id);
    setValues({ kind: b.kind, text: b.text, is_active: b.is_active });
    setErrors({});
  };
  const change = (patch: Partial<typeof EMPTY>) => {
    setValues({ ...values, ...patch });
    setErrors(Object.fromEntries(Object.entries(errors).filter(([k]) => !(k in patch))));
  };

  return (
    <>
      <PageHeader
        title="Banners"
        lead="Notices shown at the top of every page until a visitor dismisses them (for one day)."
      />
      <AdminNav />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder padding="md">
          {q.isPending && (
            <Center py="xl">
              <Loader role="status" aria-label="Loading" />
            </Center>
          )}
          {q.isError && <Alert color="red">The banners could not be loaded.</Alert>}
          {q.data && q.data.banners.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              No banners yet.
            </Text>
          )}
          {q.data && q.data.banners.length > 0 && (
            <Table aria-label="Banners">
              <Table.Tbody>
                {q.data.banners.map((b) => (
                  <Table.Tr key={b.id}>
                    <Table.Td>
                      <Group gap="xs" mb={4}>
                        <Badge variant="light">{KIND_LABEL[b.kind] ?? b.kind}</Badge>
                        <Badge color={b.is_active ? 'green' : 'gray'}>{b.is_active ? 'Shown' : 'Hidden'}</Badge>
                      </Group>
                      <Text size="sm">{b.text}</Text>
                    </Table.Td>
                    <Table.Td w={170}>
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => edit(b)}>
                          Edit
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          onClick={async () => {
                            if (
                              await confirmAction({
                                title: 'Are you sure?',
                                message: "You won't be able to revert this!",
                                confirm: 'Yes, delete it!',
                              })
                            )
                              remove.mutate(b.id);
                          }}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        <Card
          withBorder
          padding="lg"
          component="form"
          aria-label="Banner"
          onSubmit={(e: React.FormEvent) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Stack>
            <Title order={2} size="h4">
              {editing ? 'Edit banner' : 'New banner'}
            </Title>
            <NativeSelect
              label="Kind"
              value={values.kind}
              onChange={(e) => change({ kind: e.currentTarget.value })}
              error={errors.kind}
              data={BANNER_KINDS.map((k) => ({ value: k, label: KIND_LABEL[k] }))}
            />
            <Textarea
              label="Text"
              value={values.text}
              onChange={(e) => change({ text: e.currentTarget.value })}
              error={errors.text}
              rows={3}
              withAsterisk
            />
            <Checkbox
              label="Show on the site"
              checked={values.is_active}
              onChange={(e) => change({ is_active: e.currentTarget.checked })}
            />
            <Group>
              <Button type="submit" loading={save.isPending} disabled={Object.keys(errors).length > 0}>
                Save
              </Button>
              {editing && (
                <Button
                  variant="subtle"
                  onClick={() => {
                    setEditing(null);
                    setValues(EMPTY);
                    setErrors({});
                  }}
                >
                  Cancel
                </Button>
              )}
            </Group>
          </Stack>
        </Card>
      </SimpleGrid>
    </>
  );
}
