import { count, gt, inArray, sql } from 'drizzle-orm';
import { invoices, payments } from '../../db/schema.ts';
import { countOpenPaymentAlerts } from './list-payment-alerts.ts';
import type { AdminMoneyTotals } from '../../../shared/schemas/admin-payments.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The whole-site figures above the admin's payments and open invoices (docs/requirements/product.md "Staff console"), never narrowed by
 * a filter: the sum and number of open balances (invoices with a balance above 0), and the number
 * of payments held for review at the gateway and of payments never confirmed (pending), which need
 * staff attention, and the number of payment alerts not reviewed yet (possible card testing,
 * docs/payments.md "Card testing"), which the page announces above its tabs. The payment counts are
 * read through `payments_status_created`, the alerts through `payment_alerts_open`.
 * Reads invoices, payments and payment_alerts; writes nothing.
 */
export async function getMoneyTotals(db: DbOrTx): Promise<AdminMoneyTotals> {
  const [open] = await db
    .select({ cents: sql<string | number | null>`sum(${invoices.balanceCents})`, n: count() })
    .from(invoices)
    .where(gt(invoices.balanceCents, 0));
  const byStatus = await db
    .select({ status: payments.status, n: count() })
    .from(payments)
    .where(inArray(payments.status, ['held', 'pending']))
    .groupBy(payments.status);
  const of = (status: string) => byStatus.find((r) => r.status === status)?.n ?? 0;
  const alerts = Object.values(await countOpenPaymentAlerts(db)).reduce((sum, n) => sum + n, 0);
  return {
    open_balance_cents: Number(open?.cents ?? 0),
    open_invoices: open?.n ?? 0,
    held_payments: of('held'),
    pending_payments: of('pending'),
    open_payment_alerts: alerts,
  };
}
