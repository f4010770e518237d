import { Button, Container, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { adminAccountsContracts } from '../../../shared/contracts/admin-accounts.ts';
import { queryOf } from '../../lib/queries.ts';
import { QueryRoot } from '../../lib/query-root.tsx';
import { actingAccountId } from './acting-account.ts';
import classes from './layout.module.css';

/**
 * "You are acting on behalf of <account>" across the top of every account page staff open for an
 * account, kept in view while scrolling, with "Stop acting", which returns to the staff page of
 * the account (no account_id: staff are themselves again).
 */
export function ActingBanner() {
  return (
    <QueryRoot>
      <ActingBar />
    </QueryRoot>
  );
}

function ActingBar() {
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const accountId = actingAccountId(pathname, search);
  // The same query as the staff page of the account, so coming from there costs no request.
  const q = useQuery({
    ...queryOf(adminAccountsContracts.show, { params: { id: String(accountId) } }),
    enabled: accountId !== null,
    retry: false,
  });
  if (accountId === null) return null;
  const name = q.data?.account.name ?? `account #${accountId}`;
  return (
    <aside className={classes.acting} aria-label="Acting on behalf of an account">
      <Container size="lg">
        <Group justify="space-between" gap="xs" py={8} wrap="wrap">
          <Text fw={600} size="sm">
            You are acting on behalf of {name}.
          </Text>
          <Button size="xs" color="dark" onClick={() => navigate(`/admin/accounts/show/${accountId}`)}>
            Stop acting
          </Button>
        </Group>
      </Container>
    </aside>
  );
}
