import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isStorageKey, StorageNotFound, type FileStorage, type StoredObject } from './storage.ts';

/** Where and how to reach the bucket; see {@link s3Storage}. */
export interface S3StorageOptions {
  bucket: string;
  /** e.g. 'us-east-1'; S3-compatible services usually accept any value. */
  region: string;
  /** Base URL of an S3-compatible service (MinIO, R2, …); AWS's own endpoint when absent. */
  endpoint?: string;
  /** Both keys, or neither: the SDK's default credential chain (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (most S3-compatible services want it). */
  forcePathStyle?: boolean;
  /** A folder in the bucket every key is stored under (e.g. 'goodstanding'); the keys themselves are kept as given. */
  prefix?: string;
  /**
   * Called once with the client before use, e.g. to add middleware for an S3-compatible peer that
   * reads bucket-level signatures differently (the tests' s3rver).
   */
  configureClient?: (client: S3Client) => void;
}

/** S3 and compatible services answer a missing object with NoSuchKey (GET) or a bare 404 (HEAD, some services). */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  if (e?.name === 'NoSuchKey' || e?.name === 'NotFound') return true;
  return e?.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket';
}

/**
 * Storage in an S3 bucket (docs/requirements/platform.md §5.7), for deployments where several servers share the uploads.
 * Objects are private (no ACL is set) and read back only through the app's checked routes.
 *
 * - `put(key, body)` streams a body of unknown length with lib-storage's `Upload` (one PutObject
 *   up to 5 MiB, a multipart upload beyond, at most a few 5 MiB parts in memory). When the source
 *   stream errors, or S3 refuses, `put` rejects with that error only after the multipart upload is
 *   aborted and the key deleted, so nothing is left; the source is destroyed if it was not used up.
 * - `get(key)` resolves to a Node Readable of the object's bytes.
 *   @throws StorageNotFound when the key does not exist (NoSuchKey / 404)
 * - `delete(key)` removes the object; a missing key resolves as well.
 * - `list(before)` yields the objects under the prefix last modified before `before`, 1,000 keys
 *   a page (ListObjectsV2); objects whose key is not a storage key are left out.
 *
 * Other S3 errors (credentials, a missing bucket, network) reject unchanged.
 * @param opts bucket, region and how to reach them; keys are stored as `${prefix}/${key}`, or `key`
 * @throws Error at once when only one of accessKeyId / secretAccessKey is given
 */
export function s3Storage(opts: S3StorageOptions): FileStorage {
  if (Boolean(opts.accessKeyId) !== Boolean(opts.secretAccessKey)) {
    throw new Error('s3Storage: give both accessKeyId and secretAccessKey, or neither');
  }
  const config: S3ClientConfig = {
    region: opts.region,
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle ?? false,
    credentials:
      opts.accessKeyId && opts.secretAccessKey
        ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
        : undefined,
  };
  const client = new S3Client(config);
  opts.configureClient?.(client);
  const Bucket = opts.bucket;
  const folder = (opts.prefix ?? '').replace(/^\/+|\/+$/g, '');
  const objectKey = (key: string) => (folder ? `${folder}/${key}` : key);

  return {
    async put(key, body) {
      const Key = objectKey(key);
      // The multipart upload (if one was started) is aborted below rather than by lib-storage, so the
      // error reported is the source's own and not a failure to abort.
      const upload = new Upload({ client, params: { Bucket, Key, Body: body }, leavePartsOnError: true });
      try {
        await upload.done();
      } catch (err) {
        // Nobody reads the source any more: end it so the producer stops too (as pipeline() does).
        if (!body.destroyed && !body.readableEnded) body.destroy(err as Error);
        // done() settles only after every part in flight has, so the abort below frees them all.
        if (upload.uploadId) {
          await client
            .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: upload.uploadId }))
            .catch(() => undefined);
        }
        // A PutObject or CompleteMultipartUpload may have been stored even though its answer was lost.
        await client.send(new DeleteObjectCommand({ Bucket, Key })).catch(() => undefined);
        throw err;
      }
    },

    async get(key) {
      let res;
      try {
        res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (err) {
        if (isMissing(err)) throw new StorageNotFound(key);
        throw err;
      }
      if (!(res.Body instanceof Readable)) throw new Error(`S3 GetObject gave no stream for ${key}`);
      return res.Body;
    },

    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    },

    async *list(before): AsyncGenerator<StoredObject> {
      const Prefix = folder ? `${folder}/` : undefined;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken, MaxKeys: 1000 }));
        for (const object of page.Contents ?? []) {
          const key = Prefix && object.Key?.startsWith(Prefix) ? object.Key.slice(Prefix.length) : object.Key;
          if (!key || !isStorageKey(key) || !object.LastModified) continue;
          if (object.LastModified.getTime() < before.getTime()) yield { key, writtenAt: object.LastModified };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}
