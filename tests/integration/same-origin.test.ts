import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_PREFIX } from '../../src/server/config.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { authorizeNetGateway } from '../../src/server/providers/payments/authorize-net.ts';
import { freePort } from '../helpers/local-peers.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * The addresses the browser uses follow the origin of its request, never PUBLIC_URL
 * (docs/security.md "Same origin"): the billing screen's Accept.js is a path, the Accept.js
 * stand-in posts to the tokenizer on the origin it was loaded from, and PayPal's consent page and
 * return address are on the origin the payer started from. X-Forwarded-Proto / -Host count only
 * from a proxy TRUST_PROXY names.
 *
 * The app serves its own gateway simulator, as `npm start` does, and listens on a real 127.0.0.1
 * port so that the app's Authorize.Net client reaches it; requests come through app.inject() with
 * the Host header a browser would send.
 */

const HOLDER = { email: 'same.origin@example.com', password: 'Same-origin-pass-1' };
const CREDS = {
  apiLoginId: 'sameOriginLogin',
  transactionKey: 'sameOriginTransactionKey',
  clientKey: 'sameOriginClientKey',
};

let t: TestApp;
let port: number;
let accountId: number;
let holder: Agent;

beforeAll(async () => {
  port = await freePort();
  const endpoint = `http://127.0.0.1:${port}${SIMULATOR_PREFIX}/xml/v1/request.api`;
  t = await createTestApp({
    config: {
      port,
      // Mail links only: nothing the browser loads may come from here.
      publicUrl: 'https://mail-links.example',
      trustProxy: 'loopback',
      payments: {
        gateway: 'simulator',
        endpoint,
        acceptJsUrl: `${SIMULATOR_PREFIX}/Accept.js`,
        ...CREDS,
        timeoutMs: 5000,
        reconcileIntervalMinutes: 0,
      },
    },
    providers: {
      payments: authorizeNetGateway({
        endpoint,
        apiLoginId: CREDS.apiLoginId,
        transactionKey: CREDS.transactionKey,
        timeoutMs: 5000,
      }),
    },
  });
  await t.app.listen({ host: '127.0.0.1', port });
  accountId = (await createAccount(t.database.db, { name: 'Same Origin Boosters' })).id;
  await createUser(t.database.db, { ...HOLDER, accountId });
  holder = await signedIn(t.app, HOLDER);
});
afterAll(async () => {
  await t?.close();
});

/** The Accept.js stand-in as the browser loads it at `host`, with extra headers; the tokenizer address inside. */
async function tokenizerIn(headers: Record<string, string>, from = '127.0.0.1'): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `${SIMULATOR_PREFIX}/Accept.js`, headers, remoteAddress: from });
  expect(res.statusCode).toBe(200);
  return /var TOKENIZE_URL = "([^"]+)";/.exec(res.body)![1];
}

/** Starts PayPal for a new $12.00 invoice, the browser's request carrying `headers`. @returns the consent page address */
async function startPaypal(headers: Record<string, string>, agent = holder): Promise<URL> {
  const invoiceId = await createInvoice(t.database.db, { accountId, cents: 1200, prefix: 'SO' });
  const res = await agent.request(
    'GET',
    `/app/payments/paypal/init?invoices=${invoiceId}&value=12.00&type=paypal&discount_id=`,
    undefined,
    headers,
  );
  expect(res.statusCode, res.body).toBe(200);
  return new URL(res.json().transactionResponse.secureAcceptance.secureAcceptanceUrl);
}

/** The payer approves on the consent page (a real HTTP request to the listening app). @returns where they are sent back */
async function approve(consent: URL): Promise<URL> {
  const token = consent.searchParams.get('token')!;
  const res = await fetch(`http://127.0.0.1:${port}${SIMULATOR_PREFIX}/paypal/consent/approve`, {
    method: 'POST',
    body: new URLSearchParams({ token }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

describe('the billing screen data', () => {
  it('gives Accept.js as a path on the site, whatever PUBLIC_URL says', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const screen = await holder.request('GET', '/api/payments/screen', undefined, { host });
      expect(screen.statusCode).toBe(200);
      expect(screen.json().gateway).toEqual({
        accept_js_url: '/gateway-simulator/Accept.js',
        api_login_id: CREDS.apiLoginId,
        client_key: CREDS.clientKey,
      });
      expect(screen.body).not.toContain('mail-links.example');
    }
  });

  it('allows no other origin in the CSP than the site itself for the simulator', async () => {
    const csp = String(
      (await holder.request('GET', '/app/payments', undefined, { host: `localhost:${port}` })).headers[
        'content-security-policy'
      ],
    );
    expect(csp).toMatch(/connect-src 'self';/);
    expect(csp).not.toContain('mail-links.example');
  });
});

describe('the Accept.js stand-in', () => {
  it('posts to the tokenizer on the origin it was loaded from', async () => {
    expect(await tokenizerIn({ host: `127.0.0.1:${port}` })).toBe(
      `http://127.0.0.1:${port}/gateway-simulator/tokenize`,
    );
    expect(await tokenizerIn({ host: `localhost:${port}` })).toBe(
      `http://localhost:${port}/gateway-simulator/tokenize`,
    );
  });

  it('follows X-Forwarded-Proto and -Host from a trusted proxy only', async () => {
    const forwarded = { host: `127.0.0.1:${port}`, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'gs.example' };
    expect(await tokenizerIn(forwarded)).toBe('https://gs.example/gateway-simulator/tokenize');
    // From an address TRUST_PROXY does not name, the headers are the client's own: ignored.
    expect(await tokenizerIn(forwarded, '203.0.113.9')).toBe(`http://127.0.0.1:${port}/gateway-simulator/tokenize`);
  });

  it('tokenizes there: the tokenizer the script names answers opaque data', async () => {
    const url = await tokenizerIn({ host: `127.0.0.1:${port}` });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        securePaymentContainerRequest: {
          merchantAuthentication: { name: CREDS.apiLoginId, clientKey: CREDS.clientKey },
          data: {
            type: 'TOKEN',
            id: 'same-origin-1',
            token: { cardNumber: '4111111111111111', expirationDate: `12${new Date().getFullYear() + 1}` },
          },
        },
      }),
    });
    const answer = JSON.parse((await res.text()).replace(/^\uFEFF/, ''));
    expect(answer.messages.resultCode).toBe('Ok');
    expect(answer.opaqueData.dataValue.length).toBeGreaterThan(40);
  });
});

describe('PayPal init', () => {
  it('sends the payer to the consent page and back on the origin they started from', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const consent = await startPaypal({ host });
      expect(consent.origin).toBe(`http://${host}`);
      expect(consent.pathname).toBe('/gateway-simulator/paypal/consent');
      const back = await approve(consent);
      expect(back.origin).toBe(`http://${host}`);
      expect(back.pathname).toBe('/app/payments');
      expect(back.searchParams.get('paypal')).toBe('return');
    }
  });

  it('uses the address a trusted proxy forwards, and not one a client makes up', async () => {
    const forwarded = { host: `127.0.0.1:${port}`, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'gs.example' };
    const viaProxy = await startPaypal(forwarded);
    expect(viaProxy.origin).toBe('https://gs.example');
    expect((await approve(viaProxy)).origin).toBe('https://gs.example');

    const direct = new Agent(t.app, '203.0.113.9');
    await direct.start();
    expect((await direct.login(HOLDER.email, HOLDER.password)).statusCode).toBe(200);
    const madeUp = await startPaypal(forwarded, direct);
    expect(madeUp.origin).toBe(`http://127.0.0.1:${port}`);
    expect((await approve(madeUp)).origin).toBe(`http://127.0.0.1:${port}`);
  });

  it("keeps an admin's return on the account they pay for", async () => {
    const admin = { email: 'same.origin.admin@example.com', password: 'Same-origin-admin-1' };
    await createUser(t.database.db, { ...admin, isAdmin: true });
    const staff = await signedIn(t.app, admin);
    const invoiceId = await createInvoice(t.database.db, { accountId, cents: 1500, prefix: 'SA' });
    const res = await staff.request(
      'GET',
      `/app/payments/paypal/init?account_id=${accountId}&invoices=${invoiceId}&value=15.00&type=paypal&discount_id=`,
      undefined,
      { host: `localhost:${port}` },
    );
    expect(res.statusCode, res.body).toBe(200);
    const back = await approve(new URL(res.json().transactionResponse.secureAcceptance.secureAcceptanceUrl));
    expect(`${back.origin}${back.pathname}`).toBe(`http://localhost:${port}/app/payments`);
    expect(back.searchParams.get('account_id')).toBe(String(accountId));
  });

  it('falls back to PUBLIC_URL only when the request names no usable host', async () => {
    const consent = await startPaypal({ host: 'bad host name' });
    expect(consent.origin).toBe('https://mail-links.example');
  });
});
