import { Button, Stack, Text, Title } from '@mantine/core';
import { Link, useRouteError } from 'react-router';

/** Shown for an address the site does not have. */
export function NotFoundScreen() {
  return (
    <Stack align="flex-start" py="xl">
      <Title order={1}>Page not found</Title>
      <Text>We could not find that page. It may have moved.</Text>
      <Button component={Link} to="/">
        Go to the home page
      </Button>
    </Stack>
  );
}

/** Shown instead of a stack trace when a screen fails to render or load. */
export function ErrorScreen() {
  const error = useRouteError();
  console.error(error);
  return (
    <Stack align="flex-start" p="xl">
      <Title order={1}>Something went wrong</Title>
      <Text>This page could not be shown. Please reload it; if it keeps happening, contact us.</Text>
      <Button onClick={() => window.location.reload()}>Reload</Button>
    </Stack>
  );
}
