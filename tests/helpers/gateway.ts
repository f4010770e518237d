import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import {
  gatewaySimulator,
  GatewaySimulatorState,
  simulatorUrls,
} from '../../src/server/local-peers/gateway-simulator.ts';
import { authorizeNetGateway, type OpaqueData } from '../../src/server/providers/payments/authorize-net.ts';
import { createTestApp, signedIn, type Agent, type TestApp, type TestConfig } from './test-app.ts';
import type { BuildOptions } from '../../src/server/app.ts';
import type { AddressInfo } from 'node:net';

/** Credentials the simulator checks and the client sends (test values, not secrets). */
const GATEWAY_TEST_CREDS = {
  apiLoginId: 'payTestLogin',
  transactionKey: 'payTestTransactionKey01',
  clientKey: 'payTestClientKey-public',
};
const PREFIX = '/gateway-simulator';

/** A test app whose payments provider is the real Authorize.Net client, talking to a simulator on 127.0.0.1. */
export interface GatewayTestApp {
  t: TestApp;
  /** The simulator's state: its transactions, to check what was charged. */
  sim: GatewaySimulatorState;
  /** The simulator's endpoint, tokenizer and Accept.js addresses. */
  urls: ReturnType<typeof simulatorUrls>;
  close(): Promise<void>;
}

/**
 * Starts the gateway simulator on a free 127.0.0.1 port and a test app (createTestApp) that
 * charges through the real client pointed at it (docs/requirements/platform.md §2 rule 4: a local peer, not a stub).
 * @param timeoutMs the client's whole-call limit (short, so "no answer" tests end quickly)
 * @param opts passed on to createTestApp; `gatewayDelayMs` delays each of the simulator's
 *   transaction answers (a charge still in flight)
 */
export async function createGatewayTestApp(
  timeoutMs = 1500,
  opts: { config?: TestConfig; onRoute?: BuildOptions['onRoute']; gatewayDelayMs?: number } = {},
): Promise<GatewayTestApp> {
  const { gatewayDelayMs, ...appOpts } = opts;
  const sim = new GatewaySimulatorState();
  const server = Fastify({ logger: false });
  await server.register(gatewaySimulator, {
    prefix: PREFIX,
    ...GATEWAY_TEST_CREDS,
    state: sim,
    delayMs: gatewayDelayMs,
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const urls = simulatorUrls(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}`, PREFIX);
  const gateway = authorizeNetGateway({
    endpoint: urls.endpoint,
    apiLoginId: GATEWAY_TEST_CREDS.apiLoginId,
    transactionKey: GATEWAY_TEST_CREDS.transactionKey,
    timeoutMs,
  });
  const t = await createTestApp({ ...appOpts, providers: { payments: gateway } });
  return {
    t,
    sim,
    urls,
    async close() {
      await t.close();
      await server.close();
    },
  };
}

/** The year test cards expire: next year, so they are never expired. */
const NEXT_YEAR = String(new Date().getFullYear() + 1);

/** A test card as Accept.js sends it to the tokenizer (Visa 4111… unless given). */
export const testCard = (cardNumber = '4111111111111111') => ({
  cardNumber,
  expirationDate: `12${NEXT_YEAR}`,
  cardCode: '123',
});

/**
 * Tokenizes payment data at the simulator like Accept.js in the browser: the numbers go to the
 * simulator, never to the app. `creds` default to the simulator of createGatewayTestApp.
 * @returns the opaque data @throws when the tokenizer refuses
 */
export async function tokenizeAtSimulator(
  urls: { tokenizeUrl: string },
  token: Record<string, string>,
  creds: { apiLoginId: string; clientKey: string } = GATEWAY_TEST_CREDS,
): Promise<OpaqueData> {
  const res = await fetch(urls.tokenizeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      securePaymentContainerRequest: {
        merchantAuthentication: { name: creds.apiLoginId, clientKey: creds.clientKey },
        data: { type: 'TOKEN', id: randomUUID(), token },
      },
    }),
  });
  const answer = JSON.parse((await res.text()).replace(/^\uFEFF/, ''));
  if (answer?.messages?.resultCode !== 'Ok') throw new Error(`the tokenizer refused: ${JSON.stringify(answer)}`);
  return answer.opaqueData;
}

/** The body of POST /app/payments/credit as the billing form sends it, paying `value` (dollars) of `invoiceIds`. */
export function cardPayload(
  opaque: OpaqueData,
  invoiceIds: number[],
  value: string,
  extra: Record<string, unknown> = {},
) {
  return {
    name: 'Pat Q Doe',
    address: '1 Main St',
    city: 'Indianapolis',
    state: 'IN',
    zip: '46201',
    phone: '',
    expMonth: '12',
    expYear: NEXT_YEAR,
    dataDescriptor: opaque.dataDescriptor,
    dataValue: opaque.dataValue,
    value,
    invoices: invoiceIds,
    discount_id: null,
    idempotency_key: randomUUID(),
    type: 'credit_card',
    ...extra,
  };
}

/** A bank account as Accept.js sends it to the tokenizer (routing number 121042882 unless given). */
export const testBankAccount = (accountNumber = '123456789012', routingNumber = '121042882') => ({
  accountNumber,
  routingNumber,
  nameOnAccount: 'Booster Club',
  accountType: 'checking',
});

/** The body of POST /app/payments/bank as the billing form sends it, paying `value` (dollars) of `invoiceIds`. */
export function bankPayload(
  opaque: OpaqueData,
  invoiceIds: number[],
  value: string,
  extra: Record<string, unknown> = {},
) {
  return {
    nameOnAccount: 'Booster Club',
    accountType: 'checking',
    dataDescriptor: opaque.dataDescriptor,
    dataValue: opaque.dataValue,
    value,
    invoices: invoiceIds,
    discount_id: null,
    idempotency_key: randomUUID(),
    type: 'bank_account',
    ...extra,
  };
}

/** The body of POST /app/payments/zero-payment settling `invoiceIds` with the reserved `discountId`. */
export function zeroPayload(
  invoiceIds: number[],
  discountId: number | null,
  discountTotal: string,
  extra: Record<string, unknown> = {},
) {
  return {
    value: '0.00',
    invoices: invoiceIds,
    discount_id: discountId,
    discount_total: discountTotal,
    idempotency_key: randomUUID(),
    type: 'zero_payment',
    ...extra,
  };
}

/** A gateway test app with one account, its user and a staff member, both signed in. */
export interface PaymentsFixture {
  gw: GatewayTestApp;
  accountId: number;
  holder: Agent;
  admin: Agent;
}

/**
 * createGatewayTestApp plus an account named `accountName` with its user `holder` and a staff user
 * `admin`, both signed in (the payments, reconciliation and staff action tests start from here).
 */
export async function createPaymentsFixture(
  accountName: string,
  holder: { email: string; password: string },
  admin: { email: string; password: string },
  timeoutMs = 1500,
): Promise<PaymentsFixture> {
  const gw = await createGatewayTestApp(timeoutMs);
  const db = gw.t.database.db;
  const accountId = (await createAccount(db, { name: accountName })).id;
  await createUser(db, { ...holder, accountId });
  await createUser(db, { ...admin, isAdmin: true });
  return { gw, accountId, holder: await signedIn(gw.t.app, holder), admin: await signedIn(gw.t.app, admin) };
}
