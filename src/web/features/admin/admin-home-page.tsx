import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { AdminNav } from './admin-nav.tsx';

const SECTIONS = [
  ['/admin/accounts', 'Accounts', 'Find a group by name, EIN or e-mail, open it and act on its behalf.'],
  [
    '/admin/payments',
    'Payments',
    'Every account’s payments and open invoices; held and unconfirmed payments to look into.',
  ],
  ['/admin/inquiries', 'Inquiries', 'Contact, compliance check, multi-chapter and campus report submissions.'],
  ['/admin/applications', 'Applications', 'Drafts, completed and deleted applications, with their answers.'],
  ['/admin/outbox', 'Mail outbox', 'Every mail the site sent or is keeping to send.'],
  ['/admin/banners', 'Banners', 'Holiday and urgent notices shown at the top of every page.'],
  [
    '/admin/discounts',
    'Discount codes',
    'Create and edit codes: fixed or percentage, what they apply to, dates and use limits.',
  ],
  ['/admin/levels', 'Levels and prices', 'Prices, early-bird prices, upgrades and renewal features of each level.'],
  ['/admin/states', 'State requirements', 'Cost estimates and notes shown on the state registration page.'],
  ['/admin/audit', 'Audit log', 'Who did what, on behalf of which account.'],
  ['/admin/contests', 'Contest entries', 'Photo and video contest entries, counted or not, with their files.'],
  ['/admin/uploads', 'Uploads', 'Store files and import rosters of organizations as accounts.'],
  [
    '/admin/compliance',
    'Revocation risk',
    'Accounts with no Form 990 filing recorded for two years in a row; record filings.',
  ],
  ['/admin/jobs', 'Jobs', 'The scheduled jobs: last and next run, failures; run one now.'],
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
            <Title order={2} size="h4">
              {title}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
