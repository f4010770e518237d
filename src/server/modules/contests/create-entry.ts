import { and, count, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contestEntries } from '../../db/schema.ts';
import { HttpError, ValidationError } from '../../errors.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';
import { COUNTED_ENTRIES, CONTEST_TEXT, contestEntrySchema, needsMessageAndFile, type Contest, type ContestEntrySaved } from '../../../shared/schemas/contests.ts';
import { parseInput } from '../../validate.ts';
import { discardUpload, type ReceivedUpload } from '../files/receive-upload.ts';
import { insertFile } from '../files/stored-files.ts';

/**
 * Saves a contest entry (SPEC tool 4, §3 "Contest entry", §5, §8 "Contest") after its file is
 * stored: validates the fields (message and file required for booster clubs and school staff),
 * then counts earlier entries of this contest by the same e-mail or organization (case-insensitive)
 * under a lock, so two entries sent at once cannot both be the third.
 * - photo: once three entries exist, answers 401 'Limit reached!' and keeps nothing;
 * - video: the entry is kept with counts = false and `has_max_submissions`.
 * Writes: files (purpose contest_photo / contest_video) and contest_entries, in one transaction;
 * on any failure the stored file is removed.
 * @throws ValidationError 422 with field messages; HttpError 401 for a photo past the limit
 */
export async function createContestEntry(db: Db, storage: FileStorage, contest: Contest, upload: ReceivedUpload): Promise<ContestEntrySaved> {
  try {
    const input = parseInput(contestEntrySchema, upload.fields);
    const file = upload.files[0];
    if (!file && needsMessageAndFile(input.type)) throw ValidationError.field('file', 'The file field is required.');
    const email = input.email;
    const organization = input.organization;
    return await db.transaction(async (tx) => {
      // One lock per contest+email and contest+organization: concurrent entries queue here.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`contest:${contest}:email:${email}`}))`);
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`contest:${contest}:org:${organization.toLowerCase()}`}))`);
      const [{ n }] = await tx.select({ n: count() }).from(contestEntries).where(and(
        eq(contestEntries.contest, contest),
        or(eq(contestEntries.email, email), sql`lower(${contestEntries.organization}) = ${organization.toLowerCase()}`),
      ));
      const counts = n < COUNTED_ENTRIES;
      if (!counts && contest === 'photo') throw new HttpError(401, CONTEST_TEXT.limitReached);
      const row = file ? await insertFile(tx, file, contest === 'photo' ? 'contest_photo' : 'contest_video', {}) : null;
      const [entry] = await tx.insert(contestEntries).values({
        contest,
        organization,
        email,
        type: input.type,
        message: input.message,
        isMember: input.is_member === 1,
        fileId: row?.id ?? null,
        counts,
      }).returning({ id: contestEntries.id });
      return { id: entry!.id, counts, has_max_submissions: !counts };
    });
  } catch (err) {
    await discardUpload(storage, upload);
    throw err;
  }
}
