import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contestEntries, files } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { ADMIN_PER_PAGE } from '../../../shared/schemas/admin.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import type { Contest } from '../../../shared/schemas/contests.ts';
import type { FileRow } from '../files/stored-files.ts';

/** Address admins read an entry's file from (inline for raster images, else an attachment). */
export const entryFileUrl = (fileId: number) => `/admin/contests/files/${fileId}`;

/**
 * A page of one contest's entries for admins, newest first, optionally only the counted ones or
 * only the extras (SPEC tool 4: "Admins browse entries per contest with previews, counted or not").
 * @param counted 'yes' | 'no' | undefined (all)
 */
export async function listContestEntries(db: Db, contest: Contest, page: number, counted?: 'yes' | 'no') {
  const where = and(eq(contestEntries.contest, contest), counted ? eq(contestEntries.counts, counted === 'yes') : undefined);
  const [{ total }] = await db.select({ total: count() }).from(contestEntries).where(where);
  const rows = await db
    .select({
      id: contestEntries.id, organization: contestEntries.organization, email: contestEntries.email, type: contestEntries.type,
      message: contestEntries.message, is_member: contestEntries.isMember, counts: contestEntries.counts, created_at: contestEntries.createdAt,
      file_id: files.id, file_name: files.fileName, mime_type: files.mimeType, size_bytes: files.sizeBytes,
    })
    .from(contestEntries)
    .leftJoin(files, eq(files.id, contestEntries.fileId))
    .where(where)
    .orderBy(desc(contestEntries.createdAt), desc(contestEntries.id))
    .limit(ADMIN_PER_PAGE)
    .offset((page - 1) * ADMIN_PER_PAGE);
  const data = rows.map((r) => ({ ...r, file_url: r.file_id ? entryFileUrl(r.file_id) : null }));
  return buildPage(data, page, ADMIN_PER_PAGE, total, (p) => `?contest=${contest}&page=${p}`);
}

/** The file of a contest entry, for admins. @throws HttpError 404 */
export async function findEntryFile(db: Db, fileId: number): Promise<FileRow> {
  const [row] = await db.select({ file: files }).from(files)
    .innerJoin(contestEntries, eq(contestEntries.fileId, files.id))
    .where(eq(files.id, fileId));
  if (!row) throw notFound('The file');
  return row.file;
}
