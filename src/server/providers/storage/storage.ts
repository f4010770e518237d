import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, opendir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/**
 * Where uploaded bytes are kept (docs/requirements/platform.md §1, §5.7). Keys are random and never derived from a
 * user's file name; reading always goes through a route that checks who may read the file.
 */
export interface FileStorage {
  /** Stores the stream under `key`; rejects (leaving nothing behind) when the stream errors. */
  put(key: string, body: Readable): Promise<void>;
  /** A stream of the stored bytes. @throws StorageNotFound */
  get(key: string): Promise<Readable>;
  /** Removes the object; missing keys are fine. */
  delete(key: string): Promise<void>;
  /**
   * Removes what uploads cut off by a killed process left behind, untouched for `olderThanMs`
   * (the disk's `.part` files). Absent where nothing is left behind (S3: a failed `put` aborts its
   * multipart upload itself; see docs/security.md for a process killed mid-upload).
   * @returns how many were removed
   */
  sweepPartial?(olderThanMs: number, now?: Date): Promise<number>;
  /**
   * Every stored object last written before `before`: its key (as `put` was given it) and when it
   * was written, in no set order, read lazily page by page (disk: a walk of the tree; S3:
   * ListObjectsV2). Partial uploads and anything whose name is not a storage key are left out.
   * For finding objects no files row names (docs/retention.md "Orphaned uploads").
   */
  list?(before: Date): AsyncIterable<StoredObject>;
}

/** One stored object as {@link FileStorage.list} gives it. */
export interface StoredObject {
  key: string;
  writtenAt: Date;
}

/** The stored object does not exist. */
export class StorageNotFound extends Error {}

/** A new random storage key under a purpose prefix, e.g. `contest_photo/2026/11/3f…a9`. */
export function newStorageKey(purpose: string, now = new Date()): string {
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${purpose}/${now.getUTCFullYear()}/${month}/${randomBytes(16).toString('hex')}`;
}

const KEY_PATTERN = /^[a-z_]+\/\d{4}\/\d{2}\/[0-9a-f]{32}$/;

/** Whether `key` has the shape newStorageKey gives (`<purpose>/<yyyy>/<mm>/<32 hex>`). */
export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * Disk storage under `root` (outside the web root: `${DATA_DIR}/files` by default). Writes go to a
 * temporary name first and are renamed only when complete, so a failed upload leaves no file.
 */
export function diskStorage(root: string): FileStorage {
  const pathOf = (key: string) => {
    // Keys come from newStorageKey only; anything else could walk out of root.
    if (!KEY_PATTERN.test(key)) throw new StorageNotFound(`Invalid storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, body) {
      const target = pathOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.part`;
      try {
        await pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await rename(partial, target);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
    },
    async get(key) {
      const target = pathOf(key);
      try {
        await stat(target);
      } catch {
        throw new StorageNotFound(key);
      }
      return createReadStream(target);
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async sweepPartial(olderThanMs, now = new Date()) {
      return sweepPartFiles(root, now.getTime() - olderThanMs);
    },
    list(before) {
      return listStoredFiles(root, '', before.getTime());
    },
  };
}

/**
 * The stored files under `dir` (relative path `rel` from the storage root) last written before
 * `cutoffMs` (epoch ms), one directory at a time; a missing directory (nothing uploaded yet) is empty.
 */
async function* listStoredFiles(dir: string, rel: string, cutoffMs: number): AsyncGenerator<StoredObject> {
  let entries;
  try {
    entries = await opendir(path.join(dir, rel));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for await (const entry of entries) {
    const key = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      yield* listStoredFiles(dir, key, cutoffMs);
    } else if (entry.isFile() && KEY_PATTERN.test(key)) {
      const info = await stat(path.join(dir, key)).catch(() => null);
      if (info && info.mtimeMs < cutoffMs) yield { key, writtenAt: info.mtime };
    }
  }
}

/**
 * Deletes every `*.part` file under `dir` last written before `cutoffMs` (epoch ms). A `put` still
 * writing keeps its file's modification time fresh, so only abandoned ones are old. Walks the tree
 * one directory at a time; a missing `dir` (nothing uploaded yet) is fine.
 * @returns how many files were deleted
 */
async function sweepPartFiles(dir: string, cutoffMs: number): Promise<number> {
  let removed = 0;
  let entries;
  try {
    entries = await opendir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  for await (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      removed += await sweepPartFiles(full, cutoffMs);
    } else if (entry.isFile() && entry.name.endsWith('.part')) {
      const info = await stat(full).catch(() => null);
      if (info && info.mtimeMs < cutoffMs) {
        await rm(full, { force: true });
        removed++;
      }
    }
  }
  return removed;
}
