import { eq } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { hashPassword } from '../../passwords.ts';
import { accounts, invoiceLines, invoices, users } from '../schema.ts';
import type { Db, DbOrTx } from '../client.ts';

/** Shared by the demo seed and the tests: one user, optionally an admin or an account holder. */
export async function createUser(
  db: Db,
  opts: { email: string; password: string; isAdmin?: boolean; accountId?: number | null; firstName?: string },
) {
  const [u] = await db
    .insert(users)
    .values({
      email: opts.email.toLowerCase(),
      passwordHash: await hashPassword(opts.password),
      isAdmin: opts.isAdmin ?? false,
      accountId: opts.accountId ?? null,
      firstName: opts.firstName ?? '',
    })
    .returning();
  return u;
}

/** One customer account with a name (not listed in the public search unless `isListed`). */
export async function createAccount(
  db: Db,
  opts: { name: string; isListed?: boolean; ein?: string; city?: string; state?: string },
) {
  const [a] = await db
    .insert(accounts)
    .values({
      name: opts.name,
      legalName: opts.name,
      ein: opts.ein ?? null,
      city: opts.city ?? '',
      state: opts.state ?? '',
      isListed: opts.isListed ?? false,
      searchText: opts.name.toLowerCase(),
    })
    .returning();
  return a;
}

let invoiceSeq = 0;

/** One order-detail line of {@link createInvoice}: docs/requirements/entities.md label, type, value (integer cents). */
export interface InvoiceLineInput {
  label: string;
  /** 'new_account', 'renewal', 'upgrade', 'incorporation', 'service_fee' (what discount flags match). */
  type: string;
  cents: number;
}

/**
 * An unpaid invoice for tests and demo data, in integer cents: either one order-detail line of
 * `cents` and `type` (default 'renewal', label 'Annual renewal'), or the given `lines`, whose sum
 * is then the invoice's value and balance (`cents` and `type` are ignored). The number is unique
 * within the process ('T-1-…', `prefix` replacing 'T'), or `number(id)` of the new row's id, like
 * the 'GS-000123' of real invoices. Writes invoices and invoice_lines.
 * @returns the invoice id
 */
export async function createInvoice(
  db: DbOrTx,
  opts: {
    accountId: number;
    cents?: number;
    type?: string;
    label?: string;
    prefix?: string;
    lines?: readonly InvoiceLineInput[];
    number?: (id: number) => string;
    publicNotes?: string;
  },
): Promise<number> {
  const lines: readonly InvoiceLineInput[] = opts.lines?.length
    ? opts.lines
    : [{ label: opts.label ?? 'Annual renewal', type: opts.type ?? 'renewal', cents: opts.cents ?? 0 }];
  const totalCents = lines.reduce((sum, l) => sum + l.cents, 0);
  const [row] = await db
    .insert(invoices)
    .values({
      accountId: opts.accountId,
      number: `${opts.prefix ?? 'T'}-${++invoiceSeq}-${Math.random().toString(36).slice(2, 8)}`,
      valueCents: totalCents,
      balanceCents: totalCents,
      publicNotes: opts.publicNotes ?? '',
    })
    .returning({ id: invoices.id });
  const id = must(row, 'the inserted invoice').id;
  if (opts.number)
    await db
      .update(invoices)
      .set({ number: opts.number(id) })
      .where(eq(invoices.id, id));
  await db
    .insert(invoiceLines)
    .values(lines.map((l) => ({ invoiceId: id, label: l.label, type: l.type, valueCents: l.cents })));
  return id;
}
