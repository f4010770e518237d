import { Group, SimpleGrid, Text } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import { paymentContracts } from '../../../shared/contracts/billing.ts';
import { STATES } from '../../../shared/lists/states.ts';
import { dollarsToCents } from '../../../shared/rules/billing.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import {
  BANK_ACCOUNT_TYPE_LABELS,
  BANK_ACCOUNT_TYPES,
  BANK_LIMITS,
  bankFormSchema,
  cardExpiryYears,
  cardFormSchema,
  CARD_NUMBER_MAX,
  EXPIRY_MONTHS,
  stripCardNumber,
  ZIP_MAX,
  type BankFormInput,
  type CardFormInput,
} from '../../../shared/schemas/payments.ts';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { SelectField } from '../../components/form-kit/select-field.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { toastFailure } from '../../lib/feedback.tsx';
import { HttpFailure, refusalOf, submitTo } from '../../lib/http.ts';
import { useRoutingNumberCheck } from '../../lib/use-routing-number-check.ts';
import { tokenize, TokenizerError, type TokenizerSettings } from './accept-js.ts';
import { showPaymentFailure, type PaymentAnswer } from './payment-results.tsx';

/** What every payment form sends besides its own fields (docs/requirements/entities.md "Payment payloads"). */
export interface PaymentContext {
  /** Decimal dollars as shown (the server recomputes and refuses a different total). */
  value: string;
  invoices: number[];
  discount_id: number | null;
  /** Set when an admin pays for an account (docs/requirements/platform.md §5.6). */
  account_id?: number;
  settings: TokenizerSettings;
  /** The answer of an accepted payment (2xx). */
  onAnswered: (answer: PaymentAnswer) => void;
  /** The server refused the amount or the invoices: reload the screen's data. */
  onStale: () => void;
}

/**
 * One idempotency key per payment attempt (docs/requirements/platform.md §5.8): kept when the answer never came (network
 * failure or 5xx) so pressing Pay again cannot charge twice, renewed after any real answer.
 */
function useAttemptKey() {
  const key = useRef<string | null>(null);
  return {
    take: () => (key.current ??= crypto.randomUUID()),
    settle: (failure?: unknown) => {
      const unanswered = failure instanceof HttpFailure && (failure.status === 0 || failure.status >= 500);
      if (!unanswered) key.current = null;
    },
  };
}

/** Sends a tokenized payment; field errors from the tokenizer come back as a 422-like failure. */
async function sendPayment(
  route: typeof paymentContracts.credit | typeof paymentContracts.bank,
  ctx: PaymentContext,
  key: ReturnType<typeof useAttemptKey>,
  fields: Record<string, unknown>,
  opaque: () => Promise<{ dataDescriptor: string; dataValue: string }>,
) {
  let opaqueData;
  try {
    opaqueData = await opaque();
  } catch (err) {
    if (err instanceof TokenizerError)
      throw new HttpFailure(422, err.message, Object.keys(err.errors).length ? err.errors : { payment: [err.message] });
    throw err;
  }
  try {
    const answer = await submitTo(route, undefined, {
      ...fields,
      ...opaqueData,
      value: ctx.value,
      invoices: ctx.invoices,
      discount_id: ctx.discount_id,
      idempotency_key: key.take(),
      ...(ctx.account_id ? { account_id: ctx.account_id } : {}),
    });
    key.settle();
    return answer;
  } catch (err) {
    key.settle(err);
    throw err;
  }
}

function onPaymentFailure(ctx: PaymentContext) {
  return (failure: HttpFailure) => {
    const body = refusalOf(paymentContracts.credit, failure);
    // A refused payment (declined, error) answers messages.resultCode, a payment limit 429 with when
    // to try again (docs/payments.md "Card testing"); the rest are form problems.
    if (
      body?.messages?.resultCode === 'Error' ||
      failure.status === 0 ||
      failure.status === 429 ||
      failure.status >= 500
    )
      showPaymentFailure(failure);
    if (failure.errors.value || failure.status === 404 || failure.status === 409) {
      // The screen reloads with the server's invoices and total: say why before the form resets.
      toastFailure(
        failure.errors.value?.[0] ??
          (failure.status === 409 ? failure.message : 'These invoices changed. Please review them and try again.'),
      );
      ctx.onStale();
    }
  };
}

const CARD_DEFAULTS: Record<keyof CardFormInput, string> = {
  name: '',
  address: '',
  city: '',
  state: '',
  zip: '',
  phone: '',
  cardNumber: '',
  expMonth: '',
  expYear: '',
  cardCode: '',
};

/**
 * The credit card form (docs/requirements/validation.md "Credit card", docs/requirements/calls.md POST /app/payments/credit): checked with the
 * shared cardFormSchema, tokenized by Accept.js, then the opaque data is sent with the billing
 * address. The card number, code and expiry never reach our server. On failure the form keeps
 * what was typed (docs/requirements/errors.md "Card data is restored to the form").
 */
export function CardPaymentForm({ ctx }: { ctx: PaymentContext }) {
  const schema = useMemo(() => cardFormSchema(new Date()), []);
  const years = useMemo(() => cardExpiryYears(new Date()), []);
  const key = useAttemptKey();
  const kit = useServerForm({
    route: paymentContracts.credit,
    defaultValues: CARD_DEFAULTS,
    schema,
    isClearing: false,
    send: (v) =>
      sendPayment(
        paymentContracts.credit,
        ctx,
        key,
        {
          name: v.name,
          address: v.address,
          city: v.city,
          state: v.state,
          zip: v.zip,
          phone: v.phone,
          expMonth: v.expMonth,
          expYear: v.expYear,
          type: 'credit_card',
        },
        () =>
          tokenize(ctx.settings, {
            cardData: {
              cardNumber: stripCardNumber(v.cardNumber),
              month: v.expMonth,
              year: v.expYear,
              cardCode: v.cardCode.trim(),
              zip: v.zip.trim(),
              fullName: v.name.trim().slice(0, 64),
            },
          }),
      ),
    onSuccess: (answer) => ctx.onAnswered(answer),
    onFailure: onPaymentFailure(ctx),
    // A 429 opens the failure dialog (onPaymentFailure), like a declined payment.
    showsTooMany: false,
  });
  return (
    <KitForm kit={kit} label="Pay by credit card">
      <TextField name="name" label="Name on card" required autoComplete="cc-name" maxLength={255} />
      <TextField name="address" label="Address" required autoComplete="street-address" maxLength={255} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextField name="city" label="City" required autoComplete="address-level2" maxLength={255} />
        <SelectField name="state" label="State" required options={Object.entries(STATES)} />
        <TextField name="zip" label="Zip" required autoComplete="postal-code" maxLength={ZIP_MAX} />
      </SimpleGrid>
      <TextField name="phone" label="Phone" type="tel" autoComplete="tel" maxLength={40} />
      <TextField
        name="cardNumber"
        label="Card number"
        required
        inputMode="numeric"
        autoComplete="cc-number"
        maxLength={CARD_NUMBER_MAX}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <SelectField
          name="expMonth"
          label="Month"
          required
          prompt="MM"
          options={EXPIRY_MONTHS.map((m) => [m, m] as const)}
        />
        <SelectField name="expYear" label="Year" required prompt="YYYY" options={years.map((y) => [y, y] as const)} />
        <TextField
          name="cardCode"
          label="Card code"
          required
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={4}
          description="The 3-digit code on the back of the card"
        />
      </SimpleGrid>
      <SubmitButton>Pay {formatCurrency(dollarsToCents(Number(ctx.value)))}</SubmitButton>
    </KitForm>
  );
}

const BANK_DEFAULTS: Record<keyof BankFormInput, string> = {
  nameOnAccount: '',
  accountType: '',
  accountNumber: '',
  accountNumber_confirmation: '',
  routingNumber: '',
};

/**
 * The bank account form (docs/requirements/validation.md "Bank", docs/requirements/calls.md POST /app/payments/bank): the routing number is
 * checked 500 ms after typing stops (ABA checksum, then the routing-number lookup; a found bank's
 * name shows under the field, a refused number's message shows as its error).
 */
export function BankPaymentForm({ ctx }: { ctx: PaymentContext }) {
  const key = useAttemptKey();
  const kit = useServerForm({
    route: paymentContracts.bank,
    defaultValues: BANK_DEFAULTS,
    schema: bankFormSchema,
    isClearing: false,
    send: (v) =>
      sendPayment(
        paymentContracts.bank,
        ctx,
        key,
        { nameOnAccount: v.nameOnAccount, accountType: v.accountType, type: 'bank_account' },
        () =>
          tokenize(ctx.settings, {
            bankData: {
              accountNumber: v.accountNumber.trim(),
              routingNumber: v.routingNumber.trim(),
              nameOnAccount: v.nameOnAccount.trim(),
              accountType: v.accountType,
            },
          }),
      ),
    onSuccess: (answer) => ctx.onAnswered(answer),
    onFailure: onPaymentFailure(ctx),
    // A 429 opens the failure dialog (onPaymentFailure), like a declined payment.
    showsTooMany: false,
  });
  const routing = String(kit.form.watch('routingNumber') ?? '').trim();
  const account = String(kit.form.watch('accountNumber') ?? '').trim();
  const check = useRoutingNumberCheck(routing, account);
  const { setError, clearErrors } = kit.form;
  useEffect(() => {
    if (check.error) setError('routingNumber', { type: 'lookup', message: check.error });
    else clearErrors('routingNumber');
  }, [check.error, setError, clearErrors]);

  return (
    <KitForm kit={kit} label="Pay by bank account">
      <TextField
        name="nameOnAccount"
        label="Name on account"
        required
        maxLength={BANK_LIMITS.nameOnAccount}
        autoComplete="name"
      />
      <SelectField
        name="accountType"
        label="Account type"
        required
        options={BANK_ACCOUNT_TYPES.map((t) => [t, BANK_ACCOUNT_TYPE_LABELS[t]] as const)}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField
          name="accountNumber"
          label="Account number"
          required
          inputMode="numeric"
          maxLength={BANK_LIMITS.accountNumber}
          autoComplete="off"
        />
        <TextField
          name="accountNumber_confirmation"
          label="Confirm account number"
          required
          inputMode="numeric"
          maxLength={BANK_LIMITS.accountNumber_confirmation}
          autoComplete="off"
        />
      </SimpleGrid>
      <TextField
        name="routingNumber"
        label="Routing number"
        required
        inputMode="numeric"
        maxLength={BANK_LIMITS.routingNumber}
        autoComplete="off"
        description={
          check.state === 'found'
            ? check.bankName || 'Valid routing number'
            : check.state === 'checking'
              ? 'Checking…'
              : 'The 9-digit number at the bottom left of a check'
        }
      />
      <Group>
        <Text size="xs" c="gray.7">
          Your bank details go straight to our payment processor; we never store them.
        </Text>
      </Group>
      <SubmitButton>Pay {formatCurrency(dollarsToCents(Number(ctx.value)))}</SubmitButton>
    </KitForm>
  );
}
