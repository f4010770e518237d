import type { Db } from '../client.ts';
import { accounts, invoiceLines, invoices, users } from '../schema.ts';
import { hashPassword } from '../../passwords.ts';

/** Shared by the demo seed and the tests: one user, optionally an admin or an account holder. */
export async function createUser(db: Db, opts: { email: string; password: string; isAdmin?: boolean; accountId?: number | null; firstName?: string }) {
  const [u] = await db.insert(users).values({
    email: opts.email.toLowerCase(),
    passwordHash: await hashPassword(opts.password),
    isAdmin: opts.isAdmin ?? false,
    accountId: opts.accountId ?? null,
    firstName: opts.firstName ?? '',
  }).returning();
  return u;
}

/** One customer account with a name (not listed in the public search unless `isListed`). */
export async function createAccount(db: Db, opts: { name: string; isListed?: boolean; ein?: string; city?: string; state?: string }) {
  const [a] = await db.insert(accounts).values({
    name: opts.name,
    legalName: opts.name,
    ein: opts.ein ?? null,
    city: opts.city ?? '',
    state: opts.state ?? '',
    isListed: opts.isListed ?? false,
    searchText: opts.name.toLowerCase(),
  }).returning();
  return a;
}

let invoiceSeq = 0;

/**
 * An unpaid invoice of `cents` (integer cents) with one order-detail line of `type`, for tests and
 * demo data; the number is unique within the process ('T-1-…').
 * @returns the invoice id
 */
export async function createInvoice(db: Db, opts: { accountId: number; cents: number; type?: string; label?: string; prefix?: string }): Promise<number> {
  const [row] = await db.insert(invoices)
    .values({
      accountId: opts.accountId,
      number: `${opts.prefix ?? 'T'}-${++invoiceSeq}-${Math.random().toString(36).slice(2, 8)}`,
      valueCents: opts.cents,
      balanceCents: opts.cents,
    })
    .returning({ id: invoices.id });
  await db.insert(invoiceLines).values({ invoiceId: row!.id, label: opts.label ?? 'Annual renewal', type: opts.type ?? 'renewal', valueCents: opts.cents });
  return row!.id;
}
