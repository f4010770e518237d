import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applications, invoiceLines, invoices, levels } from '../../db/schema.ts';

/** The signed-in user's applications that can still be resumed, newest first (account area). */
export async function listMyDrafts(db: Db, userId: number) {
  return db
    .select({ token: applications.token, level: levels.name, status: applications.status, updated_at: applications.updatedAt })
    .from(applications)
    .innerJoin(levels, eq(levels.id, applications.levelId))
    .where(and(eq(applications.userId, userId), eq(applications.status, 'draft')))
    .orderBy(desc(applications.updatedAt));
}

/**
 * Unpaid invoices of an account with their order details (SPEC §3 "Invoice"), newest first.
 * Amounts in integer cents. An account holder sees only their own account's.
 */
export async function listUnpaidInvoices(db: Db, accountId: number | null) {
  if (!accountId) return [];
  const unpaid = await db
    .select({ id: invoices.id, number: invoices.number, document_at: invoices.documentAt, value_cents: invoices.valueCents, balance_cents: invoices.balanceCents, public_notes: invoices.publicNotes })
    .from(invoices)
    .where(and(eq(invoices.accountId, accountId), gt(invoices.balanceCents, 0)))
    .orderBy(desc(invoices.documentAt), desc(invoices.id));
  if (!unpaid.length) return [];
  const lines = await db
    .select({ invoice_id: invoiceLines.invoiceId, label: invoiceLines.label, type: invoiceLines.type, value_cents: invoiceLines.valueCents })
    .from(invoiceLines)
    .where(inArray(invoiceLines.invoiceId, unpaid.map((r) => r.id)));
  return unpaid.map((r) => ({ ...r, order_details: lines.filter((l) => l.invoice_id === r.id).map(({ invoice_id: _i, ...l }) => l) }));
}
