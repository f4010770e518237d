import { desc, eq } from 'drizzle-orm';
import { filings } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

/** An account's recorded filings (docs/requirements/product.md "Compliance calendar"), newest tax year first: `{ tax_year, form, filed_on }`. */
export async function listFilings(
  db: DbOrTx,
  accountId: number,
): Promise<{ tax_year: number; form: string; filed_on: string }[]> {
  return db
    .select({ tax_year: filings.taxYear, form: filings.form, filed_on: filings.filedOn })
    .from(filings)
    .where(eq(filings.accountId, accountId))
    .orderBy(desc(filings.taxYear));
}
