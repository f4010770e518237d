import { Anchor, Badge, Table } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { showDateTime } from '../../lib/locale.ts';
import type { PageObject } from '../../../shared/rules/pagination.ts';
import { http } from '../../lib/http.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';
import { AdminListCard } from './admin-list-card.tsx';

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
      <AdminListCard
        query={q}
        label="Mails"
        what="The outbox"
        empty="No mail yet."
        columns={['Written', 'To', 'Subject', 'Status']}
        onPage={(p) => setParams({ page: String(p) })}
        row={(m) => (
          <Table.Tr key={m.id}>
            <Table.Td>{showDateTime(m.created_at)}</Table.Td>
            <Table.Td>{m.to}</Table.Td>
            <Table.Td><Anchor component={Link} to={`/admin/outbox/${m.id}`}>{m.subject}</Anchor></Table.Td>
            <Table.Td><Badge color={STATUS_COLOR[m.status] ?? 'gray'}>{m.status}</Badge></Table.Td>
          </Table.Tr>
        )}
      />
    </>
  );
}
