import { and, count, eq, or, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import {
  COUNTED_ENTRIES,
  CONTEST_TEXT,
  contestEntrySchema,
  needsMessageAndFile,
  type Contest,
  type ContestEntrySaved,
} from '../../../shared/schemas/contests.ts';
import { contestEntries } from '../../db/schema.ts';
import { HttpError, ValidationError } from '../../errors.ts';
import { parseInput } from '../../validate.ts';
import { discardUpload, type FileAdmission, type ReceivedUpload } from '../files/receive-upload.ts';
import { insertFile } from '../files/stored-files.ts';
import { assertIpUnderQuota, chargeUploadBytes, quotaReached, reserveUpload } from './upload-quotas.ts';
import type { UploadQuota } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';

/** The answer to an entry past the counted three: nothing is kept (docs/requirements/calls.md has_max_submissions). */
const PAST_THE_LIMIT: ContestEntrySaved = { id: null, counts: false, has_max_submissions: true };

/** Entries of this contest so far by the same e-mail or organization (case-insensitive). */
async function entriesSoFar(db: DbOrTx, contest: Contest, email: string, organization: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(contestEntries)
    .where(
      and(
        eq(contestEntries.contest, contest),
        or(eq(contestEntries.email, email), sql`lower(${contestEntries.organization}) = ${organization.toLowerCase()}`),
      ),
    );
  return n;
}

export interface ContestUploadContext {
  /** The client's address (req.ip), for the per-IP quota. */
  ip: string;
  quotas: { perAddress: UploadQuota; perIp: UploadQuota };
  /** Reads the multipart body (receiveUpload bound to the request), asking `beforeFile` about each file. */
  receive: (beforeFile: (fields: Record<string, string>) => Promise<FileAdmission>) => Promise<ReceivedUpload>;
}

/**
 * A contest entry as the form posts it (docs/requirements/product.md tool 4, docs/requirements/entities.md "Contest entry", docs/requirements/validation.md, docs/requirements/errors.md "Contest";
 * docs/security.md "Upload quotas"). In order:
 * 1. a client IP that has used up today's files or bytes is refused before anything is read;
 * 2. when the file arrives after the text fields (as the form sends it), an entry past the
 *    counted three is known before its bytes are read: a photo answers 401, a video's file is
 *    dropped unread; otherwise the upload is counted against the IP's and the address's daily
 *    files (429 past them) and its bytes are limited to what both have left (429 past that);
 * 3. the fields are validated (message and file required for booster clubs and school staff);
 * 4. in one transaction, under a lock per contest+email and contest+organization, the earlier
 *    entries are counted again: past three, a photo answers 401 'Limit reached!' and a video
 *    answers `has_max_submissions` — neither keeps a file or a row; otherwise the file's bytes are
 *    charged to both quotas (429 if uploads running at once passed them) and the file and entry
 *    are written.
 * Writes: daily_counters (quotas), files (purpose contest_photo / contest_video) and
 * contest_entries; on any failure the stored file is removed.
 * @throws ValidationError 422 with field messages; HttpError 401 for a photo past the limit;
 *   HttpError 429 past an upload quota
 */
export async function submitContestEntry(
  db: Db,
  storage: FileStorage,
  contest: Contest,
  ctx: ContestUploadContext,
): Promise<ContestEntrySaved> {
  await assertIpUnderQuota(db, ctx.ip, ctx.quotas.perIp);
  let addressCounted: string | null = null;
  let pastTheLimit = false;
  const upload = await ctx.receive(async (fields) => {
    const known = contestEntrySchema.safeParse(fields);
    if (known.success) {
      if ((await entriesSoFar(db, contest, known.data.email, known.data.organization)) >= COUNTED_ENTRIES) {
        if (contest === 'photo') throw new HttpError(401, CONTEST_TEXT.limitReached);
        pastTheLimit = true;
        return { skip: true };
      }
    }
    const email = known.success ? known.data.email : null;
    const left = await reserveUpload(db, { ip: ctx.ip, email, quotas: ctx.quotas });
    addressCounted = email;
    return { maxBytes: left, overLimit: quotaReached };
  });
  try {
    const input = parseInput(contestEntrySchema, upload.fields);
    const file = upload.files[0];
    if (!file && !upload.skippedFiles && needsMessageAndFile(input.type))
      throw ValidationError.field('file', 'The file field is required.');
    if (pastTheLimit) {
      await discardUpload(storage, upload);
      return PAST_THE_LIMIT;
    }
    const { email, organization } = input;
    const saved = await db.transaction(async (tx) => {
      // One lock per contest+email and contest+organization: concurrent entries queue here.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`contest:${contest}:email:${email}`}))`);
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(hashtext(${`contest:${contest}:org:${organization.toLowerCase()}`}))`,
      );
      if ((await entriesSoFar(tx, contest, email, organization)) >= COUNTED_ENTRIES) {
        if (contest === 'photo') throw new HttpError(401, CONTEST_TEXT.limitReached);
        return null;
      }
      if (file)
        await chargeUploadBytes(
          tx,
          { ip: ctx.ip, email, quotas: ctx.quotas },
          file.sizeBytes,
          addressCounted !== email,
        );
      const row = file ? await insertFile(tx, file, contest === 'photo' ? 'contest_photo' : 'contest_video', {}) : null;
      const [entry] = await tx
        .insert(contestEntries)
        .values({
          contest,
          organization,
          email,
          type: input.type,
          message: input.message,
          isMember: input.is_member === 1,
          fileId: row?.id ?? null,
          counts: true,
        })
        .returning({ id: contestEntries.id });
      return { id: must(entry, 'the inserted entry').id, counts: true, has_max_submissions: false };
    });
    if (!saved) {
      await discardUpload(storage, upload);
      return PAST_THE_LIMIT;
    }
    return saved;
  } catch (err) {
    await discardUpload(storage, upload);
    throw err;
  }
}
