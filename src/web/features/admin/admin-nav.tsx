import { Button, Group } from '@mantine/core';
import { NavLink } from 'react-router';

const LINKS = [
  ['/admin/inquiries', 'Inquiries'],
  ['/admin/applications', 'Applications'],
  ['/admin/outbox', 'Mail outbox'],
  ['/admin/banners', 'Banners'],
  ['/admin/uploads', 'Uploads'],
  ['/admin/contests', 'Contest entries'],
] as const;

/** The admin section's own navigation. */
export function AdminNav() {
  return (
    <Group gap="xs" mb="lg" component="nav" aria-label="Admin">
      {LINKS.map(([to, label]) => (
        <Button key={to} component={NavLink} to={to} variant="default" size="xs">{label}</Button>
      ))}
    </Group>
  );
}
