import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import vm from 'node:vm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPT_DATA_DESCRIPTOR } from '../../../shared/payments/authorize-net-fields.ts';
import {
  gatewaySimulator,
  GatewaySimulatorState,
  SANDBOX_TEST_CARDS,
  SIMULATOR_TRIGGERS,
  simulatorUrls,
} from '../../local-peers/gateway-simulator.ts';
import {
  authorizeNetGateway,
  formatAmount,
  interpretTransactionResponse,
  parseGatewayResponse,
  splitFullName,
  type OpaqueData,
  type PaymentGateway,
  type PaymentLogger,
} from './authorize-net.ts';
import type { AddressInfo } from 'node:net';

// A bare Fastify instance serving the simulator on 127.0.0.1 (port 0), driven by the REAL client
// over HTTP. A second simulator under /slow answers every request after 400 ms.

const CREDS = {
  apiLoginId: 'simLogin42',
  transactionKey: 'simTransactionKey0123',
  clientKey: 'simClientKey-public-5678',
};
const PREFIX = '/_gateway';
const NEXT_YEAR = String(new Date().getFullYear() + 1);

let app: FastifyInstance;
let origin: string;
let urls: ReturnType<typeof simulatorUrls>;
let gateway: PaymentGateway;
const state = new GatewaySimulatorState();
let clockOffsetMs = 0;
const wireBodies: string[] = [];

beforeAll(async () => {
  app = Fastify({ logger: false });
  // Capture what the client really sends (the simulator reads bodies as text).
  app.addHook('preHandler', async (request) => {
    if (request.url.endsWith('/xml/v1/request.api') && typeof request.body === 'string') wireBodies.push(request.body);
  });
  await app.register(gatewaySimulator, { prefix: PREFIX, ...CREDS, state, now: () => Date.now() + clockOffsetMs });
  await app.register(gatewaySimulator, { prefix: '/slow', ...CREDS, delayMs: 400 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  urls = simulatorUrls(origin, PREFIX);
  gateway = authorizeNetGateway({
    endpoint: urls.endpoint,
    apiLoginId: CREDS.apiLoginId,
    transactionKey: CREDS.transactionKey,
    timeoutMs: 5000,
  });
});

afterAll(async () => {
  await app?.close();
});

/** A gateway answer as the tests read it: field by field, where a wrong shape fails the expectation. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's JSON has no published type
type GatewayAnswer = Record<string, any>;

/** Reads a gateway answer the way the client does (BOM stripped). */
async function readAnswer(res: Response): Promise<GatewayAnswer> {
  return parseGatewayResponse(await res.text()) as GatewayAnswer;
}

/** Tokenizes like the Accept.js script: a securePaymentContainerRequest to the tokenizer. */
async function tokenize(
  token: Record<string, string>,
  auth: { name?: string; clientKey?: string } = {},
): Promise<GatewayAnswer> {
  const res = await fetch(urls.tokenizeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      securePaymentContainerRequest: {
        merchantAuthentication: { name: auth.name ?? CREDS.apiLoginId, clientKey: auth.clientKey ?? CREDS.clientKey },
        data: { type: 'TOKEN', id: randomUUID(), token },
      },
    }),
  });
  expect(res.status).toBe(200);
  return readAnswer(res);
}

async function cardToken(cardNumber = '4111111111111111'): Promise<OpaqueData> {
  const answer = await tokenize({ cardNumber, expirationDate: `12${NEXT_YEAR}`, cardCode: '123' });
  expect(answer.messages.resultCode).toBe('Ok');
  return answer.opaqueData as OpaqueData;
}

async function bankToken(accountNumber = '123456789012'): Promise<OpaqueData> {
  const answer = await tokenize({
    accountNumber,
    routingNumber: '121042882',
    nameOnAccount: 'Booster Club',
    accountType: 'checking',
  });
  expect(answer.messages.resultCode).toBe('Ok');
  return answer.opaqueData as OpaqueData;
}

const invoice = () => `INV-${randomUUID().slice(0, 12)}`;
const billTo = (zip = '46201') => ({
  firstName: 'Pat',
  lastName: 'Doe',
  address: '1 Main St',
  city: 'Indianapolis',
  state: 'IN',
  zip,
  country: 'US',
});

/** Posts a raw createTransactionRequest to the simulator. */
async function rawTransaction(
  transactionRequest: Record<string, unknown>,
  auth = { name: CREDS.apiLoginId, transactionKey: CREDS.transactionKey },
) {
  const res = await fetch(urls.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ createTransactionRequest: { merchantAuthentication: auth, transactionRequest } }),
  });
  return readAnswer(res);
}

describe('request body (unit)', () => {
  it('formats integer cents as decimal strings', () => {
    expect(formatAmount(1050)).toBe('10.50');
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(100)).toBe('1.00');
    expect(formatAmount(123456789)).toBe('1234567.89');
    for (const bad of [0, -100, 12.5, Number.NaN]) expect(() => formatAmount(bad)).toThrow(RangeError);
  });

  it('strips the UTF-8 BOM before parsing', () => {
    expect(parseGatewayResponse('\uFEFF{"messages":{"resultCode":"Ok"}}')).toEqual({ messages: { resultCode: 'Ok' } });
    expect(parseGatewayResponse('{"a":1}')).toEqual({ a: 1 });
  });

  it('sends keys in the documented element order with amounts from cents', async () => {
    const opaqueData = await cardToken();
    const before = wireBodies.length;
    const outcome = await gateway.chargeOpaqueData({
      amountCents: 1050,
      opaqueData,
      refId: 'ref-order-1',
      invoiceNumber: invoice(),
      description: 'Renewal',
      customer: { id: 'acct-7', email: 'treasurer@example.org' },
      billTo: {
        zip: '46201',
        country: 'US',
        lastName: 'Doe',
        firstName: 'Pat',
        city: 'Indianapolis',
        state: 'IN',
        address: '1 Main St',
        phoneNumber: '317-555-0100',
      },
      customerIp: '203.0.113.9',
    });
    expect(outcome.status).toBe('approved');
    expect(wireBodies.length).toBe(before + 1);
    const sent = JSON.parse(wireBodies[before]!);
    expect(Object.keys(sent)).toEqual(['createTransactionRequest']);
    const ctr = sent.createTransactionRequest;
    expect(Object.keys(ctr)).toEqual(['merchantAuthentication', 'refId', 'transactionRequest']);
    expect(Object.keys(ctr.merchantAuthentication)).toEqual(['name', 'transactionKey']);
    const tr = ctr.transactionRequest;
    expect(Object.keys(tr)).toEqual([
      'transactionType',
      'amount',
      'payment',
      'order',
      'customer',
      'billTo',
      'customerIP',
    ]);
    expect(tr.transactionType).toBe('authCaptureTransaction');
    expect(tr.amount).toBe('10.50');
    expect(tr.payment).toEqual({
      opaqueData: { dataDescriptor: ACCEPT_DATA_DESCRIPTOR, dataValue: opaqueData.dataValue },
    });
    expect(Object.keys(tr.order)).toEqual(['invoiceNumber', 'description']);
    expect(Object.keys(tr.customer)).toEqual(['id', 'email']);
    expect(Object.keys(tr.billTo)).toEqual([
      'firstName',
      'lastName',
      'address',
      'city',
      'state',
      'zip',
      'country',
      'phoneNumber',
    ]);
  });

  it('cuts fields to the API lengths', async () => {
    const before = wireBodies.length;
    await gateway.chargeOpaqueData({
      amountCents: 200,
      opaqueData: await cardToken(),
      refId: 'r'.repeat(40),
      invoiceNumber: `I${'9'.repeat(40)}`,
      billTo: { zip: '4620112345678901234567890' },
    });
    const tr = JSON.parse(wireBodies[before]!).createTransactionRequest;
    expect(tr.refId).toHaveLength(20);
    expect(tr.transactionRequest.order.invoiceNumber).toHaveLength(20);
    expect(tr.transactionRequest.billTo.zip).toHaveLength(20);
  });

  it('refuses a bad amount before sending anything', async () => {
    const before = wireBodies.length;
    await expect(
      gateway.chargeOpaqueData({
        amountCents: 0,
        opaqueData: { dataDescriptor: ACCEPT_DATA_DESCRIPTOR, dataValue: 'x' },
      }),
    ).rejects.toThrow(RangeError);
    expect(wireBodies.length).toBe(before);
  });

  it('splits a single name field into first and last names', () => {
    expect(splitFullName('  Mary Ann  Smith ')).toEqual({ firstName: 'Mary Ann', lastName: 'Smith' });
    expect(splitFullName('Cher')).toEqual({ lastName: 'Cher' });
    expect(splitFullName('')).toEqual({});
  });

  it('is paid only on responseCode 1 and reads unexpected answers as unknown', () => {
    const ok = { messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] } };
    expect(
      interpretTransactionResponse({
        ...ok,
        transactionResponse: { responseCode: '1', transId: '7', accountNumber: '4111111111111111' },
      }),
    ).toMatchObject({ status: 'approved', accountNumber: 'XXXX1111' });
    expect(interpretTransactionResponse({ ...ok, transactionResponse: { responseCode: '9', transId: '7' } })).toEqual({
      status: 'unknown',
      reason: 'unreadable',
    });
    expect(interpretTransactionResponse({ ...ok, transactionResponse: { responseCode: '1', transId: '0' } })).toEqual({
      status: 'unknown',
      reason: 'unreadable',
    });
    expect(interpretTransactionResponse(ok)).toEqual({ status: 'unknown', reason: 'unreadable' });
    expect(interpretTransactionResponse('nonsense')).toEqual({ status: 'unknown', reason: 'unreadable' });
    // Errors wrapped the XML way are read too.
    expect(
      interpretTransactionResponse({
        messages: { resultCode: 'Error', message: { code: 'E00027', text: 'The transaction was unsuccessful.' } },
        transactionResponse: {
          responseCode: '3',
          transId: '0',
          errors: { error: [{ errorCode: '11', errorText: 'A duplicate transaction has been submitted.' }] },
        },
      }),
    ).toMatchObject({ status: 'duplicate', code: '11', transId: null });
  });
});

describe('simulator wire format', () => {
  it('answers JSON that starts with a UTF-8 byte order mark', async () => {
    const res = await fetch(urls.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const body = JSON.parse(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1));
    expect(body.messages.resultCode).toBe('Error');
  });

  it('refuses elements out of the documented order with E00003', async () => {
    const body = await rawTransaction({
      amount: '5.00',
      transactionType: 'authCaptureTransaction',
      payment: { opaqueData: { dataDescriptor: ACCEPT_DATA_DESCRIPTOR, dataValue: 'x' } },
    });
    expect(body.messages.resultCode).toBe('Error');
    expect(body.messages.message[0].code).toBe('E00003');
    expect(body.messages.message[0].text).toContain("invalid child element 'transactionType'");
  });

  it('answers a zero amount with reason 5', async () => {
    const opaqueData = await cardToken();
    const body = await rawTransaction({
      transactionType: 'authCaptureTransaction',
      amount: '0.00',
      payment: { opaqueData },
    });
    expect(body.transactionResponse.responseCode).toBe('3');
    expect(body.transactionResponse.errors[0]).toEqual({ errorCode: '5', errorText: 'A valid amount is required.' });
  });
});

describe('card and bank charges against the simulator', () => {
  it('approves a sandbox test card and returns only the masked number', async () => {
    const opaqueData = await cardToken('4111111111111111');
    const outcome = await gateway.chargeOpaqueData({
      amountCents: 2500,
      opaqueData,
      invoiceNumber: invoice(),
      refId: 'ref-approve',
      billTo: billTo(),
    });
    expect(outcome).toMatchObject({
      status: 'approved',
      resultCode: 'Ok',
      accountNumber: 'XXXX1111',
      accountType: 'Visa',
      code: '1',
      text: 'This transaction has been approved.',
      message: { code: 'I00001', text: 'Successful.' },
    });
    if (outcome.status !== 'approved') throw new Error('expected approval');
    expect(outcome.transId).toMatch(/^\d+$/);
    expect(outcome.authCode).toMatch(/^[0-9A-F]{6}$/);
    const returned = JSON.stringify(outcome);
    expect(returned).not.toContain(opaqueData.dataValue);
    expect(returned).not.toContain('4111111111111111');
    expect(returned).not.toContain(CREDS.transactionKey);
    expect(state.getTransaction(outcome.transId)).toMatchObject({
      status: 'approved',
      amountCents: 2500,
      accountNumber: 'XXXX1111',
    });
  });

  it('approves every sandbox test card with its account type', async () => {
    for (const [number, accountType] of Object.entries(SANDBOX_TEST_CARDS)) {
      const outcome = await gateway.chargeOpaqueData({
        amountCents: 1234,
        opaqueData: await cardToken(number),
        invoiceNumber: invoice(),
      });
      expect(outcome).toMatchObject({ status: 'approved', accountType, accountNumber: `XXXX${number.slice(-4)}` });
    }
  });

  it('declines a card that is not a sandbox test card', async () => {
    const outcome = await gateway.chargeOpaqueData({
      amountCents: 1234,
      opaqueData: await cardToken('4242424242424242'),
      invoiceNumber: invoice(),
    });
    expect(outcome).toMatchObject({ status: 'declined', code: '2' });
  });

  it('approves a bank (eCheck) charge up to 100.00', async () => {
    const outcome = await gateway.chargeOpaqueData({
      amountCents: 10_000,
      opaqueData: await bankToken('99887766554'),
      invoiceNumber: invoice(),
      billTo: billTo(),
    });
    expect(outcome).toMatchObject({
      status: 'approved',
      accountType: 'eCheck',
      accountNumber: 'XXXX6554',
      authCode: '',
    });
    expect(JSON.stringify(outcome)).not.toContain('99887766554');
  });

  it('declines zip 46282', async () => {
    const outcome = await gateway.chargeOpaqueData({
      amountCents: 1500,
      opaqueData: await cardToken(),
      invoiceNumber: invoice(),
      billTo: billTo(SIMULATOR_TRIGGERS.declineZip),
    });
    expect(outcome).toMatchObject({
      status: 'declined',
      resultCode: 'Error',
      code: '2',
      text: 'This transaction has been declined.',
      message: { code: 'E00027' },
    });
  });

  it('declines an eCheck over 100.00', async () => {
    const outcome = await gateway.chargeOpaqueData({
      amountCents: 10_001,
      opaqueData: await bankToken(),
      invoiceNumber: invoice(),
      billTo: billTo(),
    });
    expect(outcome).toMatchObject({ status: 'declined', code: '2', text: 'This transaction has been declined.' });
    if (outcome.status !== 'declined') throw new Error('expected a decline');
    expect(state.getTransaction(outcome.transId!)).toMatchObject({
      kind: 'bank',
      status: 'declined',
      amountCents: 10_001,
    });
  });

  it('holds zip 46205 for review (pending, not paid)', async () => {
    const outcome = await gateway.chargeOpaqueData({
      amountCents: 4200,
      opaqueData: await cardToken(),
      invoiceNumber: invoice(),
      billTo: billTo(SIMULATOR_TRIGGERS.heldZip),
    });
    expect(outcome).toMatchObject({ status: 'held', resultCode: 'Ok', code: '252', accountNumber: 'XXXX1111' });
  });

  it('answers reason 11 for the same card, amount and invoice within 120 s, and accepts it after', async () => {
    const inv = invoice();
    const first = await gateway.chargeOpaqueData({
      amountCents: 3300,
      opaqueData: await cardToken('5424000000000015'),
      invoiceNumber: inv,
    });
    expect(first.status).toBe('approved');
    const second = await gateway.chargeOpaqueData({
      amountCents: 3300,
      opaqueData: await cardToken('5424000000000015'),
      invoiceNumber: inv,
    });
    expect(second).toMatchObject({
      status: 'duplicate',
      code: '11',
      text: 'A duplicate transaction has been submitted.',
    });
    if (first.status === 'approved' && second.status === 'duplicate') expect(second.transId).toBe(first.transId);
    // Another card for the same invoice is not a duplicate.
    const otherCard = await gateway.chargeOpaqueData({
      amountCents: 3300,
      opaqueData: await cardToken('4007000000027'),
      invoiceNumber: inv,
    });
    expect(otherCard.status).toBe('approved');
    clockOffsetMs += (SIMULATOR_TRIGGERS.duplicateWindowSeconds + 1) * 1000;
    try {
      const later = await gateway.chargeOpaqueData({
        amountCents: 3300,
        opaqueData: await cardToken('5424000000000015'),
        invoiceNumber: inv,
      });
      expect(later.status).toBe('approved');
    } finally {
      clockOffsetMs -= (SIMULATOR_TRIGGERS.duplicateWindowSeconds + 1) * 1000;
    }
  });

  it('with duplicateWindow 0 a retry of the same card right after a decline is charged, not refused as a duplicate', async () => {
    const inv = invoice();
    const charge = async (zip: string, duplicateWindowSeconds?: number) =>
      gateway.chargeOpaqueData({
        amountCents: 4500,
        opaqueData: await cardToken('2223000010309703'),
        invoiceNumber: inv,
        billTo: billTo(zip),
        duplicateWindowSeconds,
      });
    expect(await charge(SIMULATOR_TRIGGERS.declineZip)).toMatchObject({ status: 'declined', code: '2' });
    // The gateway's default window refuses the corrected retry: nothing is charged and the reason is 11.
    expect(await charge('46201')).toMatchObject({ status: 'duplicate', code: '11' });
    const before = wireBodies.length;
    const retry = await charge('46201', 0);
    expect(retry).toMatchObject({ status: 'approved', accountNumber: 'XXXX9703' });
    const tr = JSON.parse(wireBodies[before]!).createTransactionRequest.transactionRequest;
    expect(Object.keys(tr).slice(-2)).toEqual(['billTo', 'transactionSettings']);
    expect(tr.transactionSettings).toEqual({ setting: [{ settingName: 'duplicateWindow', settingValue: '0' }] });
  });

  it('a duplicateWindow setting sets the window of its own request; an out-of-range one is refused before sending', async () => {
    const inv = invoice();
    const charge = async (duplicateWindowSeconds?: number) =>
      gateway.chargeOpaqueData({
        amountCents: 4600,
        opaqueData: await cardToken('4012888818888'),
        invoiceNumber: inv,
        duplicateWindowSeconds,
      });
    expect((await charge()).status).toBe('approved');
    clockOffsetMs += 30_000;
    try {
      // 30 s later: inside a 60 s window, outside a 20 s one.
      expect(await charge(60)).toMatchObject({ status: 'duplicate', code: '11' });
      expect((await charge(20)).status).toBe('approved');
    } finally {
      clockOffsetMs -= 30_000;
    }
    await expect(charge(28_801)).rejects.toThrow(RangeError);
    const raw = await rawTransaction({
      transactionType: 'authCaptureTransaction',
      amount: '46.00',
      payment: { opaqueData: await cardToken() },
      transactionSettings: { setting: { settingName: 'duplicateWindow', settingValue: '-5' } },
    });
    expect(raw.messages).toMatchObject({ resultCode: 'Error', message: [{ code: 'E00003' }] });
  });

  it('declines zip 46203 for an address mismatch with reason 27', async () => {
    const outcome = await gateway.chargeOpaqueData({
      amountCents: 1600,
      opaqueData: await cardToken(),
      invoiceNumber: invoice(),
      billTo: billTo(SIMULATOR_TRIGGERS.avsMismatchZip),
    });
    expect(outcome).toMatchObject({ status: 'declined', code: '27' });
    if (outcome.status === 'declined') expect(outcome.text).toContain('AVS mismatch');
  });

  it('answers E00114 for a reused opaque token', async () => {
    const opaqueData = await cardToken();
    expect((await gateway.chargeOpaqueData({ amountCents: 700, opaqueData, invoiceNumber: invoice() })).status).toBe(
      'approved',
    );
    const reused = await gateway.chargeOpaqueData({ amountCents: 800, opaqueData, invoiceNumber: invoice() });
    expect(reused).toEqual({
      status: 'error',
      resultCode: 'Error',
      transId: null,
      code: 'E00114',
      text: 'Invalid OTS Token.',
      message: { code: 'E00114', text: 'Invalid OTS Token.' },
    });
  });

  it('answers E00114 for a token older than 15 minutes and for a made-up token', async () => {
    const opaqueData = await cardToken();
    clockOffsetMs += (SIMULATOR_TRIGGERS.tokenLifetimeSeconds + 1) * 1000;
    try {
      const expired = await gateway.chargeOpaqueData({ amountCents: 700, opaqueData, invoiceNumber: invoice() });
      expect(expired).toMatchObject({ status: 'error', code: 'E00114' });
    } finally {
      clockOffsetMs -= (SIMULATOR_TRIGGERS.tokenLifetimeSeconds + 1) * 1000;
    }
    const madeUp = await gateway.chargeOpaqueData({
      amountCents: 700,
      opaqueData: { dataDescriptor: ACCEPT_DATA_DESCRIPTOR, dataValue: 'bm90IGEgdG9rZW4=' },
    });
    expect(madeUp).toMatchObject({ status: 'error', code: 'E00114' });
  });

  it('answers E00007 for bad merchant credentials', async () => {
    const wrongKey = authorizeNetGateway({
      endpoint: urls.endpoint,
      apiLoginId: CREDS.apiLoginId,
      transactionKey: 'not-the-key',
      timeoutMs: 5000,
    });
    const outcome = await wrongKey.chargeOpaqueData({
      amountCents: 900,
      opaqueData: await cardToken(),
      invoiceNumber: invoice(),
    });
    expect(outcome).toMatchObject({
      status: 'error',
      code: 'E00007',
      text: 'User authentication failed due to invalid authentication values.',
    });
  });

  it('returns unknown when the gateway never answers, leaves no secret in its logs, and a retry with a new token is a duplicate', async () => {
    const entries: unknown[] = [];
    const logger: PaymentLogger = {
      info: (obj, msg) => entries.push([obj, msg]),
      warn: (obj, msg) => entries.push([obj, msg]),
    };
    const impatient = authorizeNetGateway({
      endpoint: urls.endpoint,
      apiLoginId: CREDS.apiLoginId,
      transactionKey: CREDS.transactionKey,
      timeoutMs: 300,
      logger,
    });
    const opaqueData = await cardToken();
    const inv = invoice();
    const startedAt = Date.now();
    const outcome = await impatient.chargeOpaqueData({
      amountCents: SIMULATOR_TRIGGERS.noAnswerAmountCents,
      opaqueData,
      invoiceNumber: inv,
      refId: 'attempt-timeout',
    });
    expect(outcome).toEqual({ status: 'unknown', reason: 'timeout' });
    expect(Date.now() - startedAt).toBeLessThan(5000);
    // The gateway did charge: a payment left pending must not be retried under a new key.
    const charged = state.listTransactions().find((t) => t.invoiceNumber === inv);
    expect(charged).toMatchObject({ status: 'approved', answered: false });
    const retry = await gateway.chargeOpaqueData({
      amountCents: SIMULATOR_TRIGGERS.noAnswerAmountCents,
      opaqueData: await cardToken(),
      invoiceNumber: inv,
    });
    expect(retry).toMatchObject({ status: 'duplicate', code: '11', transId: charged!.transId });
    const logged = JSON.stringify(entries);
    expect(logged).toContain('attempt-timeout');
    expect(logged).not.toContain(opaqueData.dataValue);
    expect(logged).not.toContain(CREDS.transactionKey);
  }, 20_000);

  it('returns unknown when the answer comes after the client timeout (delayMs)', async () => {
    const slowUrls = simulatorUrls(origin, '/slow');
    const answer = await (
      await fetch(slowUrls.tokenizeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          securePaymentContainerRequest: {
            merchantAuthentication: { name: CREDS.apiLoginId, clientKey: CREDS.clientKey },
            data: {
              type: 'TOKEN',
              id: '1',
              token: { cardNumber: '4111111111111111', expirationDate: `12${NEXT_YEAR}` },
            },
          },
        }),
      })
    ).text();
    const opaqueData = (parseGatewayResponse(answer) as { opaqueData: OpaqueData }).opaqueData;
    const impatient = authorizeNetGateway({
      endpoint: slowUrls.endpoint,
      apiLoginId: CREDS.apiLoginId,
      transactionKey: CREDS.transactionKey,
      timeoutMs: 100,
    });
    expect(await impatient.chargeOpaqueData({ amountCents: 500, opaqueData, invoiceNumber: invoice() })).toEqual({
      status: 'unknown',
      reason: 'timeout',
    });
    const patient = authorizeNetGateway({
      endpoint: slowUrls.endpoint,
      apiLoginId: CREDS.apiLoginId,
      transactionKey: CREDS.transactionKey,
      timeoutMs: 5000,
    });
    // The slow gateway did process the first request: the token is used up.
    expect(await patient.chargeOpaqueData({ amountCents: 500, opaqueData, invoiceNumber: invoice() })).toMatchObject({
      status: 'error',
      code: 'E00114',
    });
  });

  it('returns unknown when the gateway cannot be reached', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const offline = authorizeNetGateway({
      endpoint: `http://127.0.0.1:${port}/xml/v1/request.api`,
      apiLoginId: 'a',
      transactionKey: 'b',
      timeoutMs: 2000,
    });
    expect(
      await offline.chargeOpaqueData({
        amountCents: 100,
        opaqueData: { dataDescriptor: ACCEPT_DATA_DESCRIPTOR, dataValue: 'x' },
      }),
    ).toEqual({ status: 'unknown', reason: 'network' });
  });

  it('returns unknown for a non-2xx answer', async () => {
    const broken = authorizeNetGateway({
      endpoint: `${origin}${PREFIX}/no-such-path`,
      apiLoginId: 'a',
      transactionKey: 'b',
      timeoutMs: 2000,
    });
    expect(
      await broken.paypalAuthCapture({
        amountCents: 100,
        successUrl: 'https://x.test/s',
        cancelUrl: 'https://x.test/c',
      }),
    ).toEqual({ status: 'unknown', reason: 'http_status' });
  });
});

describe('PayPal through the simulator', () => {
  const successUrl = 'https://goodstanding.test/app/payments/paypal/return?invoices=12';
  const cancelUrl = 'https://goodstanding.test/app/payments/paypal/clear';

  async function start(amountCents: number) {
    const started = await gateway.paypalAuthCapture({
      amountCents,
      successUrl,
      cancelUrl,
      refId: 'pp-1',
      invoiceNumber: invoice(),
    });
    if (started.status !== 'consent_required') throw new Error(`expected consent_required, got ${started.status}`);
    expect(started.secureAcceptanceUrl.startsWith(`${origin}${PREFIX}/paypal/consent?token=EC-`)).toBe(true);
    const page = await fetch(started.secureAcceptanceUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<title>PayPal (simulator)</title>');
    expect(html).toContain('>Approve</button>');
    expect(html).toContain('>Cancel</button>');
    expect(html).not.toMatch(/<script|style=|onclick/i);
    const token = new URL(started.secureAcceptanceUrl).searchParams.get('token')!;
    return { started, token };
  }

  async function press(button: 'approve' | 'cancel', token: string): Promise<URL> {
    const res = await fetch(`${origin}${PREFIX}/paypal/consent/${button}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    return new URL(res.headers.get('location')!);
  }

  it('authCapture → consent Approve → continue approves once', async () => {
    const { started, token } = await start(4500);
    const back = await press('approve', token);
    expect(back.origin + back.pathname).toBe('https://goodstanding.test/app/payments/paypal/return');
    expect(back.searchParams.get('invoices')).toBe('12');
    expect(back.searchParams.get('token')).toBe(token);
    const payerId = back.searchParams.get('PayerID')!;
    expect(payerId).toMatch(/^[A-Z0-9]{13}$/);
    const done = await gateway.paypalContinue({ refTransId: started.transId, payerId, amountCents: 4500 });
    expect(done).toMatchObject({ status: 'approved', transId: started.transId, accountType: 'PayPal' });
    expect(state.getTransaction(started.transId)).toMatchObject({
      kind: 'paypal',
      status: 'captured',
      amountCents: 4500,
    });
    const again = await gateway.paypalContinue({ refTransId: started.transId, payerId });
    expect(again).toMatchObject({ status: 'error', code: '2009' });
  });

  it('authCapture → consent Cancel → continue fails', async () => {
    const { started, token } = await start(1999);
    const back = await press('cancel', token);
    expect(back.origin + back.pathname).toBe('https://goodstanding.test/app/payments/paypal/clear');
    expect(back.searchParams.get('token')).toBe(token);
    expect(back.searchParams.has('PayerID')).toBe(false);
    const done = await gateway.paypalContinue({ refTransId: started.transId, payerId: 'ABCDEFGHJKLMN' });
    expect(done).toMatchObject({ status: 'error', code: '2102' });
  });

  it('continue before consent, or for an unknown transaction, fails', async () => {
    const { started } = await start(1000);
    expect(await gateway.paypalContinue({ refTransId: started.transId, payerId: 'ABCDEFGHJKLMN' })).toMatchObject({
      status: 'error',
      code: '2102',
    });
    expect(await gateway.paypalContinue({ refTransId: '1', payerId: 'ABCDEFGHJKLMN' })).toMatchObject({
      status: 'error',
      code: '16',
    });
  });

  it('sends the PayPal requests in element order', async () => {
    const before = wireBodies.length;
    await gateway.paypalAuthCapture({
      amountCents: 1050,
      successUrl,
      cancelUrl,
      refId: 'pp-order',
      invoiceNumber: 'INV-1',
    });
    await gateway.paypalContinue({ refTransId: '123', payerId: 'P1', amountCents: 1050 });
    const [startBody, continueBody] = wireBodies
      .slice(before)
      .map((b) => JSON.parse(b).createTransactionRequest.transactionRequest);
    expect(Object.keys(startBody)).toEqual(['transactionType', 'amount', 'payment', 'order']);
    expect(startBody.amount).toBe('10.50');
    expect(Object.keys(startBody.payment.payPal)).toEqual(['successUrl', 'cancelUrl']);
    expect(Object.keys(continueBody)).toEqual(['transactionType', 'amount', 'payment', 'refTransId']);
    expect(continueBody).toMatchObject({
      transactionType: 'authCaptureContinueTransaction',
      payment: { payPal: { payerID: 'P1' } },
      refTransId: '123',
    });
  });

  it('shows a not-found page for an unknown consent token', async () => {
    const res = await fetch(`${origin}${PREFIX}/paypal/consent?token=EC-NOPE`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('unknown or has ended');
  });
});

describe('tokenizer and the Accept.js stand-in', () => {
  type AcceptResponse = {
    opaqueData?: OpaqueData;
    messages: { resultCode: string; message: { code: string; text: string }[] };
  };

  /** Loads the served script into a fresh VM context with the real fetch, like a browser page. */
  async function loadAccept(): Promise<(secureData: unknown) => Promise<AcceptResponse>> {
    const res = await fetch(urls.acceptJsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    const source = await res.text();
    expect(source).toContain('dispatchData');
    const context: Record<string, unknown> = { fetch, setTimeout };
    context.window = context;
    vm.createContext(context);
    vm.runInContext(source, context);
    const accept = context.Accept as { dispatchData: (data: unknown, cb: (r: AcceptResponse) => void) => void };
    expect(typeof accept.dispatchData).toBe('function');
    return (secureData) =>
      new Promise((resolve) => accept.dispatchData(secureData, (r) => resolve(JSON.parse(JSON.stringify(r)))));
  }

  const authData = { clientKey: CREDS.clientKey, apiLoginID: CREDS.apiLoginId };
  const codes = (r: AcceptResponse) => r.messages.message.map((m) => m.code);

  it('tokenizes a good card and the token charges once', async () => {
    const dispatch = await loadAccept();
    const r = await dispatch({
      authData,
      cardData: {
        cardNumber: '4111 1111 1111 1111',
        month: '12',
        year: NEXT_YEAR,
        cardCode: '123',
        zip: '46201',
        fullName: 'Pat Doe',
      },
    });
    expect(r.messages).toEqual({ resultCode: 'Ok', message: [{ code: 'I_WC_01', text: 'Successful.' }] });
    expect(r.opaqueData?.dataDescriptor).toBe('COMMON.ACCEPT.INAPP.PAYMENT');
    expect(r.opaqueData?.dataValue.length).toBeGreaterThan(40);
    const outcome = await gateway.chargeOpaqueData({
      amountCents: 1111,
      opaqueData: r.opaqueData!,
      invoiceNumber: invoice(),
    });
    expect(outcome).toMatchObject({ status: 'approved', accountNumber: 'XXXX1111' });
  });

  it('tokenizes bank data', async () => {
    const dispatch = await loadAccept();
    const r = await dispatch({
      authData,
      bankData: {
        accountNumber: '1234567890',
        routingNumber: '121042882',
        nameOnAccount: 'Booster Club',
        accountType: 'businessChecking',
      },
    });
    expect(r.messages.resultCode).toBe('Ok');
    expect(
      await gateway.chargeOpaqueData({ amountCents: 5000, opaqueData: r.opaqueData!, invoiceNumber: invoice() }),
    ).toMatchObject({ status: 'approved', accountType: 'eCheck' });
  });

  it('answers E_WC_05 for a card number failing the Luhn check', async () => {
    const dispatch = await loadAccept();
    const r = await dispatch({ authData, cardData: { cardNumber: '4111111111111112', month: '12', year: NEXT_YEAR } });
    expect(r.messages).toEqual({
      resultCode: 'Error',
      message: [{ code: 'E_WC_05', text: 'Please provide valid credit card number.' }],
    });
    expect(r.opaqueData).toBeUndefined();
  });

  it('answers the card field codes', async () => {
    const dispatch = await loadAccept();
    expect(
      codes(await dispatch({ authData, cardData: { cardNumber: '4111111111111111', month: '13', year: NEXT_YEAR } })),
    ).toEqual(['E_WC_06']);
    expect(
      codes(await dispatch({ authData, cardData: { cardNumber: '4111111111111111', month: '12', year: '2x' } })),
    ).toEqual(['E_WC_07']);
    expect(
      codes(await dispatch({ authData, cardData: { cardNumber: '4111111111111111', month: '01', year: '2020' } })),
    ).toEqual(['E_WC_08']);
    expect(
      codes(
        await dispatch({
          authData,
          cardData: { cardNumber: '4111111111111111', month: '12', year: NEXT_YEAR, cardCode: '12' },
        }),
      ),
    ).toEqual(['E_WC_15']);
    expect(
      codes(await dispatch({ authData, cardData: { cardNumber: '12', month: '00', year: 'x', cardCode: 'abc' } })),
    ).toEqual(['E_WC_05', 'E_WC_06', 'E_WC_07', 'E_WC_15']);
  });

  it('answers the bank field codes', async () => {
    const dispatch = await loadAccept();
    const r = await dispatch({
      authData,
      bankData: {
        accountNumber: '12345678901234567890',
        routingNumber: '12345',
        nameOnAccount: 'A name far longer than twenty-two',
        accountType: 'brokerage',
      },
    });
    expect(r.messages.resultCode).toBe('Error');
    expect(r.messages.message).toEqual([
      { code: 'E_WC_24', text: 'Please provide valid account number.' },
      { code: 'E_WC_25', text: 'Please provide valid routing number.' },
      { code: 'E_WC_26', text: 'Please provide valid account holder name.' },
      { code: 'E_WC_27', text: 'Please provide valid account type.' },
    ]);
  });

  it('answers the authentication codes', async () => {
    const dispatch = await loadAccept();
    const card = { cardNumber: '4111111111111111', month: '12', year: NEXT_YEAR };
    expect(codes(await dispatch({ authData: { clientKey: CREDS.clientKey, apiLoginID: '' }, cardData: card }))).toEqual(
      ['E_WC_10'],
    );
    expect(codes(await dispatch({ authData: { apiLoginID: CREDS.apiLoginId }, cardData: card }))).toEqual(['E_WC_18']);
    expect(await dispatch({ authData: { clientKey: 'wrong', apiLoginID: CREDS.apiLoginId }, cardData: card })).toEqual({
      messages: {
        resultCode: 'Error',
        message: [{ code: 'E_WC_21', text: 'User authentication failed due to invalid authentication values.' }],
      },
    });
    expect(codes(await dispatch({ authData, cardData: card, bankData: { accountNumber: '1' } }))).toEqual(['E_WC_23']);
    expect(codes(await dispatch({ cardData: card }))).toEqual(['E_WC_04']);
  });

  it('calls back a global function named by a string, as Accept.js allows', async () => {
    const source = await (await fetch(urls.acceptJsUrl)).text();
    const context: Record<string, unknown> = { fetch, setTimeout };
    context.window = context;
    vm.createContext(context);
    vm.runInContext(source, context);
    const response = await new Promise<AcceptResponse>((resolve) => {
      context.responseHandler = resolve;
      (context.Accept as { dispatchData: (d: unknown, cb: string) => void }).dispatchData(
        { authData, cardData: { cardNumber: '1' } },
        'responseHandler',
      );
    });
    expect(response.messages.resultCode).toBe('Error');
  });

  it('the tokenizer itself refuses bad credentials and bad card data', async () => {
    const badAuth = await tokenize(
      { cardNumber: '4111111111111111', expirationDate: `12${NEXT_YEAR}` },
      { clientKey: 'nope' },
    );
    expect(badAuth.messages).toEqual({
      resultCode: 'Error',
      message: [{ code: 'E00007', text: 'User authentication failed due to invalid authentication values.' }],
    });
    const badCard = await tokenize({ cardNumber: '4111111111111112', expirationDate: `12${NEXT_YEAR}` });
    expect(badCard.messages.resultCode).toBe('Error');
    expect(badCard.opaqueData).toBeUndefined();
  });
});

describe('reconciliation and staff calls through the simulator (docs/payments.md)', () => {
  const charge = async (opts: { zip?: string; amountCents?: number; card?: string } = {}) => {
    const refId = `gs-pay-${Math.floor(Math.random() * 1e9)}`;
    const invoiceNumber = invoice();
    const outcome = await gateway.chargeOpaqueData({
      amountCents: opts.amountCents ?? 4_200,
      opaqueData: await cardToken(opts.card),
      refId,
      invoiceNumber,
      description: `GoodStanding ${refId}`,
      billTo: billTo(opts.zip),
    });
    return { outcome, refId, invoiceNumber };
  };
  const settleNow = () => state.settle(Date.now() + clockOffsetMs);

  it('getTransactionDetails reports status, refId, amount, order and the masked card; an unknown id is not found', async () => {
    const { outcome, refId, invoiceNumber } = await charge();
    expect(outcome.status).toBe('approved');
    const transId = (outcome as { transId: string }).transId;
    const found = await gateway.getTransactionDetails(transId);
    expect(found).toMatchObject({
      status: 'found',
      transaction: {
        transId,
        refId,
        transactionType: 'authCaptureTransaction',
        transactionStatus: 'capturedPendingSettlement',
        amountCents: 4_200,
        invoiceNumber,
        description: `GoodStanding ${refId}`,
        accountNumber: 'XXXX1111',
        accountType: 'Visa',
      },
    });
    expect((found as { transaction: { submittedAt: Date } }).transaction.submittedAt).toBeInstanceOf(Date);
    settleNow();
    expect(await gateway.getTransactionDetails(transId)).toMatchObject({
      status: 'found',
      transaction: { transactionStatus: 'settledSuccessfully' },
    });
    expect(await gateway.getTransactionDetails('99999999999')).toEqual({ status: 'not_found' });
    const wrong = authorizeNetGateway({
      endpoint: urls.endpoint,
      apiLoginId: CREDS.apiLoginId,
      transactionKey: 'wrong-key-000000',
      timeoutMs: 5000,
    });
    expect(await wrong.getTransactionDetails(transId)).toMatchObject({ status: 'error', code: 'E00007' });
  });

  it('getUnsettledTransactions lists what is not settled yet, oldest first, by pages', async () => {
    settleNow();
    const a = await charge();
    const b = await charge({ zip: '46205' });
    const c = await charge({ amountCents: 1_313 });
    expect(c.outcome.status).toBe('unknown');
    const all = await gateway.getUnsettledTransactions();
    expect(all.status).toBe('ok');
    const ours = [a.invoiceNumber, b.invoiceNumber, c.invoiceNumber];
    // Held charges and PayPal payments of earlier tests stay unsettled too.
    const listed = (
      all as {
        transactions: { transId: string; transactionStatus: string; invoiceNumber: string; amountCents: number }[];
      }
    ).transactions.filter((t) => ours.includes(t.invoiceNumber));
    expect(listed.map((t) => t.invoiceNumber)).toEqual(ours);
    expect(listed.map((t) => t.transactionStatus)).toEqual([
      'capturedPendingSettlement',
      'FDSAuthorizedPendingReview',
      'capturedPendingSettlement',
    ]);
    expect(listed[2].amountCents).toBe(1_313);
    // The charge whose answer was lost is found with its refId.
    const lost = await gateway.getTransactionDetails(listed[2].transId);
    expect(lost).toMatchObject({ status: 'found', transaction: { refId: c.refId } });

    // Pages of two, read one after the other, give the same list.
    const total = (all as { total: number }).total;
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 2); page++) {
      const answer = await gateway.getUnsettledTransactions({ limit: 2, offset: page });
      expect(answer).toMatchObject({ status: 'ok', total });
      paged.push(...(answer as { transactions: { transId: string }[] }).transactions.map((t) => t.transId));
    }
    expect(paged).toEqual((all as { transactions: { transId: string }[] }).transactions.map((t) => t.transId));
    settleNow();
    // The held charge is not captured, so it stays unsettled until staff decide.
    const after = (
      (await gateway.getUnsettledTransactions()) as { transactions: { transId: string }[] }
    ).transactions.map((t) => t.transId);
    expect(after).toContain(listed[1].transId);
    expect(after).not.toContain(listed[0].transId);
    expect(after).not.toContain(listed[2].transId);
  });

  it('updateHeldTransaction approves or declines a held charge, and refuses any other', async () => {
    const first = (await charge({ zip: '46205' })).outcome as { status: string; transId: string };
    expect(first.status).toBe('held');
    expect(await gateway.updateHeldTransaction({ transId: first.transId, action: 'approve' })).toMatchObject({
      status: 'approved',
      transId: first.transId,
    });
    expect(await gateway.getTransactionDetails(first.transId)).toMatchObject({
      transaction: { transactionStatus: 'capturedPendingSettlement' },
    });

    const second = (await charge({ zip: '46205', amountCents: 4_300 })).outcome as { transId: string };
    expect(await gateway.updateHeldTransaction({ transId: second.transId, action: 'decline' })).toMatchObject({
      status: 'declined',
      transId: second.transId,
    });
    expect(await gateway.getTransactionDetails(second.transId)).toMatchObject({
      transaction: { transactionStatus: 'declined' },
    });

    expect(await gateway.updateHeldTransaction({ transId: first.transId, action: 'approve' })).toMatchObject({
      status: 'error',
      code: '16',
    });
  });

  it('voidTransaction cancels an unsettled charge once; a settled one cannot be voided', async () => {
    const approved = (await charge({ amountCents: 5_100 })).outcome as { transId: string };
    expect(await gateway.voidTransaction({ transId: approved.transId })).toMatchObject({
      status: 'approved',
      transId: approved.transId,
    });
    expect(await gateway.getTransactionDetails(approved.transId)).toMatchObject({
      transaction: { transactionStatus: 'voided' },
    });
    expect(await gateway.voidTransaction({ transId: approved.transId })).toMatchObject({
      status: 'error',
      code: '310',
      text: 'This transaction has already been voided.',
    });

    const settled = (await charge({ amountCents: 5_200 })).outcome as { transId: string };
    settleNow();
    expect(await gateway.voidTransaction({ transId: settled.transId })).toMatchObject({ status: 'error', code: '16' });
  });

  it('refundTransaction gives back part or all of a settled charge, never more, and only to its card', async () => {
    const { outcome, invoiceNumber } = await charge({ amountCents: 10_000, card: '5424000000000015' });
    const transId = (outcome as { transId: string }).transId;
    const card = { kind: 'card' as const, last4: 'XXXX0015' };
    expect(
      await gateway.refundTransaction({ transId, amountCents: 2_500, payment: card, invoiceNumber }),
    ).toMatchObject({ status: 'error', code: '54' });
    settleNow();
    const part = await gateway.refundTransaction({ transId, amountCents: 2_500, payment: card, invoiceNumber });
    expect(part).toMatchObject({ status: 'approved' });
    const refundId = (part as { transId: string }).transId;
    expect(refundId).not.toBe(transId);
    expect(await gateway.getTransactionDetails(refundId)).toMatchObject({
      transaction: {
        transactionType: 'refundTransaction',
        transactionStatus: 'refundPendingSettlement',
        amountCents: 2_500,
      },
    });
    expect(await gateway.refundTransaction({ transId, amountCents: 7_501, payment: card })).toMatchObject({
      status: 'error',
      code: '55',
    });
    expect(
      await gateway.refundTransaction({ transId, amountCents: 100, payment: { kind: 'card', last4: '1111' } }),
    ).toMatchObject({ status: 'error', code: '54' });
    expect(await gateway.refundTransaction({ transId, amountCents: 7_500, payment: card })).toMatchObject({
      status: 'approved',
    });
  });

  it('sends the new requests in element order (the simulator answers E00003 otherwise)', async () => {
    const before = wireBodies.length;
    await gateway.getUnsettledTransactions({ limit: 5 });
    await gateway.getTransactionDetails('1');
    await gateway.updateHeldTransaction({ transId: '1', action: 'approve', refId: 'gs-pay-1' });
    const sent = wireBodies.slice(before).map((b) => JSON.parse(b));
    expect(Object.keys(sent[0].getUnsettledTransactionListRequest)).toEqual([
      'merchantAuthentication',
      'sorting',
      'paging',
    ]);
    expect(Object.keys(sent[1].getTransactionDetailsRequest)).toEqual(['merchantAuthentication', 'transId']);
    expect(sent[2].updateHeldTransactionRequest).toEqual({
      merchantAuthentication: { name: CREDS.apiLoginId, transactionKey: CREDS.transactionKey },
      refId: 'gs-pay-1',
      heldTransactionRequest: { action: 'approve', refTransId: '1' },
    });
  });
});
