import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF_MINIMAL, WINDOWS_EXE } from '../../../../tests/helpers/files.ts';
import { Agent, createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { files, levels } from '../../db/schema.ts';
import { s3Storage, type S3StorageOptions } from './s3-storage.ts';
import { diskStorage, newStorageKey, StorageNotFound, type FileStorage } from './storage.ts';
import type { IncomingMessage, Server } from 'node:http';

/** The part of s3rver's API used here (the package ships no types). */
interface S3rver {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer: Server;
}
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as new (opts: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rver;

const CONTRACT_BUCKET = 'goodstanding-contract';
const APP_BUCKET = 'goodstanding-app';

// A real S3 peer on 127.0.0.1 (s3rver, objects in a temporary directory) and a temporary disk root.
let s3rver: S3rver;
let s3Dir: string;
let diskDir: string;
let endpoint: string;
let lister: S3Client;

beforeAll(async () => {
  s3Dir = await mkdtemp(path.join(tmpdir(), 'goodstanding-s3rver-'));
  diskDir = await mkdtemp(path.join(tmpdir(), 'goodstanding-disk-'));
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: s3Dir,
    silent: true,
    configureBuckets: [{ name: CONTRACT_BUCKET }, { name: APP_BUCKET }],
  });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  lister = new S3Client({
    ...s3Options(CONTRACT_BUCKET),
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  s3rverBucketPath(lister);
});

/**
 * s3rver checks a bucket-level request's signature (ListObjectsV2) against '/bucket' while the SDK
 * signs '/bucket/': send the form both agree on.
 */
function s3rverBucketPath(client: S3Client): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { path: string };
      request.path = request.path.replace(/^(\/[^/]+)\/$/, '$1');
      return next(args);
    },
    { step: 'build', name: 's3rverBucketPath' },
  );
}

afterAll(async () => {
  lister?.destroy();
  await s3rver?.close();
  await rm(s3Dir, { recursive: true, force: true });
  await rm(diskDir, { recursive: true, force: true });
});

/** s3rver's built-in account; path-style addressing as for any S3-compatible endpoint. */
function s3Options(bucket: string): S3StorageOptions & { endpoint: string; forcePathStyle: boolean } {
  return {
    bucket,
    region: 'us-east-1',
    endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    configureClient: s3rverBucketPath,
  };
}

/** Every object key in a bucket, through the real ListObjectsV2 API. */
async function bucketKeys(bucket: string): Promise<string[]> {
  const keys: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await lister.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return keys.sort();
}

/** Every file under the disk root, partial ones included, as keys relative to the root. */
async function diskKeys(): Promise<string[]> {
  const all = await readdir(diskDir, { recursive: true, withFileTypes: true });
  return all
    .filter((d) => d.isFile())
    .map((d) => path.relative(diskDir, path.join(d.parentPath, d.name)))
    .sort();
}

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A stream of unknown length, as an upload arrives: `data` in 64 KiB chunks, then `failure` if given. */
function streamOf(data: Buffer, failure?: Error): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < data.length; at += CHUNK) yield data.subarray(at, at + CHUNK);
      if (failure) throw failure;
    })(),
  );
}

const adapters: { name: string; make: () => FileStorage; keys: () => Promise<string[]> }[] = [
  { name: 'diskStorage', make: () => diskStorage(diskDir), keys: diskKeys },
  { name: 's3Storage', make: () => s3Storage(s3Options(CONTRACT_BUCKET)), keys: () => bucketKeys(CONTRACT_BUCKET) },
];

describe.each(adapters)('FileStorage contract: $name', ({ make, keys }) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = make();
  });

  it('gives back the identical bytes of a multi-megabyte stream, stored under exactly the key given', async () => {
    const data = randomBytes(12 * MiB + 12345);
    const key = newStorageKey('contest_video');
    await storage.put(key, streamOf(data));
    expect(await keys()).toContain(key);
    const back = await buffer(await storage.get(key));
    expect(back.length).toBe(data.length);
    expect(back.equals(data)).toBe(true);
    await storage.delete(key);
  });

  for (const [when, before] of [
    ['within the first part', 1 * MiB],
    ['after several 5 MiB parts were sent', 11 * MiB],
  ] as const) {
    it(`rejects with the source's error and keeps nothing when the stream fails ${when}`, async () => {
      const key = newStorageKey('contest_video');
      const before_ = await keys();
      const failure = new Error('the client went away');
      await expect(storage.put(key, streamOf(randomBytes(before), failure))).rejects.toBe(failure);
      await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFound);
      expect(await keys()).toEqual(before_);
    });
  }

  it('lists the stored objects written before a moment, by their keys, and leaves partial uploads out', async () => {
    const stored = [newStorageKey('contest_photo'), newStorageKey('roster')];
    for (const key of stored) await storage.put(key, streamOf(randomBytes(1000)));
    const listed = async (before: Date) => {
      const out: { key: string; writtenAt: Date }[] = [];
      for await (const object of storage.list!(before)) out.push(object);
      return out;
    };
    const later = await listed(new Date(Date.now() + 60_000));
    for (const key of stored) expect(later.find((o) => o.key === key)?.writtenAt).toBeInstanceOf(Date);
    expect(later.every((o) => !o.key.endsWith('.part'))).toBe(true);
    // Written after that moment: not listed.
    const earlier = await listed(new Date(Date.now() - 3_600_000));
    expect(earlier.filter((o) => stored.includes(o.key))).toEqual([]);
    for (const key of stored) await storage.delete(key);
  });

  it('throws StorageNotFound for a key that was never stored', async () => {
    await expect(storage.get(newStorageKey('roster'))).rejects.toBeInstanceOf(StorageNotFound);
  });

  it('deletes: a later get throws StorageNotFound', async () => {
    const key = newStorageKey('profile_image');
    await storage.put(key, streamOf(Buffer.from('small object')));
    expect((await buffer(await storage.get(key))).toString()).toBe('small object');
    await storage.delete(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFound);
    expect(await keys()).not.toContain(key);
  });

  it('deleting a missing key resolves', async () => {
    await expect(storage.delete(newStorageKey('roster'))).resolves.toBeUndefined();
  });
});

describe('s3Storage', () => {
  it('keeps every key under the prefix folder, the key itself unchanged', async () => {
    const storage = s3Storage({ ...s3Options(CONTRACT_BUCKET), prefix: '/tenant-a/' });
    const key = newStorageKey('roster');
    await storage.put(key, streamOf(Buffer.from('name,email\n')));
    expect(await bucketKeys(CONTRACT_BUCKET)).toContain(`tenant-a/${key}`);
    expect((await buffer(await storage.get(key))).toString()).toBe('name,email\n');
    await storage.delete(key);
    expect(await bucketKeys(CONTRACT_BUCKET)).not.toContain(`tenant-a/${key}`);
  });

  it('aborts the multipart upload when the source fails after parts were sent', async () => {
    const storage = s3Storage(s3Options(CONTRACT_BUCKET));
    const key = newStorageKey('contest_video');
    const seen: string[] = [];
    const log = (req: IncomingMessage) => seen.push(`${req.method} ${req.url}`);
    s3rver.httpServer.on('request', log);
    try {
      await expect(storage.put(key, streamOf(randomBytes(11 * MiB), new Error('cut off')))).rejects.toThrow('cut off');
    } finally {
      s3rver.httpServer.off('request', log);
    }
    const objectPath = `/${CONTRACT_BUCKET}/${key}`;
    expect(seen.some((r) => r.startsWith(`POST ${objectPath}?uploads`))).toBe(true);
    expect(seen.filter((r) => r.startsWith(`PUT ${objectPath}?`) && r.includes('partNumber=')).length).toBe(2);
    // s3rver answers AbortMultipartUpload with 405 (it keeps parts until the server is reset); S3 frees them.
    expect(seen.some((r) => r.startsWith(`DELETE ${objectPath}?uploadId=`))).toBe(true);
    expect(seen.some((r) => r.startsWith(`POST ${objectPath}?uploadId=`))).toBe(false);
    await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFound);
  });

  it('refuses half a credential pair at once', () => {
    expect(() => s3Storage({ bucket: 'b', region: 'us-east-1', accessKeyId: 'only-the-id' })).toThrow(
      /accessKeyId and secretAccessKey/,
    );
  });
});

describe('the app with S3 storage: application documents through the real routes', () => {
  let t: TestApp;
  let maintainLevelId: number;
  beforeAll(async () => {
    t = await createTestApp({
      providers: { storage: s3Storage(s3Options(APP_BUCKET)) },
      config: {
        uploadLimits: {
          contest_photo: 1024,
          contest_video: 1024,
          roster: 1024,
          profile_image: 1024,
          application_document: 64 * 1024,
        },
      },
    });
    [{ id: maintainLevelId }] = await t.database.db
      .select({ id: levels.id })
      .from(levels)
      .where(eq(levels.slug, 'maintain'));
  });
  afterAll(async () => {
    await t?.close();
  });

  async function maintainApplicant() {
    const a = await new Agent(t.app).start();
    const res = await a.post('/application/start', {
      email: `s3-letter-${randomBytes(4).toString('hex')}@example.com`,
      password: 'Booster-club-2026',
      level_id: maintainLevelId,
    });
    expect(res.statusCode, res.body).toBe(201);
    a.csrfToken = res.json().csrfToken;
    return { a, token: res.json().token as string };
  }
  const letter = (content: Buffer, fileName: string) => [{ field: 'file', fileName, content, type: 'application/pdf' }];

  it('stores the upload in the bucket under its storage key and serves the same bytes back', async () => {
    const { a, token } = await maintainApplicant();
    const res = await a.upload(`/application/upload/${token}`, {}, letter(PDF_MINIMAL, 'IRS letter.pdf'));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().file_upload.id as number;
    const [row] = await t.database.db.select().from(files).where(eq(files.id, id));
    expect(await bucketKeys(APP_BUCKET)).toEqual([row.storageKey]);

    const download = await a.get(`/application/upload/${token}/${id}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF_MINIMAL)).toBe(true);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="IRS letter.pdf"/);
  });

  it('keeps nothing in the bucket for a refused file: a program renamed .jpg, or one over the size limit', async () => {
    const { a, token } = await maintainApplicant();
    const before = await bucketKeys(APP_BUCKET);
    const renamed = await a.upload(`/application/upload/${token}`, {}, letter(WINDOWS_EXE, 'letter.jpg'));
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().errors.file).toEqual(['letter.jpg is not allowed.']);
    const tooBig = await a.upload(
      `/application/upload/${token}`,
      {},
      letter(Buffer.concat([PDF_MINIMAL, Buffer.alloc(65 * 1024, 0x20)]), 'scan.pdf'),
    );
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().errors.file).toEqual([expect.stringMatching(/^The file may not be larger than /)]);
    expect(await bucketKeys(APP_BUCKET)).toEqual(before);
  });
});
