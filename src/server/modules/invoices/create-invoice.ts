import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { invoiceLines, invoices } from '../../db/schema.ts';
import type { PricedInvoiceLine } from '../../../shared/rules/renewal.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The invoice number people read, from the row's own id: 'GS-000123'. */
export const invoiceNumber = (id: number) => `GS-${String(id).padStart(6, '0')}`;

/**
 * Inserts an unpaid invoice with its order details (docs/requirements/entities.md "Invoice"): value
 * and balance are the sum of `lines` (integer cents, computed here, never taken from a client), its
 * number GS-{id} (invoiceNumber: unique without a second sequence). Runs in the caller's
 * transaction, which also writes whatever the invoice is for.
 * Writes one invoices row and one invoice_lines row per line.
 * @param input.lines the order details in billing order, each `valueCents` in integer cents
 * @returns the invoice's id, number and value in cents
 */
export async function createInvoice(
  tx: DbOrTx,
  input: { accountId: number; publicNotes: string; lines: readonly PricedInvoiceLine[]; documentAt?: Date },
): Promise<{ id: number; number: string; valueCents: number }> {
  const valueCents = input.lines.reduce((sum, l) => sum + l.valueCents, 0);
  const [invoice] = await tx
    .insert(invoices)
    .values({
      accountId: input.accountId,
      // Replaced below by the number made from the id; unique meanwhile.
      number: `pending-${randomUUID()}`,
      valueCents,
      balanceCents: valueCents,
      publicNotes: input.publicNotes,
      ...(input.documentAt ? { documentAt: input.documentAt } : {}),
    })
    .returning({ id: invoices.id });
  const number = invoiceNumber(invoice.id);
  await tx.update(invoices).set({ number }).where(eq(invoices.id, invoice.id));
  if (input.lines.length)
    await tx.insert(invoiceLines).values(input.lines.map((l) => ({ invoiceId: invoice.id, ...l })));
  return { id: invoice.id, number, valueCents };
}
