import { Alert, Anchor, Badge, Card, Center, Loader, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { showDateTime } from '../../lib/locale.ts';
import type { PageObject } from '../../../shared/rules/pagination.ts';
import { PageNav } from '../../components/page-nav.tsx';
import { http } from '../../lib/http.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';

interface MailRow { id: number; kind: string; to: string; subject: string; status: string; attempts: number; created_at: string; sent_at: string | null }

const STATUS_COLOR: Record<string, string> = { pending: 'yellow', sent: 'green', failed: 'red' };

/** Every mail the product wrote, newest first; pending ones wait for SMTP. */
export default function OutboxPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    queryKey: ['admin-outbox', page],
    queryFn: () => http.get<PageObject<MailRow>>('/api/admin/outbox', { page }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Mail outbox" lead="Mails are kept here until they are sent. Without an SMTP server configured they stay pending." />
      <AdminNav />
      <Card withBorder padding="md">
        {q.isPending && <Center py="xl"><Loader aria-label="Loading" /></Center>}
        {q.isError && <Alert color="red">The outbox could not be loaded.</Alert>}
        {q.data && q.data.total === 0 && <Text c="dimmed" py="lg" ta="center">No mail yet.</Text>}
        {q.data && q.data.total > 0 && (
          <Table.ScrollContainer minWidth={700}>
            <Table striped highlightOnHover aria-label="Mails">
              <Table.Thead>
                <Table.Tr><Table.Th>Written</Table.Th><Table.Th>To</Table.Th><Table.Th>Subject</Table.Th><Table.Th>Status</Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.data.data.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td>{showDateTime(m.created_at)}</Table.Td>
                    <Table.Td>{m.to}</Table.Td>
                    <Table.Td><Anchor component={Link} to={`/admin/outbox/${m.id}`}>{m.subject}</Anchor></Table.Td>
                    <Table.Td><Badge color={STATUS_COLOR[m.status] ?? 'gray'}>{m.status}</Badge></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {q.data && <PageNav page={q.data} onChange={(p) => setParams({ page: String(p) })} />}
      </Card>
    </>
  );
}
