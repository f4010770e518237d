import { Alert, Card, List, Text } from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { KitForm, SubmitButton } from '../../components/form-kit/kit.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { toastFailure } from '../../lib/feedback.tsx';
import type { accountUserContracts } from '../../../shared/contracts/account-settings.ts';

/**
 * /invitation/not-me/:token, the "This was not me" link of an invitation mail (docs/roles.md
 * "Invitations"). Opening it changes nothing (mail scanners open links); only the button ends the
 * invitation, with the CSRF-checked POST /invitation/not-me and the token of the address. No
 * sign-in is needed. The page says the same before and after whatever the token is, so it tells
 * nobody whether an invitation existed.
 */
export default function NotMePage() {
  const { token = '' } = useParams();
  const [done, setDone] = useState<string | null>(null);
  const company = boot.company.name;
  const kit = useServerForm({
    route: routeAt<typeof accountUserContracts.notMe>('POST', '/invitation/not-me'),
    defaultValues: { _token: token },
    toPayload: ({ _token }) => ({ token: _token }),
    hasRequiredFields: false,
    onSuccess: (res) => setDone(res.message),
    onFailure: () => toastFailure(),
  });
  return (
    <>
      <PageHeader
        title="This was not me"
        lead={
          done
            ? undefined
            : `Did you get an invitation to an account on ${company} that you did not expect? You can end it here.`
        }
      />
      <Card withBorder padding="xl" maw={560}>
        {done ? (
          <Alert color="green" role="status" title="Invitation ended">
            {done}
          </Alert>
        ) : (
          <KitForm kit={kit} label="End this invitation">
            <Text>When you end the invitation:</Text>
            <List spacing="xs">
              <List.Item>your e-mail address is taken off the account it was added to;</List.Item>
              <List.Item>the link to choose a password stops working;</List.Item>
              <List.Item>our staff are told, so they can look into it.</List.Item>
            </List>
            <Text size="sm" c="gray.7">
              You do not need to sign in, and nothing changes until you press the button. You can still start your own
              application with this address at any time.
            </Text>
            <SubmitButton>End this invitation</SubmitButton>
          </KitForm>
        )}
      </Card>
    </>
  );
}
