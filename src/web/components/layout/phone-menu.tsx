import { Divider, Drawer, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The phone's navigation drawer: the links, the phone number and the account's buttons. A chunk
 * of its own: the drawer brings Mantine's dialog code (portal, focus trap, scroll lock, scroll
 * area), which no page needs before the menu is opened (docs/ARCHITECTURE.md "Initial JavaScript").
 */
export default function PhoneMenu({
  opened,
  onClose,
  title,
  phone,
  links,
  account,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  phone?: string | null;
  links: ReactNode;
  account: ReactNode;
}) {
  return (
    <Drawer opened={opened} onClose={onClose} title={title} hiddenFrom="md" size="xs">
      <Stack gap="xs">
        {links}
        <Divider />
        {phone && <Text size="sm">{phone}</Text>}
        {account}
      </Stack>
    </Drawer>
  );
}
