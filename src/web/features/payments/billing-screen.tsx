import { Alert, Anchor, Button, Card, Group, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paymentContracts } from '../../../shared/contracts/billing.ts';
import {
  billingSummary,
  canSettleWithoutPayment,
  centsToDollarsText,
  fromDiscountPayload,
  type DiscountPayload,
} from '../../../shared/rules/billing.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { toastFailure, toastSuccess } from '../../lib/feedback.tsx';
import { call, HttpFailure } from '../../lib/http.ts';
import { DiscountBox, InvoiceSelection, SummaryTable } from './billing-summary.tsx';
import { BankPaymentForm, CardPaymentForm, type PaymentContext } from './payment-forms.tsx';
import { showPaymentFailure, showPaymentOutcome, type PaymentAnswer } from './payment-results.tsx';
import type { ContractAnswer } from '../../../shared/contracts/contract.ts';

type ScreenAnswer = ContractAnswer<typeof paymentContracts.screen>;
/** GET /api/payments/screen of an organization that exists: its account and the tokenizer settings are there. */
export type ScreenData = ScreenAnswer & {
  account: NonNullable<ScreenAnswer['account']>;
  gateway: NonNullable<ScreenAnswer['gateway']>;
};

export type Method = 'credit_card' | 'bank_account' | 'paypal';

const dollars = centsToDollarsText;

export function BillingScreen({
  data,
  params,
  setParams,
  reload,
}: {
  data: ScreenData;
  params: URLSearchParams;
  setParams: ReturnType<typeof useSearchParams>[1];
  reload: () => void;
}) {
  const navigate = useNavigate();
  const accountId = data.on_behalf ? data.account.id : undefined;
  const returnToken = params.get('token');
  const returnPayerId = params.get('PayerID');
  const paypalReturn =
    params.get('paypal') === 'return' && returnToken && returnPayerId
      ? { token: returnToken, payerId: returnPayerId }
      : null;
  const session = data.paypal;
  // docs/requirements/behaviour.md: while a PayPal session is open its invoices and discount are locked.
  const walletLocked = session !== null;

  const [selected, setSelected] = useState<Set<number>>(
    () => new Set(session ? session.invoices : data.invoices.filter((i) => !i.is_processing).map((i) => i.id)),
  );
  const [discount, setDiscount] = useState<DiscountPayload | null>(session?.discount ?? null);
  const [method, setMethod] = useState<Method>(session ? 'paypal' : 'credit_card');
  const [reserving, setReserving] = useState(false);
  const [walletBusy, setWalletBusy] = useState(false);

  const chosen = data.invoices.filter((i) => selected.has(i.id));
  const summary = useMemo(
    () =>
      billingSummary(
        chosen.map((i) => ({
          id: i.id,
          balanceCents: i.balance_cents,
          lines: i.order_details.map((l) => ({ type: l.type, valueCents: l.value_cents })),
        })),
        discount ? fromDiscountPayload(discount) : null,
      ),
    [chosen, discount],
  );

  // Back from PayPal after cancelling: end the session, then show the screen as usual.
  const cancelled = params.get('paypal') === 'cancel';
  useEffect(() => {
    if (!cancelled) return;
    void call(paymentContracts.paypalClear, { query: accountId ? { account_id: accountId } : {} }).finally(() => {
      toastSuccess('The PayPal payment was cancelled. Nothing was charged.', 'PayPal');
      setParams(accountId ? { account_id: String(accountId) } : {}, { replace: true });
      reload();
    });
  }, [cancelled]); // eslint-disable-line react-hooks/exhaustive-deps

  const destination = (answer: PaymentAnswer, fallback: string) => answer.redirect ?? fallback;
  const finished = (answer: PaymentAnswer, fallback = '/app/finances') => {
    navigate(destination(answer, fallback));
    showPaymentOutcome(answer);
  };

  const applyDiscount = async (code: string) => {
    setReserving(true);
    try {
      const res = await call(paymentContracts.reserveDiscount, {
        body: { code, ...(accountId ? { account_id: accountId } : {}) },
      });
      setDiscount(res.discount);
    } catch {
      // docs/requirements/errors.md: an invalid code silently removes the discount.
      setDiscount(null);
    } finally {
      setReserving(false);
    }
  };

  const ctx: PaymentContext = {
    value: dollars(summary.total),
    invoices: chosen.map((i) => i.id),
    discount_id: discount && summary.discount_total > 0 ? discount.id : null,
    account_id: accountId,
    settings: data.gateway,
    onAnswered: (answer) => finished(answer, accountId ? `/admin/payments/latest/${accountId}` : '/app/finances'),
    onStale: reload,
  };

  const startPaypal = async () => {
    setWalletBusy(true);
    try {
      const res = await call(paymentContracts.paypalInit, {
        query: {
          invoices: ctx.invoices.join(','),
          value: ctx.value,
          type: 'paypal',
          discount_id: ctx.discount_id ?? '',
          ...(accountId ? { account_id: accountId } : {}),
        },
      });
      const url =
        'transactionResponse' in res ? res.transactionResponse.secureAcceptance.secureAcceptanceUrl : undefined;
      if (res.messages.resultCode === 'Ok' && url) {
        window.location.assign(url);
        return;
      }
      setWalletBusy(false);
    } catch (err) {
      // docs/requirements/errors.md: a wallet init failure just stops the spinner; a limit's 429 says
      // when to try again (docs/payments.md "Card testing").
      setWalletBusy(false);
      if (err instanceof HttpFailure && err.errors.value) reload();
      if (err instanceof HttpFailure && err.status === 429) showPaymentFailure(err);
    }
  };

  const completePaypal = async () => {
    if (!session || !paypalReturn) return;
    setWalletBusy(true);
    try {
      const answer: PaymentAnswer = await call(paymentContracts.paypal, {
        body: {
          tx_id: session.tx_id,
          token: paypalReturn.token,
          payer_id: paypalReturn.payerId,
          value: dollars(Math.round(session.value * 100)),
          invoices: session.invoices,
          discount_id: session.discount_id,
          type: 'paypal',
          ...(accountId ? { account_id: accountId } : {}),
        },
      });
      // docs/requirements/permissions.md: the wallet form always goes to /app/finances.
      finished({ ...answer, redirect: '/app/finances' });
    } catch {
      setWalletBusy(false);
      toastFailure();
      reload();
    }
  };

  const clearPaypal = async () => {
    setWalletBusy(true);
    try {
      await call(paymentContracts.paypalClear, { query: accountId ? { account_id: accountId } : {} });
    } finally {
      setParams(accountId ? { account_id: String(accountId) } : {}, { replace: true });
      reload();
    }
  };

  const settleZero = async () => {
    setWalletBusy(true);
    try {
      const answer: PaymentAnswer = await call(paymentContracts.zeroPayment, {
        body: {
          value: '0.00',
          invoices: ctx.invoices,
          discount_id: discount?.id ?? null,
          discount_total: dollars(summary.discount_total),
          type: 'zero_payment',
          idempotency_key: crypto.randomUUID(),
          ...(accountId ? { account_id: accountId } : {}),
        },
      });
      finished({ ...answer, redirect: '/app/finances' });
    } catch {
      setWalletBusy(false);
      toastFailure();
      reload();
    }
  };

  const nothingSelected = data.invoices.length > 0 && chosen.length === 0;
  // Every open invoice is held by a payment in flight, held for review or pending (docs/payments.md).
  const allProcessing = data.invoices.length > 0 && data.invoices.every((i) => i.is_processing);
  const zeroSettle = chosen.length > 0 && canSettleWithoutPayment(summary) && !walletLocked;

  return (
    <>
      <PageHeader
        title="Payments"
        lead={data.on_behalf ? `Paying for ${data.account.name}.` : 'Pay your unpaid invoices.'}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <div>
          <Stack gap="lg">
            <InvoiceSelection
              invoices={data.invoices}
              selected={selected}
              locked={walletLocked}
              onToggle={(id, checked) =>
                setSelected((prev) => {
                  const next = new Set(prev);
                  if (checked) next.add(id);
                  else next.delete(id);
                  return next;
                })
              }
            />
            {data.invoices.length > 0 && (
              <Card withBorder padding="lg" component="section" aria-labelledby="summary-heading">
                <Title order={2} size="h4" id="summary-heading" mb="sm">
                  Summary
                </Title>
                <Stack gap="md">
                  <DiscountBox
                    discount={discount}
                    locked={walletLocked}
                    busy={reserving}
                    onApply={(code) => (code === '' ? setDiscount(null) : void applyDiscount(code))}
                    onRemove={() => setDiscount(null)}
                  />
                  <SummaryTable summary={summary} />
                </Stack>
              </Card>
            )}
          </Stack>
        </div>
        <div>
          {data.invoices.length > 0 && (
            <Card withBorder padding="lg" component="section" aria-labelledby="method-heading">
              <Title order={2} size="h4" id="method-heading" mb="sm">
                Payment
              </Title>
              {allProcessing ? (
                <Text>
                  A payment of these invoices is being processed, so they cannot be paid again now. Its outcome will
                  show under{' '}
                  <Anchor
                    component={Link}
                    to={data.on_behalf ? `/admin/payments/latest/${data.account.id}` : '/app/finances'}
                    inherit
                  >
                    Finances
                  </Anchor>
                  .
                </Text>
              ) : nothingSelected ? (
                <Text>No invoices selected.</Text>
              ) : zeroSettle ? (
                <Stack gap="md">
                  <Text>
                    Your discount covers the whole balance of {formatCurrency(summary.subtotal)}. No payment is needed.
                  </Text>
                  <Group>
                    <Button onClick={() => void settleZero()} loading={walletBusy}>
                      Settle without payment
                    </Button>
                  </Group>
                </Stack>
              ) : session ? (
                <PaypalSessionPanel
                  value={session.value}
                  canComplete={paypalReturn !== null}
                  busy={walletBusy}
                  onComplete={() => void completePaypal()}
                  onCancel={() => void clearPaypal()}
                />
              ) : (
                <Stack gap="lg">
                  <Radio.Group label="Payment method" value={method} onChange={(v) => setMethod(v as Method)}>
                    <Group mt="xs">
                      <Radio value="credit_card" label="Credit card" />
                      <Radio value="bank_account" label="Bank account" />
                      <Radio value="paypal" label="PayPal" />
                    </Group>
                  </Radio.Group>
                  {method === 'credit_card' && <CardPaymentForm ctx={ctx} />}
                  {method === 'bank_account' && <BankPaymentForm ctx={ctx} />}
                  {method === 'paypal' && (
                    <Stack gap="sm">
                      <Text size="sm">
                        You will approve the payment of {formatCurrency(summary.total)} at PayPal, then come back here
                        to complete it.
                      </Text>
                      <Group>
                        <Button onClick={() => void startPaypal()} loading={walletBusy}>
                          Continue to PayPal
                        </Button>
                      </Group>
                    </Stack>
                  )}
                </Stack>
              )}
            </Card>
          )}
          <Group mt="lg">
            <Button variant="default" onClick={() => navigate(-1)}>
              Cancel
            </Button>
          </Group>
        </div>
      </SimpleGrid>
    </>
  );
}

/** docs/requirements/behaviour.md "Online wallet": back from PayPal with a token the payment can be completed, or cancelled. */
function PaypalSessionPanel({
  value,
  canComplete,
  busy,
  onComplete,
  onCancel,
}: {
  value: number;
  canComplete: boolean;
  busy: boolean;
  onComplete: () => void;
  onCancel: () => void;
}) {
  const amount = formatCurrency(Math.round(value * 100));
  return (
    <Stack gap="md">
      {canComplete ? (
        <Alert color="blue" variant="light" title="PayPal approved">
          PayPal approved the payment of {amount}. Complete it to pay the selected invoices.
        </Alert>
      ) : (
        <Alert color="yellow" variant="light" title="A PayPal payment is waiting">
          A PayPal payment of {amount} was started but not approved yet. Cancel it to choose another way to pay.
        </Alert>
      )}
      <Group>
        {canComplete && (
          <Button onClick={onComplete} loading={busy}>
            Complete PayPal payment
          </Button>
        )}
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Cancel PayPal payment
        </Button>
      </Group>
    </Stack>
  );
}
