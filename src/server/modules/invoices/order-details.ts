import { asc, inArray } from 'drizzle-orm';
import { invoiceLines } from '../../db/schema.ts';
import type { OrderDetail } from '../../../shared/schemas/invoices.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Order details (docs/requirements/entities.md "Invoice" order_details: label, type, value in integer cents) of the given
 * invoices, each invoice's lines in the order they were billed.
 * @returns a map from invoice id to its lines; an invoice without lines has no entry
 */
export async function findOrderDetails(db: DbOrTx, invoiceIds: readonly number[]): Promise<Map<number, OrderDetail[]>> {
  const byInvoice = new Map<number, OrderDetail[]>();
  if (!invoiceIds.length) return byInvoice;
  const lines = await db
    .select({
      invoiceId: invoiceLines.invoiceId,
      label: invoiceLines.label,
      type: invoiceLines.type,
      value_cents: invoiceLines.valueCents,
    })
    .from(invoiceLines)
    .where(inArray(invoiceLines.invoiceId, [...invoiceIds]))
    .orderBy(asc(invoiceLines.id));
  for (const { invoiceId, ...line } of lines) {
    const list = byInvoice.get(invoiceId);
    if (list) list.push(line);
    else byInvoice.set(invoiceId, [line]);
  }
  return byInvoice;
}
