import { eq } from 'drizzle-orm';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { deductibilityText, subsectionLabel } from '../../../shared/rules/standing.ts';
import { accounts } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { irsFactsView, standingOfAccount } from '../irs-data/get-standing.ts';
import type { PublicProfile } from '../../../shared/schemas/search.ts';
import type { Db } from '../../db/client.ts';

/**
 * The public profile of an account (docs/requirements/screens.md /app/account/show/{id}): identity, IRS facts and its
 * standing (docs/irs-standing.md) with the IRS releases it rests on. No personal names: the BMF's
 * in-care-of name and the 990-N's principal officer are never shown.
 * @param today the calendar day the standing is computed for (default: today, UTC)
 * @throws HttpError 404 when there is no such account
 */
export async function getPublicProfile(db: Db, id: number, today = calendarDate(new Date())): Promise<PublicProfile> {
  const [a] = await db.select().from(accounts).where(eq(accounts.id, id));
  if (!a) throw notFound('The organization');
  const standing = await standingOfAccount(db, a, today);
  return {
    id: a.id,
    name: a.name,
    legal_name: a.legalName,
    city: a.city,
    state: a.state,
    ein: formatEin(a.ein),
    gen: a.gen ?? '',
    ruling_year: a.ruling ? a.ruling.slice(0, 4) : '',
    ruling_is_group: a.affiliation === '9',
    subsection: subsectionLabel(a.subsection),
    deductible: deductibilityText(a.deductibility, standing.standing.state),
    standing: standing.standing.state,
    standing_label: standing.standing.label,
    irs: irsFactsView(a, standing),
    public_profile_image: a.publicProfileImage,
  };
}
