import { getSetting, putSetting } from '../../db/app-settings.ts';
import { getCompany } from '../content/get-company.ts';
import { reconcilePayments, type ReconcileSummary } from './reconcile-payments.ts';
import type { FastifyInstance } from 'fastify';

/** app_settings key of when the reconciliation last finished, ISO 8601 (shared by every server). */
const LAST_RUN_KEY = 'payments.last_reconciled_at';

/**
 * How old a pending payment or refund must be before the reconciliation asks about it: the
 * gateway call's whole timeout plus a minute, so a call still in flight is never second-guessed.
 */
export const reconcilePendingAfterMs = (app: FastifyInstance) => app.config.payments.timeoutMs + 60_000;

/**
 * One reconciliation run with this app's gateway and database (docs/payments.md
 * "Reconciliation"), remembered as the last run. Used by the job `payment-reconciliation` (docs/jobs.md) and by
 * staff's "Check with the gateway now". Writes what reconcilePayments writes, and app_settings.
 */
export async function runReconciliation(app: FastifyInstance): Promise<ReconcileSummary> {
  const company = await getCompany(app.db);
  const summary = await reconcilePayments(
    { db: app.db, gateway: app.providers.payments, log: app.log, companyName: company.name },
    { pendingAfterMs: reconcilePendingAfterMs(app) },
  );
  await putSetting(app.db, LAST_RUN_KEY, new Date().toISOString());
  return summary;
}

/** When the reconciliation last finished on any server, or null. */
export async function lastReconciledAt(app: FastifyInstance): Promise<Date | null> {
  const value = await getSetting(app.db, LAST_RUN_KEY);
  return value ? new Date(value) : null;
}
