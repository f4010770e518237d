import { and, desc, eq, gt } from 'drizzle-orm';
import { invoices } from '../../db/schema.ts';
import { findOrderDetails } from './order-details.ts';
import type { OrderDetail } from '../../../shared/schemas/invoices.ts';
import type { Db } from '../../db/client.ts';

/** One row of GET /api/invoices/unpaid. Amounts in integer cents. */
export interface UnpaidInvoiceRow {
  id: number;
  number: string;
  document_at: Date;
  value_cents: number;
  balance_cents: number;
  public_notes: string;
  /** A payment of it is in flight, held for review or pending: it cannot be paid now (docs/payments.md). */
  is_processing: boolean;
  order_details: OrderDetail[];
}

/**
 * Unpaid invoices (balance above 0) of an account with their order details (docs/requirements/product.md tool 14, docs/requirements/entities.md
 * "Invoice"), newest first, each saying whether a payment of it is being processed. Amounts in
 * integer cents. The route passes the signed-in user's own
 * account, so a holder only ever sees theirs (docs/requirements/platform.md §5.6).
 * @returns [] when `accountId` is null (a user without an account, such as an admin)
 */
export async function listUnpaidInvoices(db: Db, accountId: number | null): Promise<UnpaidInvoiceRow[]> {
  if (!accountId) return [];
  const unpaid = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      document_at: invoices.documentAt,
      value_cents: invoices.valueCents,
      balance_cents: invoices.balanceCents,
      public_notes: invoices.publicNotes,
      heldBy: invoices.heldByPaymentId,
    })
    .from(invoices)
    .where(and(eq(invoices.accountId, accountId), gt(invoices.balanceCents, 0)))
    .orderBy(desc(invoices.documentAt), desc(invoices.id));
  if (!unpaid.length) return [];
  const lines = await findOrderDetails(
    db,
    unpaid.map((r) => r.id),
  );
  return unpaid.map(({ heldBy, ...r }) => ({
    ...r,
    is_processing: heldBy !== null,
    order_details: lines.get(r.id) ?? [],
  }));
}
