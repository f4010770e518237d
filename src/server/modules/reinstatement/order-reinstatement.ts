import { and, eq } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { REINSTATEMENT_MESSAGES, type ReinstatementOrder } from '../../../shared/schemas/reinstatement.ts';
import { accounts, invoices, reinstatementOrders, workItems } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { createInvoice } from '../invoices/create-invoice.ts';
import { accountRevocation, reinstatementLevel } from './reinstatement-account.ts';
import type { Actor } from '../../actor.ts';
import type { Db, DbOrTx } from '../../db/client.ts';

/** The type of the order detail that bills the reinstatement application. */
const REINSTATEMENT_LINE_TYPE = 'reinstatement';

/**
 * The account's order for the revocation dated `revokedOn` ('YYYY-MM-DD'), with its invoice's
 * balance, or null when none was placed. Reads reinstatement_orders and invoices.
 */
export async function findReinstatementOrder(
  db: DbOrTx,
  accountId: number,
  revokedOn: string,
): Promise<ReinstatementOrder | null> {
  const [row] = await db
    .select({
      invoice_id: invoices.id,
      number: invoices.number,
      value_cents: invoices.valueCents,
      balance_cents: invoices.balanceCents,
      orderedAt: reinstatementOrders.createdAt,
    })
    .from(reinstatementOrders)
    .innerJoin(invoices, eq(invoices.id, reinstatementOrders.invoiceId))
    .where(and(eq(reinstatementOrders.accountId, accountId), eq(reinstatementOrders.revokedOn, revokedOn)));
  if (!row) return null;
  const { orderedAt, ...rest } = row;
  return { ...rest, ordered_at: orderedAt };
}

/**
 * "Let us prepare it" (docs/irs-standing.md "Reinstatement"): a revoked account orders the
 * reinstatement application, as the "Reinstatement application" level prices it. Places one unpaid
 * invoice with one order detail (type 'reinstatement', the level's price in cents, read here, never
 * sent by the client) and the order row tying it to the account's current revocation; the account
 * row is locked and the order keyed by (account, revocation date), so a double click or two servers
 * place one order, and a second call answers the first order. The invoice is paid like any other on
 * /app/payments. Writes invoices, invoice_lines, reinstatement_orders and an audit_log row
 * 'reinstatement.ordered' (invoice, value, revocation date, on behalf) in one transaction; nothing
 * when the order already exists.
 * @param today 'YYYY-MM-DD'
 * @returns the order, whether this call placed it, and the message to show
 * @throws HttpError 404 when the account does not exist; 409 when it is not revoked on `today` or no
 *   reinstatement application is offered
 */
export async function orderReinstatement(
  db: Db,
  accountId: number,
  actor: Pick<Actor, 'userId' | 'ip' | 'onBehalf'>,
  today: string,
): Promise<{ order: ReinstatementOrder; created: boolean; message: string }> {
  const revocation = await accountRevocation(db, accountId, today);
  if (!revocation) throw new HttpError(409, REINSTATEMENT_MESSAGES.notRevoked);
  const level = await reinstatementLevel(db);
  if (!level) throw new HttpError(409, REINSTATEMENT_MESSAGES.notOffered);
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({ name: accounts.name })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('update');
    if (!account) throw notFound('The account');
    const placed = await findReinstatementOrder(tx, accountId, revocation.revokedOn);
    if (placed) return { order: placed, created: false, message: REINSTATEMENT_MESSAGES.alreadyOrdered(placed.number) };
    const invoice = await createInvoice(tx, {
      accountId,
      publicNotes: `${level.name} for ${account.name}: we prepare the application for reinstatement of the exemption revoked on ${revocation.revokedOn}.`,
      lines: [{ type: REINSTATEMENT_LINE_TYPE, label: level.name, valueCents: level.price_cents }],
    });
    await tx.insert(reinstatementOrders).values({
      accountId,
      revokedOn: revocation.revokedOn,
      invoiceId: invoice.id,
      orderedBy: actor.userId,
    });
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId,
      action: 'reinstatement.ordered',
      details: {
        invoiceId: invoice.id,
        valueCents: invoice.valueCents,
        revokedOn: revocation.revokedOn,
        onBehalf: actor.onBehalf,
      },
      ip: actor.ip,
    });
    const order = must(await findReinstatementOrder(tx, accountId, revocation.revokedOn), 'the order just placed');
    return { order, created: true, message: REINSTATEMENT_MESSAGES.ordered(order.number, level.name) };
  });
}

/**
 * When the invoice `invoiceId` of a reinstatement order is paid in full (balance 0), puts the
 * order in front of staff once (docs/irs-standing.md "Reinstatement", docs/work-queue.md): a
 * `reinstatement_order` work item per account and revocation, naming the invoice and the 15-month
 * deadline. Call inside the transaction that settled the invoice (the payment steps do). A no-op
 * for other invoices, unpaid ones, and orders already put in the queue.
 * Writes work_items (insert, ON CONFLICT (key) DO NOTHING).
 * @returns true when this call added the item
 */
export async function queuePaidReinstatement(tx: DbOrTx, invoiceId: number): Promise<boolean> {
  const [row] = await tx
    .select({
      accountId: reinstatementOrders.accountId,
      revokedOn: reinstatementOrders.revokedOn,
      number: invoices.number,
      balanceCents: invoices.balanceCents,
      ein: accounts.ein,
    })
    .from(reinstatementOrders)
    .innerJoin(invoices, eq(invoices.id, reinstatementOrders.invoiceId))
    .innerJoin(accounts, eq(accounts.id, reinstatementOrders.accountId))
    .where(eq(reinstatementOrders.invoiceId, invoiceId));
  if (!row || row.balanceCents > 0) return false;
  const revocation = await accountRevocation(tx, row.accountId, calendarDate(new Date()));
  const deadline = revocation?.paths.find((p) => p.deadline)?.deadline ?? null;
  const added = await tx
    .insert(workItems)
    .values({
      key: `reinstatement_order:${row.accountId}:${row.revokedOn}`,
      kind: 'reinstatement_order',
      accountId: row.accountId,
      ein: row.ein,
      details: { invoice_id: invoiceId, invoice_number: row.number, revoked_on: row.revokedOn, deadline },
    })
    .onConflictDoNothing({ target: workItems.key })
    .returning({ id: workItems.id });
  return added.length > 0;
}
