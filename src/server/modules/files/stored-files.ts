import { must } from '../../../shared/must.ts';
import { cleanFileName } from '../../../shared/rules/uploads.ts';
import { files } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { StorageNotFound, type FileStorage } from '../../providers/storage/storage.ts';
import type { UploadPurpose } from '../../../shared/rules/uploads.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ReceivedFile } from './receive-upload.ts';
import type { FastifyReply } from 'fastify';

export type FileRow = typeof files.$inferSelect;

/** Who a stored file belongs to; at least one is set. */
export interface FileOwner {
  applicationId?: number | null;
  accountId?: number | null;
  uploadedBy?: number | null;
}

/**
 * Writes the `files` row of a file already in storage (the bytes first, then the row).
 * @returns the new row
 */
export async function insertFile(
  db: DbOrTx,
  received: ReceivedFile,
  purpose: UploadPurpose,
  owner: FileOwner,
): Promise<FileRow> {
  const [row] = await db
    .insert(files)
    .values({ ...received, purpose, ...owner })
    .returning();
  return must(row, 'the inserted file');
}

/** A file as the dropbox lists it (docs/requirements/entities.md `file_uploads`, entries with `file_name`). */
export interface FileUploadEntry {
  id: number;
  file_name: string;
  size_bytes: number;
  mime_type: string;
  uploaded_at: string;
}

/** A stored file as the dropbox lists it (`file_name`, size in bytes, ISO upload time). */
export const fileUploadEntry = (f: FileRow): FileUploadEntry => ({
  id: f.id,
  file_name: f.fileName,
  size_bytes: f.sizeBytes,
  mime_type: f.mimeType,
  uploaded_at: f.createdAt.toISOString(),
});

/** Raster images a browser may show inline; SVG never is (it can carry script). */
const INLINE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp']);

/**
 * RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name, the name as
 * cleanFileName shows it (no control, bidirectional control or direction mark: docs/security.md
 * "Control characters in text").
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const name = cleanFileName(fileName);
  const ascii = name.replace(/[^\x20-\x7E]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Sends a stored file after the caller has checked who may read it (docs/requirements/platform.md §5.7): as an
 * attachment with nosniff, or inline for raster images when `inline` is asked; never cached, like
 * every download (docs/security.md "Caching of answers").
 * @throws HttpError 404 when the bytes are missing from storage
 */
export async function sendStoredFile(
  reply: FastifyReply,
  storage: FileStorage,
  file: FileRow,
  opts: { inline?: boolean } = {},
) {
  let body;
  try {
    body = await storage.get(file.storageKey);
  } catch (err) {
    if (err instanceof StorageNotFound) throw notFound('The file');
    throw err;
  }
  const inline = opts.inline === true && INLINE_TYPES.has(file.mimeType);
  return reply
    .header('content-type', file.mimeType)
    .header('content-length', String(file.sizeBytes))
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(body);
}
