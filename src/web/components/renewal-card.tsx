import { Alert, Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode } from 'react';
import { Link } from 'react-router';
import { accountOverviewContracts } from '../../shared/contracts/account-overview.ts';
import { boot } from '../lib/boot.ts';
import { HttpFailure } from '../lib/http.ts';
import { showDate } from '../lib/locale.ts';
import { queryOf } from '../lib/queries.ts';
import { RenewalScreen, RenewalForm } from './renewal-form.tsx';

/**
 * The renewal form (docs/requirements/product.md tool 13, docs/requirements/screens.md "Renewal form", docs/requirements/behaviour.md "Renewal", docs/requirements/validation.md, docs/requirements/errors.md "Renewal"): the due date
 * and whether early-bird prices apply, the level's renewal features, the upgrade and incorporation
 * options with their prices, the totals, the notice, and "Renew now". A renewal invoice still
 * waiting for payment replaces the form. Hidden when the account has no level (404).
 * @param accountId the account renewed (an admin's view); the signed-in holder's own by default
 */
export function RenewalCard({ accountId }: { accountId?: number }) {
  const q = useQuery({
    ...queryOf(accountOverviewContracts.renewal, { query: accountId ? { account_id: accountId } : {} }),
    retry: false,
  });
  if (q.isPending) return null;
  if (q.isError) {
    if (q.error instanceof HttpFailure && q.error.status === 404) return null;
    return (
      <RenewalShell>
        <Alert color="red">The renewal form could not be loaded. Please reload the page.</Alert>
      </RenewalShell>
    );
  }
  return (
    <RenewalShell>
      {q.data.open_invoice ? (
        <Text>
          Your renewal invoice {q.data.open_invoice.number} is waiting for payment.{' '}
          <Anchor component={Link} to={accountId ? `/app/payments?account_id=${accountId}` : '/app/payments'}>
            Pay it on the payments page
          </Anchor>
          .
        </Text>
      ) : q.data.window.state !== 'open' && !q.data.is_admin ? (
        <NotOffered screen={q.data} />
      ) : (
        <RenewalForm screen={q.data} accountId={accountId ?? q.data.account.id} />
      )}
    </RenewalShell>
  );
}

/**
 * Outside the renewal window (docs/renewals.md "When renewal is offered"): when renewal opens, or
 * that the grace period is over and how to renew through us.
 */
function NotOffered({ screen }: { screen: RenewalScreen }) {
  const { window: w, account } = screen;
  const due = account.renewal_due_at;
  const { name, phone } = boot.company;
  if (w.state === 'not_yet') {
    return (
      <Stack gap="xs" data-testid="renewal-not-open">
        <Text>
          Your membership is paid up until <strong>{due ? showDate(due) : ''}</strong>. Renewal opens on{' '}
          <strong>{w.opens_at ? showDate(w.opens_at) : ''}</strong>, 60 days before that date.
        </Text>
        <Text size="sm" c="gray.7">
          We will e-mail you when it opens, and again 30 and 7 days before the due date.
        </Text>
      </Stack>
    );
  }
  return (
    <Alert color="orange" variant="light" title="Renewal is closed" data-testid="renewal-closed">
      Your renewal was due on {due ? showDate(due) : ''} and the grace period ended on{' '}
      {w.closes_at ? showDate(w.closes_at) : ''}, so it can no longer be done online.{' '}
      {phone ? `Call ${name} at ${phone}` : `Contact ${name}`} and we will renew your membership.
    </Alert>
  );
}

function RenewalShell({ children }: { children: ReactNode }) {
  return (
    <Card withBorder padding="xl" mt="lg" maw={720} component="section" aria-labelledby="renewal-title">
      <Title order={2} size="h3" id="renewal-title" mb="sm">
        Renewal
      </Title>
      {children}
    </Card>
  );
}
