import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { invoices, payments } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import {
  cardPayload,
  createGatewayTestApp,
  testCard,
  tokenizeAtSimulator,
  type GatewayTestApp,
} from '../helpers/gateway.ts';
import { signedIn } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * Shutting down (src/server/main.ts: `app.close()`, then `database.close()`) while a card payment
 * is still at the gateway: the server waits for the request to be handled, so the charge is
 * recorded as paid and the invoice settled before the database closes (docs/requirements/platform.md §5.6), even though
 * the request has no connection left to hold the server open.
 */

const HOLDER = { email: 'shutdown.payer@example.com', password: 'Shutdown-pass-123' };

let gw: GatewayTestApp | undefined;
let closed = false;
afterAll(async () => {
  if (gw && !closed) await gw.close();
});

describe('shutdown', () => {
  it('waits for a card payment still at the gateway, and records it paid before the database closes', async () => {
    gw = await createGatewayTestApp(10_000, { gatewayDelayMs: 1_000 });
    const { t, sim, urls } = gw;
    const db = t.database.db;
    const accountId = (await createAccount(db, { name: 'Closing Time Boosters' })).id;
    await createUser(db, { ...HOLDER, accountId });
    const invoiceId = await createInvoice(db, { accountId, cents: 12_500, type: 'renewal', prefix: 'SD' });
    const holder = await signedIn(t.app, HOLDER);
    const body = cardPayload(await tokenizeAtSimulator(urls, testCard()), [invoiceId], '125.00');
    const key = body.idempotency_key;

    const paying = holder.call(paymentContracts.credit, { body: body });
    // The payment is written as pending before the gateway is called; the gateway answers in 1 s.
    expect(
      await waitFor(
        async () => (await db.select().from(payments).where(eq(payments.idempotencyKey, key))).length === 1,
        10_000,
      ),
    ).toBe(true);
    expect(t.app.handlersInFlight()).toBe(1);

    // Shut down as the server does on SIGTERM, while the charge is at the gateway.
    let paidBeforeClose: { status: string; balance: number } | null = null;
    const shutdown = t.app.close().then(async () => {
      const [payment] = await db
        .select({ status: payments.status })
        .from(payments)
        .where(eq(payments.idempotencyKey, key));
      const [invoice] = await db
        .select({ balance: invoices.balanceCents })
        .from(invoices)
        .where(eq(invoices.id, invoiceId));
      paidBeforeClose = { status: payment.status, balance: invoice.balance };
      // The rest of the shutdown: the database (a second app.close() is a no-op), the simulator.
      await gw!.close();
      closed = true;
    });

    const res = await paying;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'This transaction has been approved.' });
    await shutdown;
    expect(paidBeforeClose).toEqual({ status: 'paid', balance: 0 });
    expect(sim.listTransactions().filter((tx) => tx.status === 'approved')).toHaveLength(1);
    expect(t.app.handlersInFlight()).toBe(0);
  });
});
