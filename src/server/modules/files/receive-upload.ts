import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatSizeLimit } from '../../../shared/rules/formats.ts';
import {
  ALLOWED_EXTENSIONS,
  checkFileName,
  cleanFileName,
  FILE_NAME_MAX,
  notAllowedMessage,
  ONE_AT_A_TIME,
  type UploadPurpose,
} from '../../../shared/rules/uploads.ts';
import { stripControl } from '../../../shared/validation.ts';
import { HttpError, ValidationError } from '../../errors.ts';
import { newStorageKey, type FileStorage } from '../../providers/storage/storage.ts';
import { contentTypeFor, SNIFF_BYTES } from './file-type-check.ts';
import type { FastifyRequest } from 'fastify';

/** A file that is stored and checked, ready for its `files` row. */
export interface ReceivedFile {
  storageKey: string;
  /**
   * The uploader's name for it as cleanFileName keeps it: no control, bidirectional control or
   * direction mark, at most 255 characters.
   */
  fileName: string;
  mimeType: string;
  sizeBytes: number;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
}

export interface ReceivedUpload {
  /** The text parts of the form, control characters removed. */
  fields: Record<string, string>;
  files: ReceivedFile[];
  /** File parts that `beforeFile` dropped unread. */
  skippedFiles: number;
}

/**
 * What {@link ReceiveOptions.beforeFile} decides about one file: drop it unread (`skip`), or store
 * it with at most `maxBytes` (below the route's own limit), throwing `overLimit()` past them.
 */
export type FileAdmission = { skip: true } | { skip?: false; maxBytes?: number; overLimit?: () => Error };

export interface ReceiveOptions {
  purpose: UploadPurpose;
  /** Largest accepted file, in bytes. */
  maxBytes: number;
  /** How many files the form takes (default 1: 'One at a time please!' beyond it). */
  maxFiles?: number;
  /** The field that errors are reported on (default 'file'). */
  errorField?: string;
  /** Purpose's own allowlist instead of docs/requirements/validation.md's (the generic uploader passes its own). */
  allowed?: readonly string[];
  /** When no file part came: the message, or null when a file is optional. */
  missingMessage?: string | null;
  /**
   * Called for each file part whose name passed the checks, before any of its bytes is kept, with
   * the text fields read so far (a browser's FormData sends them before the file). It may throw to
   * refuse the upload (nothing is kept), skip the file, or lower its byte limit (upload quotas).
   */
  beforeFile?: (fields: Record<string, string>) => Promise<FileAdmission>;
}

/**
 * Streams a multipart upload into storage (docs/requirements/platform.md §5.7, docs/requirements/validation.md "Uploads"): each file's name is
 * checked against the forbidden list and the purpose's allowlist before any byte is kept, its size
 * is counted while streaming, its SHA-256 computed, and its magic bytes must agree with its name.
 * Writes: objects in `storage` only; nothing in the database. On any failure every object this
 * call stored is removed again.
 * @throws ValidationError 422 on `errorField`: '{file} is not allowed.', 'One at a time please!',
 *   a size message, or `missingMessage` when no file came; HttpError 400 for a body the multipart
 *   parser cannot read (docs/requirements/platform.md §5.9)
 */
export async function receiveUpload(
  req: FastifyRequest,
  storage: FileStorage,
  opts: ReceiveOptions,
): Promise<ReceivedUpload> {
  const field = opts.errorField ?? 'file';
  const maxFiles = opts.maxFiles ?? 1;
  const allowed = opts.allowed ?? ALLOWED_EXTENSIONS[opts.purpose];
  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  let skippedFiles = 0;
  if (!req.isMultipart()) throw ValidationError.field(field, opts.missingMessage ?? 'Please choose a file.');
  try {
    for await (const part of req.parts({ limits: { fileSize: opts.maxBytes + 1, files: maxFiles + 1 } })) {
      if (part.type === 'field') {
        fields[part.fieldname] = stripControl(String(part.value ?? ''));
        continue;
      }
      const fileName = cleanFileName(part.filename ?? '', FILE_NAME_MAX);
      if (!fileName) {
        part.file.resume();
        continue;
      }
      if (files.length >= maxFiles) {
        part.file.resume();
        throw ValidationError.field(field, ONE_AT_A_TIME);
      }
      const refused = checkFileName(fileName, allowed);
      if (refused) {
        part.file.resume();
        throw ValidationError.field(field, refused);
      }
      let admission: FileAdmission = {};
      if (opts.beforeFile) {
        try {
          admission = await opts.beforeFile(fields);
        } catch (err) {
          part.file.resume();
          throw err;
        }
      }
      if (admission.skip) {
        part.file.resume();
        skippedFiles++;
        continue;
      }
      // The admission's lower limit (and its error) applies only where it is below the route's own.
      const { maxBytes: lowerMax } = admission;
      const lowered = lowerMax !== undefined && lowerMax < opts.maxBytes;
      files.push(
        await storeOne(
          storage,
          part.file,
          fileName,
          lowered ? { ...opts, maxBytes: lowerMax } : opts,
          field,
          lowered ? admission.overLimit : undefined,
        ),
      );
    }
  } catch (err) {
    await Promise.all(files.map((f) => storage.delete(f.storageKey).catch(() => undefined)));
    if (err instanceof ValidationError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(field, opts.maxBytes);
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw ValidationError.field(field, ONE_AT_A_TIME);
    if (isMalformedMultipart(err)) throw new HttpError(400, 'The upload could not be read.');
    throw err;
  }
  if (files.length === 0 && skippedFiles === 0 && opts.missingMessage !== null) {
    throw ValidationError.field(field, opts.missingMessage ?? 'Please choose a file.');
  }
  return { fields, files, skippedFiles };
}

/**
 * The multipart parser's complaints about the request itself (no boundary, a boundary over 70
 * characters, a body cut short, a bad part header) are plain Errors with no code; limits, stream
 * and storage failures all carry a code or a class of their own and stay server errors.
 */
function isMalformedMultipart(err: unknown): boolean {
  if (!(err instanceof Error) || err.constructor !== Error) return false;
  const { code, statusCode } = err as { code?: unknown; statusCode?: unknown };
  return code === undefined && statusCode === undefined;
}

const tooLarge = (field: string, maxBytes: number) =>
  ValidationError.field(field, `The file may not be larger than ${formatSizeLimit(maxBytes)}.`);

async function storeOne(
  storage: FileStorage,
  body: NodeJS.ReadableStream,
  fileName: string,
  opts: ReceiveOptions,
  field: string,
  overLimit?: () => Error,
): Promise<ReceivedFile> {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > opts.maxBytes) return done(overLimit ? overLimit() : tooLarge(field, opts.maxBytes));
      hash.update(chunk);
      if (headBytes < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
        headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
      }
      done(null, chunk);
    },
  });
  const storageKey = newStorageKey(opts.purpose);
  // Both ends are attached at once, so a size error raised while storage is still opening is handled;
  // waiting for both lets storage remove its partial object before we answer.
  const [fed, stored] = await Promise.allSettled([pipeline(body, tap), storage.put(storageKey, tap)]);
  if (fed.status === 'rejected') throw fed.reason;
  if (stored.status === 'rejected') throw stored.reason;
  const mimeType = size === 0 ? null : await contentTypeFor(fileName, Buffer.concat(head));
  if (!mimeType) {
    await storage.delete(storageKey);
    throw ValidationError.field(field, size === 0 ? `${fileName} is empty.` : notAllowedMessage(fileName));
  }
  return { storageKey, fileName, mimeType, sizeBytes: size, sha256: hash.digest('hex') };
}

/** Removes stored objects whose database row could not be written (a failed step leaves nothing). */
export async function discardUpload(storage: FileStorage, upload: ReceivedUpload): Promise<void> {
  await Promise.all(upload.files.map((f) => storage.delete(f.storageKey).catch(() => undefined)));
}
