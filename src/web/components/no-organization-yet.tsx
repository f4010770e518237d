import { Button, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { accountOverviewContracts } from '../../shared/contracts/account-overview.ts';
import { boot } from '../lib/boot.ts';
import { queryOf } from '../lib/queries.ts';

/**
 * Whether the signed-in user has no organization yet (their application is not submitted) and is
 * not staff: the account's pages then have nothing to load (docs/payments.md "No organization yet").
 */
export const hasNoOrganizationYet = () => !!boot.user && !boot.user.isAdmin && boot.user.accountId === null;

/**
 * What an account page shows a user with no organization yet: `title` (e.g. "You have nothing to
 * pay yet."), that the page fills once the application is submitted, and the way back to their
 * newest draft (GET /api/account/applications), or to the levels when there is none.
 */
export function NoOrganizationYet({ title }: { title: string }) {
  const drafts = useQuery({
    ...queryOf(accountOverviewContracts.applications, {}),
  });
  const draft = drafts.data?.applications.find((a) => a.status === 'draft');
  return (
    <Card withBorder padding="xl" maw={640}>
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h3">
          {title}
        </Title>
        <Text>This page fills in once your application is submitted.</Text>
        {drafts.isPending ? (
          <Loader size="sm" role="status" aria-label="Loading" />
        ) : draft ? (
          <Button component={Link} to={`/application/create/${draft.id}`}>
            Continue your application
          </Button>
        ) : (
          <Button component={Link} to="/pricing">
            Choose a level
          </Button>
        )}
      </Stack>
    </Card>
  );
}
