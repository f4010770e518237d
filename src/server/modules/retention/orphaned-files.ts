import { inArray } from 'drizzle-orm';
import { files } from '../../db/schema.ts';
import { RETENTION_BATCH, RETENTION_MAX_PER_RUN, type BatchOptions } from './batches.ts';
import type { Db } from '../../db/client.ts';
import type { FileStorage, StoredObject } from '../../providers/storage/storage.ts';

/** What deleteOrphanedFiles did. */
export interface OrphanSweep {
  /** Objects no files row named, removed. */
  removed: number;
  /** Objects whose removal failed (left for the next run). */
  failed: number;
}

/**
 * Orphaned uploads (RETAIN_ORPHAN_FILE_HOURS): removes the stored objects (disk or bucket, through
 * `storage.list`) written before `writtenBefore` that no `files` row names. An upload stores its
 * bytes first and writes its row a moment later, so only objects far older than any upload in
 * progress are considered; every other reference to a stored file goes through a files row
 * (contest entries, application documents, header images, the staff's uploads). Keys are looked
 * up `batch` at a time through files_storage_key_unique. Does nothing when the storage cannot list.
 * Writes: deletes storage objects.
 * @returns how many were removed and how many could not be
 */
export async function deleteOrphanedFiles(
  db: Db,
  storage: FileStorage,
  writtenBefore: Date,
  opts: BatchOptions = {},
): Promise<OrphanSweep> {
  const result: OrphanSweep = { removed: 0, failed: 0 };
  if (!storage.list) return result;
  const batch = opts.batch ?? RETENTION_BATCH;
  const max = opts.maxPerRun ?? RETENTION_MAX_PER_RUN;
  let page: StoredObject[] = [];
  const sweep = async () => {
    const keys = page.map((o) => o.key);
    page = [];
    const named = new Set(
      (await db.select({ key: files.storageKey }).from(files).where(inArray(files.storageKey, keys))).map((r) => r.key),
    );
    for (const key of keys) {
      if (named.has(key) || result.removed >= max) continue;
      try {
        await storage.delete(key);
        result.removed++;
      } catch {
        result.failed++;
      }
    }
  };
  for await (const object of storage.list(writtenBefore)) {
    page.push(object);
    if (page.length >= batch) await sweep();
    if (result.removed >= max) return result;
  }
  if (page.length) await sweep();
  return result;
}
