import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { applicationWizardContracts as contracts } from '../../../shared/contracts/application-wizard.ts';
import { HttpFailure } from '../../lib/http.ts';
import { queryOf } from '../../lib/queries.ts';
import { applicationPath } from './api.ts';
import { Wizard } from './wizard.tsx';

/**
 * The application wizard at /application/create/:token (docs/requirements/screens.md "Wizard", docs/requirements/behaviour.md "Wizard"): title,
 * progress, step list, one page of fields at a time; Previous never checks, Next checks and saves
 * the page, Submit sends everything on the last page. Answers are saved as a draft while typing
 * (docs/wizard.md "Saving as you type"). Resumes at the last saved page.
 */
export default function WizardPage() {
  const { token = '' } = useParams();
  const q = useQuery({
    ...queryOf(contracts.show, { params: { token } }),
    retry: false,
    gcTime: 0,
  });

  if (q.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) {
    const status = q.error instanceof HttpFailure ? q.error.status : 0;
    if (status === 404 || status === 403) {
      return (
        <Stack align="flex-start" py="md">
          <Title order={1}>Application not found</Title>
          <Text>We could not find this application. It may have been deleted, or it belongs to another sign-in.</Text>
          <Group>
            <Button component={Link} to="/account">
              Your account
            </Button>
            <Button component={Link} to="/pricing" variant="default">
              Start a new application
            </Button>
          </Group>
        </Stack>
      );
    }
    if (status === 401) {
      return (
        <Stack align="flex-start" py="md">
          <Title order={1}>Please sign in</Title>
          <Text>Sign in to continue your application.</Text>
          <Button component={Link} to={`/login?next=${encodeURIComponent(applicationPath(token))}`}>
            Sign in
          </Button>
        </Stack>
      );
    }
    return (
      <Alert color="red" title="Something went wrong">
        Your application could not be loaded. Please reload the page.
      </Alert>
    );
  }
  return <Wizard key={q.data.token} app={q.data} />;
}
