import { checkLimit, countLimitHit, takeLimits, type LimitActor } from '../limits/take-limit.ts';
import type { Db } from '../../db/client.ts';
import type { LimitSettings } from '../limits/limit-rules.ts';

/** Who is paying, as the payment limits count them. */
export interface Payer {
  userId: number;
  accountId: number;
  /** The client address. */
  ip: string;
  /** Staff paying on an account's behalf: not counted per client address (they work from the provider's network). */
  isStaff: boolean;
}

const who = (payer: Payer): LimitActor => ({ userId: payer.userId, accountId: payer.accountId, ip: payer.ip });
const clientAddress = (payer: Payer) => (payer.isStaff ? null : payer.ip);

/**
 * Before a card, bank or PayPal payment attempt reaches the gateway (docs/payments.md "Card
 * testing", docs/security.md "Limits on mail and payments"): refuses when the account or the
 * client address already has its day's declines, then counts the attempt against the account's and
 * the address's attempts per hour. A replayed attempt (same idempotency key) is not one: callers
 * answer it before calling this. Past a limit the first refusal of its window is audited and raises
 * a 'possible_card_testing' staff alert.
 * Writes: limit_counters; on a refusal audit_log and payment_alerts (takeLimit).
 * @throws TooManyRequests 429 past a limit, saying when to try again
 */
export async function takePaymentLimits(db: Db, settings: LimitSettings, payer: Payer): Promise<void> {
  await checkLimit(db, settings, 'payment_declines_per_account', payer.accountId, who(payer));
  const ip = clientAddress(payer);
  if (ip) await checkLimit(db, settings, 'payment_declines_per_ip', ip, who(payer));
  await takeLimits(
    db,
    settings,
    [
      ['payment_attempts_per_account', payer.accountId],
      ['payment_attempts_per_ip', ip],
    ],
    who(payer),
  );
}

/**
 * Counts a declined or failed payment against the account's and the client address's declines
 * of the day (docs/payments.md "Card testing"); the next attempt past them is refused by
 * {@link takePaymentLimits}.
 * Writes: limit_counters.
 */
export async function countPaymentDecline(db: Db, payer: Payer): Promise<void> {
  await countLimitHit(db, 'payment_declines_per_account', payer.accountId);
  const ip = clientAddress(payer);
  if (ip) await countLimitHit(db, 'payment_declines_per_ip', ip);
}
