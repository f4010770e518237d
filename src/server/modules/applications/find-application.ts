import { and, eq, ne } from 'drizzle-orm';
import { readLevelWizard, type WizardPage } from '../../../shared/forms/field-definition.ts';
import { applications, levels } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ApplicationHandle } from './application-handle.ts';

export type ApplicationRow = typeof applications.$inferSelect;
export interface LevelForWizard {
  id: number;
  slug: string;
  name: string;
  priceCents: number;
  priceDiscountCents: number;
  pages: WizardPage[];
  title?: string;
  submissionAlert?: string;
}

/**
 * The application a handle names (its token or its id, see ApplicationHandle), with its level's
 * wizard pages, for its owner only.
 * @param lock take a row lock (inside a transaction) so two submits cannot both complete it
 * @throws HttpError 404 for an unknown token or id, another user's application, or a deleted one
 *   (docs/requirements/platform.md §5.6: never reveal that someone else's record exists)
 */
export async function findApplication(
  db: DbOrTx,
  handle: ApplicationHandle,
  userId: number,
  lock = false,
): Promise<{ application: ApplicationRow; level: LevelForWizard }> {
  const query = db
    .select({
      application: applications,
      level: {
        id: levels.id,
        slug: levels.slug,
        name: levels.name,
        priceCents: levels.priceCents,
        priceDiscountCents: levels.priceDiscountCents,
        schema: levels.schema,
      },
    })
    .from(applications)
    .innerJoin(levels, eq(levels.id, applications.levelId))
    .where(
      and(
        handle.kind === 'token' ? eq(applications.tokenHash, handle.tokenHash) : eq(applications.id, handle.id),
        eq(applications.userId, userId),
        ne(applications.status, 'deleted'),
      ),
    );
  const [row] = lock ? await query.for('update', { of: applications }) : await query;
  if (!row) throw notFound('The application');
  const { schema, ...level } = row.level;
  const wizard = readLevelWizard(schema);
  return {
    application: row.application,
    level: { ...level, pages: wizard.pages, title: wizard.title, submissionAlert: wizard.submission_alert },
  };
}
