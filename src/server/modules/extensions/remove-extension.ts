import { and, eq } from 'drizzle-orm';
import { filingExtensions } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { Db } from '../../db/client.ts';

/**
 * Staff remove a Form 8868 extension recorded for an account, e.g. one a group recorded by mistake
 * (docs/irs-standing.md "Extensions", docs/roles.md "Form 8868 extensions"): the standing then
 * counts the return's original due date again. Deletes the filing_extensions row and writes an
 * audit_log row 'filing_extension.removed' with what it held, in one transaction.
 * @returns the period end 'YYYY-MM' of the removed extension
 * @throws HttpError 404 when the account has no such extension (another account's included)
 */
export async function removeExtension(
  db: Db,
  accountId: number,
  extensionId: number,
  actor: { userId: number; ip: string },
): Promise<{ periodEnd: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(filingExtensions)
      .where(and(eq(filingExtensions.id, extensionId), eq(filingExtensions.accountId, accountId)))
      .returning();
    if (!row) throw notFound('The extension');
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId,
      action: 'filing_extension.removed',
      details: {
        extensionId: row.id,
        periodEnd: row.periodEnd,
        returnForm: row.returnForm,
        filedOn: row.filedOn,
        extendedDue: row.extendedDue,
        recordedAs: row.recordedAs,
      },
      ip: actor.ip,
    });
    return { periodEnd: row.periodEnd };
  });
}
