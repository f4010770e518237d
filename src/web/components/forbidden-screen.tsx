import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function ForbiddenScreen() {
  return (
    <Stack align="flex-start" py="xl">
      <Title order={1}>Not allowed</Title>
      <Text>This page is for staff. Sign in with a staff account to open it.</Text>
      <Button component={Link} to="/">
        Go to the home page
      </Button>
    </Stack>
  );
}
