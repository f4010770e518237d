import { Alert, Card, Center, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { showDate } from '../../lib/locale.ts';
import { http } from '../../lib/http.ts';
import { PageHeader } from '../../components/page-header.tsx';

interface MyAccount {
  user: { firstName: string; email: string };
  account: { id: number; name: string; ein: string | null; city: string; state: string; renewal_due_at: string | null; level: string | null } | null;
}

/** The account holder's home: organization, level and renewal date. */
export default function AccountPage() {
  const q = useQuery({ queryKey: ['my-account'], queryFn: () => http.get<MyAccount>('/api/account') });
  if (q.isPending) return <Center py="xl"><Loader aria-label="Loading" /></Center>;
  if (q.isError) return <Alert color="red">Your account could not be loaded. Please reload the page.</Alert>;
  const { user, account } = q.data;
  return (
    <>
      <PageHeader title="Your account" lead={`Welcome back${user.firstName ? `, ${user.firstName}` : ''}.`} />
      {!account ? (
        <Alert>This sign-in is not linked to an organization yet.</Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card withBorder padding="xl">
            <Stack gap={4}>
              <Title order={2} size="h3">{account.name}</Title>
              <Text c="dimmed">{[account.city, account.state].filter(Boolean).join(', ')}</Text>
              {account.ein && <Text>EIN {account.ein.slice(0, 2)}-{account.ein.slice(2)}</Text>}
            </Stack>
          </Card>
          <Card withBorder padding="xl">
            <Stack gap={4}>
              <Title order={2} size="h3">Membership</Title>
              <Text>Level: {account.level ?? '—'}</Text>
              <Text>Renewal due: {account.renewal_due_at ? showDate(account.renewal_due_at) : '—'}</Text>
            </Stack>
          </Card>
        </SimpleGrid>
      )}
    </>
  );
}
