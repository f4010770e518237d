import { Button, Group } from '@mantine/core';
import { NavLink } from 'react-router';

const LINKS = [
  ['/admin/accounts', 'Accounts'],
  ['/admin/payments', 'Payments'],
  ['/admin/inquiries', 'Inquiries'],
  ['/admin/applications', 'Applications'],
  ['/admin/outbox', 'Mail outbox'],
  ['/admin/banners', 'Banners'],
  ['/admin/discounts', 'Discount codes'],
  ['/admin/levels', 'Levels and prices'],
  ['/admin/states', 'State requirements'],
  ['/admin/audit', 'Audit log'],
  ['/admin/uploads', 'Uploads'],
  ['/admin/contests', 'Contest entries'],
  ['/admin/compliance', 'Revocation risk'],
  ['/admin/irs-bulk-checks', 'Standing check (CSV)'],
  ['/admin/work-queue', 'Work queue'],
  ['/admin/jobs', 'Jobs'],
  ['/admin/supervision', 'Supervision'],
  ['/admin/gen-update', 'Annual GEN update'],
] as const;

/** The admin section's own navigation. */
export function AdminNav() {
  return (
    <Group gap="xs" mb="lg" component="nav" aria-label="Admin">
      {LINKS.map(([to, label]) => (
        <Button key={to} component={NavLink} to={to} variant="default" size="xs">
          {label}
        </Button>
      ))}
    </Group>
  );
}
