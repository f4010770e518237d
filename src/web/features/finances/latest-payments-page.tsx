import { Alert, Button, Group } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { paymentsHref, PaymentsOverview } from './payments-table.tsx';
import type { FinancesView } from '../../../shared/schemas/finances.ts';

/**
 * /admin/payments/latest/{accountId} (docs/requirements/screens.md): where an admin lands after paying for an account;
 * that account's payments, with a way to pay its invoices. Others get the 403 screen (the server
 * answers 403 for this admin page and the router shows it instead).
 */
export default function LatestPaymentsPage() {
  const { accountId: raw = '' } = useParams();
  const accountId = /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
  const [name, setName] = useState<string | null>(null);
  const onAccount = useCallback((a: FinancesView['account']) => setName(a.name), []);
  const title = name ? `Latest payments — ${name}` : 'Latest payments';
  useEffect(() => {
    if (!name) return;
    const before = document.title;
    document.title = `${title} | ${boot.company.name}`;
    return () => {
      document.title = before;
    };
  }, [name, title]);

  if (accountId === null) {
    return (
      <>
        <PageHeader title="Latest payments" />
        <Alert color="red" title="Account not found">
          There is no account with this number. Check the link.
        </Alert>
      </>
    );
  }
  return (
    <>
      <PageHeader title={title}>
        <Group>
          <Button component={Link} to={paymentsHref(accountId)} variant="light">
            Pay invoices for this account
          </Button>
        </Group>
      </PageHeader>
      <PaymentsOverview accountId={accountId} onAccount={onAccount} />
    </>
  );
}
