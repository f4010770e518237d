import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { BuildOptions } from '../../src/server/app.ts';
import { authorizeNetGateway } from '../../src/server/providers/payments/authorize-net.ts';
import { gatewaySimulator, GatewaySimulatorState, simulatorUrls } from '../../src/server/providers/payments/gateway-simulator.ts';
import { createTestApp, type TestApp, type TestConfig } from './test-app.ts';

/** Credentials the simulator checks and the client sends (test values, not secrets). */
export const GATEWAY_TEST_CREDS = { apiLoginId: 'payTestLogin', transactionKey: 'payTestTransactionKey01', clientKey: 'payTestClientKey-public' };
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
 * charges through the real client pointed at it (DESIGN §2 rule 4: a local peer, not a stub).
 * @param timeoutMs the client's whole-call limit (short, so "no answer" tests end quickly)
 * @param opts passed on to createTestApp
 */
export async function createGatewayTestApp(timeoutMs = 1500, opts: { config?: TestConfig; onRoute?: BuildOptions['onRoute'] } = {}): Promise<GatewayTestApp> {
  const sim = new GatewaySimulatorState();
  const server = Fastify({ logger: false });
  await server.register(gatewaySimulator, { prefix: PREFIX, ...GATEWAY_TEST_CREDS, state: sim });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const urls = simulatorUrls(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}`, PREFIX);
  const gateway = authorizeNetGateway({ endpoint: urls.endpoint, apiLoginId: GATEWAY_TEST_CREDS.apiLoginId, transactionKey: GATEWAY_TEST_CREDS.transactionKey, timeoutMs });
  const t = await createTestApp({ ...opts, providers: { payments: gateway } });
  return {
    t, sim, urls,
    async close() {
      await t.close();
      await server.close();
    },
  };
}
