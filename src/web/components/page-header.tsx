import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A page's h1 and optional lead paragraph. */
export function PageHeader({ title, lead, children }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  return (
    <Stack gap="xs" mb="lg">
      <Title order={1}>{title}</Title>
      {lead && (
        <Text size="lg" c="gray.7">
          {lead}
        </Text>
      )}
      {children}
    </Stack>
  );
}
