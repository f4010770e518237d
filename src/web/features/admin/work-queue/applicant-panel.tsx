import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import type { WorkItemView } from './item-actions.ts';

/**
 * The applicant of a request to link (docs/work-queue.md "Applicants to link"): the sign-in e-mail,
 * the president's name and phone from the application, and why linking is no longer possible.
 */
export function ApplicantPanel({ item }: { item: WorkItemView }) {
  const link = item.link;
  if (!link) return null;
  return (
    <Stack gap={4} component="section" aria-label="The applicant">
      <Title order={3} size="h5">
        The applicant
      </Title>
      <Text size="sm">
        Sign-in e-mail:{' '}
        {link.applicant_email ? (
          <Anchor href={`mailto:${link.applicant_email}`}>{link.applicant_email}</Anchor>
        ) : (
          'no longer known'
        )}
      </Text>
      {link.president_name && <Text size="sm">President: {link.president_name}</Text>}
      {link.president_phone && (
        <Text size="sm">
          President's phone: <Anchor href={`tel:${link.president_phone}`}>{link.president_phone}</Anchor>
        </Text>
      )}
      {item.status === 'open' && link.blocked && (
        <Alert color="yellow" mt="xs">
          {link.blocked}
        </Alert>
      )}
    </Stack>
  );
}
