import type { ReactNode } from 'react';
import { Drawer } from '@mantine/core';

/**
 * The phone's navigation drawer, a chunk of its own: the drawer brings Mantine's dialog code
 * (portal, focus trap, scroll lock, scroll area), which no page needs before the menu is opened
 * (docs/ARCHITECTURE.md "Initial JavaScript").
 */
export default function PhoneMenu({ opened, onClose, title, children }: { opened: boolean; onClose: () => void; title: string; children: ReactNode }) {
  return (
    <Drawer opened={opened} onClose={onClose} title={title} hiddenFrom="md" size="xs">
      {children}
    </Drawer>
  );
}
