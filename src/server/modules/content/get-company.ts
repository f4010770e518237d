import { asc } from 'drizzle-orm';
import { companies } from '../../db/schema.ts';
import { cachedPerDb } from './ttl-cache.ts';
import type { Db } from '../../db/client.ts';

interface Company {
  name: string;
  phone: string;
  email: string;
}

const FALLBACK: Company = { name: 'GoodStanding', phone: '', email: '' };

const cache = cachedPerDb(10_000, async (db: Db): Promise<Company> => {
  const [row] = await db
    .select({ name: companies.name, phone: companies.phone, email: companies.email })
    .from(companies)
    .orderBy(asc(companies.id))
    .limit(1);
  return row ?? FALLBACK;
});

/** The provider's company (docs/requirements/entities.md "Company": name, phone), cached for 10 s. */
export const getCompany = (db: Db) => cache.get(db);
