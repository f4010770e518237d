import { count, desc, eq, isNull } from 'drizzle-orm';
import { PAYMENT_ALERT_KINDS, type PaymentAlert } from '../../../shared/schemas/admin-payments.ts';
import { accounts, paymentAlerts } from '../../db/schema.ts';
import { LIMIT_RULES, type LimitName } from '../limits/limit-rules.ts';
import type { DbOrTx } from '../../db/client.ts';

/** At most this many open alerts are listed (newest first). */
const ALERTS_LIMIT = 100;

/** A kind of payment alert (payment_alerts.kind). */
type PaymentAlertKind = (typeof PAYMENT_ALERT_KINDS)[number];

/** What each payment limit counts, in words: one, and more than one. */
const COUNTED: Partial<Record<LimitName, readonly [string, string]>> = {
  payment_attempts_per_account: ['payment attempt', 'payment attempts'],
  payment_attempts_per_ip: ['payment attempt', 'payment attempts'],
  payment_declines_per_account: ['declined payment', 'declined payments'],
  payment_declines_per_ip: ['declined payment', 'declined payments'],
};

/** A limit's window in words: "in an hour", "in a day", "in 15 minutes". */
function windowWords(seconds: number): string {
  if (seconds === 3600) return 'in an hour';
  if (seconds === 86_400) return 'in a day';
  if (seconds % 86_400 === 0) return `in ${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return `in ${seconds / 3600} hours`;
  return `in ${Math.round(seconds / 60)} minutes`;
}

const isLimitName = (rule: string): rule is LimitName => Object.hasOwn(LIMIT_RULES, rule);

/**
 * What an alert's limit saw, in words (docs/payments.md "Card testing"): "11 payment attempts in an
 * hour from this account (limit 10)", "5 declined payments in a day from 203.0.113.9 (limit 5)".
 * A rule this code no longer knows is named as it is stored.
 */
function alertSummary(a: { rule: string; ip: string; count: number; maxCount: number }): string {
  const limit = `(limit ${a.maxCount})`;
  const counted = isLimitName(a.rule) ? COUNTED[a.rule] : undefined;
  if (!isLimitName(a.rule) || !counted) return `${a.count} counted by the limit ${a.rule} ${limit}`;
  const rule = LIMIT_RULES[a.rule];
  const from = rule.per === 'account' ? 'from this account' : a.ip ? `from ${a.ip}` : 'from one client address';
  return `${a.count} ${counted[a.count === 1 ? 0 : 1]} ${windowWords(rule.windowSeconds)} ${from} ${limit}`;
}

/**
 * The payment alerts no staff user has reviewed yet (docs/payments.md "Card testing"), newest
 * first (then by id), at most 100: each with its account (id and name; null when it came from no
 * account, or the account is gone), the client address, what was counted and the limit, the same
 * in words (`summary`), and when it was raised (ISO 8601). Read through `payment_alerts_open`.
 * Reads payment_alerts, accounts; writes nothing.
 */
export async function listOpenPaymentAlerts(db: DbOrTx): Promise<PaymentAlert[]> {
  const rows = await db
    .select({ alert: paymentAlerts, account: { id: accounts.id, name: accounts.name } })
    .from(paymentAlerts)
    .leftJoin(accounts, eq(accounts.id, paymentAlerts.accountId))
    .where(isNull(paymentAlerts.reviewedAt))
    .orderBy(desc(paymentAlerts.createdAt), desc(paymentAlerts.id))
    .limit(ALERTS_LIMIT);
  return rows.map(({ alert, account }) => ({
    id: alert.id,
    kind: alert.kind as PaymentAlertKind,
    rule: alert.rule,
    account,
    ip: alert.ip,
    count: alert.count,
    max_count: alert.maxCount,
    summary: alertSummary(alert),
    created_at: alert.createdAt.toISOString(),
  }));
}

/**
 * How many payment alerts of each kind are open (not reviewed): 0 for a kind with none. For the
 * money totals on Admin → Payments and the `goodstanding_payment_alerts_open` gauge of /metrics.
 * Reads payment_alerts (the `payment_alerts_open` partial index); writes nothing.
 * @returns a count per kind of PAYMENT_ALERT_KINDS, e.g. `{ possible_card_testing: 2 }`
 */
export async function countOpenPaymentAlerts(db: DbOrTx): Promise<Record<PaymentAlertKind, number>> {
  const rows = await db
    .select({ kind: paymentAlerts.kind, n: count() })
    .from(paymentAlerts)
    .where(isNull(paymentAlerts.reviewedAt))
    .groupBy(paymentAlerts.kind);
  return Object.fromEntries(
    PAYMENT_ALERT_KINDS.map((kind) => [kind, Number(rows.find((r) => r.kind === kind)?.n ?? 0)]),
  ) as Record<PaymentAlertKind, number>;
}
