import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';

const SECTIONS = [
  ['/admin/inquiries', 'Inquiries', 'Contact, compliance check, multi-chapter and campus report submissions.'],
  ['/admin/applications', 'Applications', 'Drafts, completed and deleted applications, with their answers.'],
  ['/admin/outbox', 'Mail outbox', 'Every mail the site sent or is keeping to send.'],
  ['/admin/banners', 'Banners', 'Holiday and urgent notices shown at the top of every page.'],
  ['/admin/contests', 'Contest entries', 'Photo and video contest entries, counted or not, with their files.'],
  ['/admin/uploads', 'Uploads', 'Store files and import rosters of organizations as accounts.'],
] as const;

/** The staff console's front page. */
export default function AdminHomePage() {
  return (
    <>
      <PageHeader title="Admin" lead="Act on behalf of groups and keep the site running." />
      <AdminNav />
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {SECTIONS.map(([to, title, text]) => (
          <Card key={to} withBorder padding="lg" component={Link} to={to}>
            <Title order={2} size="h4">{title}</Title>
            <Text size="sm" c="dimmed" mt={4}>{text}</Text>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
