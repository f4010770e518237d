import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { paymentContracts } from '../../../shared/contracts/billing.ts';
import { NoOrganizationYet } from '../../components/no-organization-yet.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { HttpFailure } from '../../lib/http.ts';
import { queryOf } from '../../lib/queries.ts';
import { ScreenData, BillingScreen } from './billing-screen.tsx';

/**
 * /app/payments, the billing screen (docs/requirements/product.md tool 14, docs/requirements/screens.md "Billing/payment screen", docs/requirements/behaviour.md "Discount
 * code", "Payment method", "Online wallet", docs/requirements/errors.md "Payments"). Admins pay for an account with
 * `?account_id=`. PayPal sends the payer back here with `paypal=return&token&PayerID` (or
 * `paypal=cancel`); the session's invoices and discount are then restored and locked.
 */
export default function PaymentsPage() {
  const [params, setParams] = useSearchParams();
  const accountParam = Number(params.get('account_id')) || undefined;
  const read = queryOf(paymentContracts.screen, { query: accountParam ? { account_id: accountParam } : {} });
  const q = useQuery(read);
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: read.queryKey });

  if (q.isPending)
    return (
      <>
        <PageHeader title="Payments" />
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      </>
    );
  if (q.isSuccess && q.data.account === null)
    return (
      <>
        <PageHeader title="Payments" />
        <NoOrganizationYet title="You have nothing to pay yet." />
      </>
    );
  if (q.isError) {
    // Staff without an account of their own pay for an account named in the address.
    const staffWithoutAccount =
      boot.user?.isAdmin && !accountParam && q.error instanceof HttpFailure && q.error.status === 404;
    return (
      <>
        <PageHeader title="Payments" />
        {staffWithoutAccount ? (
          <Alert color="blue" title="Choose an account">
            To pay for an organization, open its latest payments and choose "Pay invoices for this account".{' '}
            <Anchor component={Link} to="/admin" inherit>
              Go to the admin console
            </Anchor>
          </Alert>
        ) : (
          <Alert color="red" title="Something went wrong">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">The invoices could not be loaded.</Text>
              <Button variant="light" color="red" onClick={() => void q.refetch()} loading={q.isFetching}>
                Try again
              </Button>
            </Stack>
          </Alert>
        )}
      </>
    );
  }
  return (
    <BillingScreen
      key={q.dataUpdatedAt}
      data={q.data as ScreenData}
      params={params}
      setParams={setParams}
      reload={reload}
    />
  );
}
