import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { classifyStanding, isDeductible, STANDING_LABELS, subsectionLabel } from '../../../shared/rules/standing.ts';
import type { PublicProfile } from '../../../shared/schemas/search.ts';

/**
 * The public profile of an account (SPEC §2 /app/account/show/{id}): identity, IRS facts and the
 * good-standing badge computed from its IRS status and latest return.
 * @throws HttpError 404 when there is no such account
 */
export async function getPublicProfile(db: Db, id: number, today = new Date()): Promise<PublicProfile> {
  const [a] = await db.select().from(accounts).where(eq(accounts.id, id));
  if (!a) throw notFound('The organization');
  const standing = classifyStanding({ irsStatus: a.irsStatus, taxPeriod: a.taxPeriod, filingRequirement: a.filingRequirement }, today);
  return {
    id: a.id,
    name: a.name,
    legal_name: a.legalName,
    city: a.city,
    state: a.state,
    ein: a.ein ? `${a.ein.slice(0, 2)}-${a.ein.slice(2)}` : '',
    gen: a.gen ?? '',
    ruling_year: a.ruling ? a.ruling.slice(0, 4) : '',
    subsection: subsectionLabel(a.subsection),
    is_deductible: isDeductible(a.deductibility),
    standing,
    standing_label: STANDING_LABELS[standing],
    public_profile_image: a.publicProfileImage,
  };
}
