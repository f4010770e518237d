import { auditLog } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

export interface AuditEntry {
  actorUserId: number | null;
  accountId?: number | null;
  /** Dotted verb, e.g. 'inquiry.handled', 'banner.updated', 'auth.login'. */
  action: string;
  details?: Record<string, unknown>;
  ip?: string;
}

/** Appends one row to audit_log (docs/requirements/platform.md §5.6). Never include passwords, tokens or card data in details. */
export async function recordAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    accountId: entry.accountId ?? null,
    action: entry.action,
    details: entry.details ?? {},
    ip: entry.ip ?? '',
  });
}
