import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import { IRS_DATASET_NAMES, type IrsDataset } from './irs-files.ts';
import type { IrsReleaseSource } from './load-release.ts';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Entry, ZipFile } from 'yauzl';

/** Each of the IRS's zips holds one file (the data set's `.txt`); a zip with more is not the IRS's. */
const MAX_ZIP_ENTRIES = 1;
/** The longest Retry-After honoured between two tries; a server asking for longer waits for the job's own retry. */
const MAX_RETRY_WAIT_MS = 10 * 60_000;

/** A download that failed or was refused; the message says why, for staff (the jobs page). */
class IrsDownloadError extends Error {
  override name = 'IrsDownloadError';
  /** Worth another try: a network error, a timeout, a file cut short, 408, 429 or 5xx. */
  readonly retryable: boolean;
  /** The server's Retry-After, in ms, when it gave one. */
  readonly retryAfterMs: number | null;

  constructor(message: string, opts: { retryable?: boolean; retryAfterMs?: number | null } = {}) {
    super(message);
    this.retryable = opts.retryable ?? false;
    this.retryAfterMs = opts.retryAfterMs ?? null;
  }
}

/** How a download is made (config.irsDownload, docs/configuration.md). */
export interface DownloadIrsReleaseOptions {
  /** An existing folder (the run's temporary folder): the file is written in a new folder under it. */
  dir: string;
  /** The validators of the last file loaded from this address (lastIrsSource), sent as If-None-Match / If-Modified-Since. */
  previous: IrsReleaseSource | null;
  /** Longest wait for the answer, and then between two pieces of the file, in ms. */
  timeoutMs: number;
  /** More tries after a retryable failure. */
  retries: number;
  /** Wait before the first retry, in ms, doubled for each next one (a longer Retry-After wins). */
  retryDelayMs: number;
  /** Largest download, and largest file unzipped from it, in bytes. */
  maxBytes: number;
  userAgent: string;
  /** The job's signal: aborting it stops the download and the waits between tries. */
  signal?: AbortSignal;
}

/** What a download gave: nothing new (304), or a file on disk with the IRS's release date. */
export type DownloadIrsReleaseResult =
  | { status: 'not-modified' }
  | {
      status: 'downloaded';
      /** The data file on disk (unzipped when the address is a .zip), named as the IRS names it. */
      file: string;
      /** The IRS's release date: Last-Modified's day in US Eastern time, 'YYYY-MM-DD'. */
      releasedOn: string;
      /** The address and the answer's validators, to record on the release. */
      source: IrsReleaseSource;
      /** Bytes downloaded. */
      bytes: number;
    };

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
const seconds = (ms: number) => `${ms / 1000} s`;

/** Washington's calendar: the IRS's pages date their files in US Eastern time. */
const EASTERN = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The day of `date` in US Eastern time, 'YYYY-MM-DD'. */
function easternDay(date: Date): string {
  const part = (type: string) => EASTERN.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A file name taken from an address or a zip entry, when it is a plain one (letters, digits, . _ -). */
function plainName(name: string, fallback: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/.test(name) ? name : fallback;
}

/** Retry-After (seconds or an HTTP date) in ms, or null. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** The error a failed fetch or body read stands for, for a person. */
function networkError(err: unknown, what: string): IrsDownloadError {
  if (err instanceof IrsDownloadError) return err;
  const e = err as Error & { cause?: Error & { code?: string } };
  const detail = e.cause?.code ?? e.cause?.message ?? e.message;
  return new IrsDownloadError(`${what} (${detail})`, { retryable: true });
}

/**
 * One try: the request (conditional when `previous` has validators), the answer's checks, and the
 * body streamed to `folder` through a byte counter (never held whole in memory).
 */
async function tryDownload(
  url: string,
  folder: string,
  fileName: string,
  opts: DownloadIrsReleaseOptions,
): Promise<DownloadIrsReleaseResult> {
  const idle = new AbortController();
  const timer = setTimeout(
    () =>
      idle.abort(
        new IrsDownloadError(`the IRS server sent nothing for ${seconds(opts.timeoutMs)} (IRS_DOWNLOAD_TIMEOUT_MS)`, {
          retryable: true,
        }),
      ),
    opts.timeoutMs,
  );
  const signal = opts.signal ? AbortSignal.any([idle.signal, opts.signal]) : idle.signal;
  const reasonIfAborted = () =>
    idle.signal.aborted ? (idle.signal.reason as IrsDownloadError) : opts.signal?.aborted ? stopped() : null;
  try {
    const headers: Record<string, string> = { 'user-agent': opts.userAgent };
    if (opts.previous?.etag) headers['if-none-match'] = opts.previous.etag;
    if (opts.previous?.lastModified) headers['if-modified-since'] = opts.previous.lastModified.toUTCString();
    let res: Response;
    try {
      res = await fetch(url, { headers, signal, redirect: 'follow' });
    } catch (err) {
      throw reasonIfAborted() ?? networkError(err, 'the IRS server could not be reached');
    }
    if (res.status === 304 && (opts.previous?.etag || opts.previous?.lastModified)) {
      await res.body?.cancel();
      return { status: 'not-modified' };
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
      throw new IrsDownloadError(`the IRS server answered ${res.status} ${res.statusText}`.trim(), {
        retryable,
        retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
      });
    }
    const lastModifiedHeader = res.headers.get('last-modified');
    const lastModified = lastModifiedHeader ? new Date(Date.parse(lastModifiedHeader)) : null;
    if (!lastModified || Number.isNaN(lastModified.getTime())) {
      await res.body?.cancel();
      throw new IrsDownloadError(
        'the answer has no Last-Modified date, the only release date the IRS gives its files: nothing was loaded',
      );
    }
    // With a Content-Encoding, Content-Length counts the encoded bytes, not the file's.
    const lengthHeader = res.headers.get('content-encoding') ? null : res.headers.get('content-length');
    const declared = lengthHeader && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
    const tooLarge = () =>
      new IrsDownloadError(
        `the file is larger than the ${megabytes(opts.maxBytes)} limit (IRS_DOWNLOAD_MAX_MB): nothing was loaded`,
      );
    if (declared !== null && declared > opts.maxBytes) {
      await res.body?.cancel();
      throw tooLarge();
    }
    if (!res.body) throw new IrsDownloadError('the answer has no body', { retryable: true });
    const file = path.join(folder, fileName);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > opts.maxBytes) return done(tooLarge());
        timer.refresh();
        done(null, chunk);
      },
    });
    const out = createWriteStream(file);
    let writeError: NodeJS.ErrnoException | null = null;
    out.on('error', (err) => (writeError = err));
    try {
      await pipeline(Readable.fromWeb(res.body as NodeReadableStream), counter, out);
    } catch (err) {
      await rm(file, { force: true });
      const aborted = reasonIfAborted();
      if (aborted) throw aborted;
      if (err instanceof IrsDownloadError) throw err;
      const local = writeError as NodeJS.ErrnoException | null;
      if (local && local === err && local.syscall) {
        // The disk, not the network: a full or unwritable temp directory.
        throw new IrsDownloadError(
          `the file could not be written to the temp directory (${local.code ?? local.message})`,
        );
      }
      throw networkError(
        err,
        `the download was cut short after ${bytes} bytes${declared !== null ? ` of ${declared}` : ''}`,
      );
    }
    if (declared !== null && bytes !== declared) {
      await rm(file, { force: true });
      throw new IrsDownloadError(`the download was cut short: ${bytes} of ${declared} bytes arrived`, {
        retryable: true,
      });
    }
    return {
      status: 'downloaded',
      file,
      releasedOn: easternDay(lastModified),
      source: { url, etag: res.headers.get('etag'), lastModified },
      bytes,
    };
  } finally {
    clearTimeout(timer);
  }
}

const stopped = () => new IrsDownloadError('the run was stopped (timed out or the server is shutting down)');

/** The zip's next entry (lazyEntries), or null at its end. */
function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: Entry) => (done(), resolve(entry));
    const onEnd = () => (done(), resolve(null));
    const onError = (err: Error) => (done(), reject(err));
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

/** What a yauzl error means, for a person. */
function zipProblem(err: Error): string {
  const name = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/s.exec(err.message);
  if (name) return `has an entry whose name leaves its folder ("${name[1]}")`;
  if (/end of central directory record signature not found/i.test(err.message))
    return 'is not a zip file, or is cut short';
  return `is damaged (${err.message})`;
}

/**
 * Unzips the one file of an IRS zip next to it, streaming, with yauzl (which reads the zip's
 * central directory, refuses entry names that leave the folder, and checks each entry's size).
 * @returns the unzipped file's path, named as the entry is (or `<dataset>.txt` when that is not a plain name)
 * @throws IrsDownloadError (not retryable) when the zip is not one, is damaged or cut short, holds
 *   no file or more than one entry, an entry whose name leaves the folder, an encrypted entry, or
 *   one larger than `maxBytes` unzipped (a zip bomb)
 */
async function unzipIrsFile(zipFile: string, dataset: IrsDataset, maxBytes: number): Promise<string> {
  const { open } = await import('yauzl');
  const refuse = (why: string) => new IrsDownloadError(`the zip ${why}: refused, nothing of it was loaded`);
  let zip: ZipFile;
  try {
    zip = await new Promise<ZipFile>((resolve, reject) =>
      open(
        zipFile,
        { lazyEntries: true, autoClose: false, decodeStrings: true, strictFileNames: true, validateEntrySizes: true },
        (err, z) => (err ? reject(err) : resolve(z)),
      ),
    );
  } catch (err) {
    throw refuse(zipProblem(err as Error));
  }
  try {
    if (zip.entryCount === 0) throw refuse('holds no file');
    if (zip.entryCount > MAX_ZIP_ENTRIES) {
      throw refuse(
        `holds ${zip.entryCount} entries where the IRS's zip of the ${IRS_DATASET_NAMES[dataset]} holds ${MAX_ZIP_ENTRIES}`,
      );
    }
    let entry: Entry | null;
    try {
      entry = await nextEntry(zip);
    } catch (err) {
      throw refuse(zipProblem(err as Error));
    }
    if (!entry) throw refuse('holds no file');
    if (entry.fileName.endsWith('/')) throw refuse(`holds a folder ("${entry.fileName}"), not the data file`);
    if (entry.isEncrypted()) throw refuse('is encrypted');
    if (entry.uncompressedSize > maxBytes) {
      throw refuse(
        `would unzip to ${megabytes(entry.uncompressedSize)}, more than the ${megabytes(maxBytes)} limit (IRS_DOWNLOAD_MAX_MB)`,
      );
    }
    const name = plainName(path.posix.basename(entry.fileName), `${dataset}.txt`);
    const out = path.join(path.dirname(zipFile), name === path.basename(zipFile) ? `${dataset}.txt` : name);
    const found = entry;
    let crc = 0;
    let size = 0;
    try {
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(found, (err, s) => (err ? reject(err) : resolve(s))),
      );
      await pipeline(
        stream,
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            if (size > maxBytes)
              return done(refuse(`unzips to more than ${megabytes(maxBytes)} (IRS_DOWNLOAD_MAX_MB)`));
            crc = crc32(chunk, crc);
            done(null, chunk);
          },
        }),
        createWriteStream(out),
      );
    } catch (err) {
      if (err instanceof IrsDownloadError) throw err;
      throw refuse(zipProblem(err as Error));
    }
    if (crc !== found.crc32) throw refuse('is damaged: the unzipped file does not match its CRC-32 checksum');
    return out;
  } finally {
    zip.close();
  }
}

/**
 * Downloads one of the IRS's files for the IRS data refresh (docs/irs-data.md "Refresh"): a GET
 * of `url`, conditional on the validators of the file last loaded from it, streamed to a file
 * under `opts.dir` (never held whole in memory), then, for an address ending in `.zip`, its one
 * file unzipped beside it. A network error, a timeout (`timeoutMs` without a byte), a file cut
 * short, 408, 429 and 5xx are tried again up to `retries` times, `retryDelayMs` apart and doubling
 * (or after the server's Retry-After, up to 10 minutes).
 * Writes: files under `opts.dir` only (the caller removes the folder); nothing in the database.
 * @param dataset the data set the address serves (names the file when the address has no plain name)
 * @returns `not-modified` (304: the file loaded last time is still the IRS's), or the file with
 *   its release date (Last-Modified's day in US Eastern time) and validators
 * @throws IrsDownloadError with the reason, for a person: unreachable, timed out, cut short, an
 *   HTTP error, no Last-Modified, larger than `maxBytes`, or a zip refused (see unzipIrsFile)
 */
export async function downloadIrsRelease(
  dataset: IrsDataset,
  url: string,
  opts: DownloadIrsReleaseOptions,
): Promise<DownloadIrsReleaseResult> {
  const folder = await mkdtemp(path.join(opts.dir, `${dataset}-`));
  const { pathname } = new URL(url);
  const isZip = /\.zip$/i.test(pathname);
  const fileName = plainName(path.posix.basename(pathname), `${dataset}${isZip ? '.zip' : '.csv'}`);
  for (let attempt = 1; ; attempt++) {
    if (opts.signal?.aborted) throw stopped();
    let got: DownloadIrsReleaseResult;
    try {
      got = await tryDownload(url, folder, fileName, opts);
    } catch (err) {
      const e = err instanceof IrsDownloadError ? err : networkError(err, 'the download failed');
      const wait = Math.max(opts.retryDelayMs * 2 ** (attempt - 1), e.retryAfterMs ?? 0);
      const tries = attempt > 1 ? `, after ${attempt} tries` : '';
      if (!e.retryable || attempt > opts.retries || opts.signal?.aborted) throw new IrsDownloadError(e.message + tries);
      if (wait > MAX_RETRY_WAIT_MS) {
        throw new IrsDownloadError(
          `${e.message}, asking to come back in ${Math.round(wait / 60_000)} minutes${tries}: the job tries again later`,
        );
      }
      try {
        await sleep(wait, undefined, { signal: opts.signal });
      } catch {
        throw stopped();
      }
      continue;
    }
    if (got.status === 'not-modified' || !isZip) return got;
    const file = await unzipIrsFile(got.file, dataset, opts.maxBytes);
    await rm(got.file, { force: true });
    return { ...got, file };
  }
}
