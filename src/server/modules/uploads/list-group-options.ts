import { asc } from 'drizzle-orm';
import { groups } from '../../db/schema.ts';
import type { GenericUploadOptions } from '../../../shared/schemas/generic-upload.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The groups a roster upload can create accounts in (the uploader's `profile_id`, docs/requirements/entities.md
 * "Generic upload"), by label. One row per IRS group exemption met by an import, so up to a few
 * thousand; the page filters them as the admin types.
 * @returns id, label and GEN of every group
 */
export async function listGroupOptions(db: DbOrTx): Promise<GenericUploadOptions['groups']> {
  return db
    .select({ id: groups.id, label: groups.label, gen: groups.gen })
    .from(groups)
    .orderBy(asc(groups.label), asc(groups.id));
}
