import { Alert, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { applicationWizardContracts as contracts } from '../../../shared/contracts/application-wizard.ts';
import { call, HttpFailure } from '../../lib/http.ts';
import { keyOf, queryOf } from '../../lib/queries.ts';
import { applicationPath, sitePath } from './api.ts';

/**
 * /application/switch/:token, the switch link a mail or a bookmark opens (docs/security.md "The
 * switch link"): it names the application it would become and switches only when the user
 * presses the button (POST /application/switch/:token, the wizard's own switch), then opens the
 * wizard. Opening the address changes nothing, so a prefetched or forged link cannot drop answers.
 * A submitted application, or one of another sign-in, is explained instead.
 */
export default function SwitchApplicationPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const q = useQuery({
    ...queryOf(contracts.show, { params: { token } }),
    gcTime: 0,
  });

  if (q.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) {
    const missing = q.error instanceof HttpFailure && (q.error.status === 404 || q.error.status === 403);
    return (
      <Stack align="flex-start" py="md">
        <Title order={1}>{missing ? 'Application not found' : 'Something went wrong'}</Title>
        <Text>
          {missing
            ? 'We could not find this application. It may have been deleted, or it belongs to another sign-in.'
            : 'Your application could not be loaded.'}
        </Text>
        <Group>
          {missing ? (
            <Button component={Link} to="/account">
              Your account
            </Button>
          ) : (
            <Button onClick={() => void q.refetch()}>Try again</Button>
          )}
        </Group>
      </Stack>
    );
  }

  const app = q.data;
  const other = app.type === 'maintain' ? 'start-up' : 'maintain';
  const switchUrl = app.switch_url;
  if (!switchUrl) {
    return (
      <Stack align="flex-start" py="md">
        <Title order={1}>This application can no longer be switched</Title>
        <Text>It has been submitted. You can still open it.</Text>
        <Button component={Link} to={applicationPath(app.token)}>
          Open your application
        </Button>
      </Stack>
    );
  }

  const confirm = async () => {
    setBusy(true);
    setFailed(null);
    try {
      const res = await call(contracts.switchType, { params: { token: app.token } });
      await queryClient.resetQueries({ queryKey: keyOf(contracts.show, { token }) });
      navigate(sitePath(res?.redirect, applicationPath(res?.token ?? token)));
    } catch (err) {
      setBusy(false);
      setFailed(err instanceof HttpFailure ? err.message : 'The application could not be switched. Please try again.');
    }
  };

  return (
    <Card withBorder padding="xl" maw={640} mt="md">
      <Stack gap="sm" align="flex-start">
        <Title order={1} size="h2">
          Switch to the {other} application?
        </Title>
        <Text>
          Your {app.level.name} application becomes a {other} application. The answers both applications ask for are
          kept; the others are left out, and the application starts again at its first page.
        </Text>
        {failed && (
          <Alert color="red" role="alert" w="100%">
            {failed}
          </Alert>
        )}
        <Group>
          <Button onClick={() => void confirm()} loading={busy}>
            Switch to the {other} application
          </Button>
          <Button component={Link} to={applicationPath(app.token)} variant="default">
            Keep it as it is
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
