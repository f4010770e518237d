import { discounts } from '../schema.ts';
import type { DbOrTx } from '../client.ts';

/**
 * Demo discount codes (listed in docs/try-it.md). Demo data only: tests seed their own.
 * Each code is used once per account; 'incorporation' lines match no flag, so even WELCOME100
 * leaves the incorporation package to pay (docs/requirements/validation.md: a discount applies only to matching lines).
 */
export const DEMO_DISCOUNTS: (typeof discounts.$inferInsert)[] = [
  { code: 'RENEW25', description: '$25.00 off your renewal', currencyValueCents: 2500, isRenewals: true },
  { code: 'FEES50', description: '50% off service fees', multiplier: 0.5, isServiceFees: true },
  {
    code: 'WELCOME100',
    description: '100% off: new account, renewal, upgrade and service fees',
    multiplier: 1,
    isNewAccount: true,
    isRenewals: true,
    isUpgrades: true,
    isServiceFees: true,
  },
];

/** Writes the demo discount codes; a code that already exists is left as it is (idempotent). */
export async function seedDemoDiscounts(db: DbOrTx): Promise<void> {
  await db.insert(discounts).values(DEMO_DISCOUNTS).onConflictDoNothing({ target: discounts.code });
}
