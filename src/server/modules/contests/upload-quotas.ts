import { HttpError } from '../../errors.ts';
import { addIfWithin, usageToday } from '../quotas/daily-counters.ts';
import type { UploadQuota } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';

/** The answer past a contest upload quota (429). */
export const UPLOAD_QUOTA_REACHED =
  "You have reached today's upload limit for contest entries. Please try again tomorrow.";

export const quotaReached = () => new HttpError(429, UPLOAD_QUOTA_REACHED);

/** The daily_counters keys of contest uploads: one per client IP, one per entry e-mail address (lower case). */
const ipQuotaKey = (ip: string) => `contest-upload:ip:${ip}`;
const addressQuotaKey = (email: string) => `contest-upload:email:${email.toLowerCase()}`;

/** The quotas one upload counts against: its IP's, and its address's when the address is known. */
export interface QuotaKeys {
  ip: string;
  email: string | null;
  quotas: { perAddress: UploadQuota; perIp: UploadQuota };
}

function keysOf(k: QuotaKeys): { key: string; quota: UploadQuota }[] {
  const keys = [{ key: ipQuotaKey(k.ip), quota: k.quotas.perIp }];
  if (k.email) keys.push({ key: addressQuotaKey(k.email), quota: k.quotas.perAddress });
  // Always in key order, so two transactions counting the same keys cannot deadlock.
  return keys.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Refuses at once, before any byte of the request is read, a client IP that has used up its
 * files or bytes for today (docs/security.md "Upload quotas").
 * @throws HttpError 429 UPLOAD_QUOTA_REACHED
 */
export async function assertIpUnderQuota(db: Db, ip: string, quota: UploadQuota): Promise<void> {
  const used = await usageToday(db, ipQuotaKey(ip));
  if (used.count >= quota.files || used.bytes >= quota.bytes) throw quotaReached();
}

/**
 * Counts one more upload against the IP's quota and the address's (when known), atomically across
 * servers, before the file's bytes are read: both must have a file and at least one byte left.
 * Writes: the keys' daily_counters rows (count + 1), in one transaction, or nothing.
 * @returns the bytes left today: the least of the keys' remaining bytes
 * @throws HttpError 429 UPLOAD_QUOTA_REACHED
 */
export async function reserveUpload(db: Db, k: QuotaKeys): Promise<number> {
  return db.transaction(async (tx) => {
    let left = Infinity;
    for (const { key, quota } of keysOf(k)) {
      const after = await addIfWithin(tx, key, { count: 1, bytes: 0 }, { count: quota.files, bytes: quota.bytes });
      if (!after || after.bytes >= quota.bytes) throw quotaReached();
      left = Math.min(left, quota.bytes - after.bytes);
    }
    return left;
  });
}

/**
 * Charges a stored file's bytes to the IP's and the address's quotas, inside the transaction that
 * keeps the file; `countAddress` also counts the file against the address (when the address was
 * not known before the bytes were read). Refuses when a quota would be passed, so uploads running
 * at once on several servers cannot together keep more than the quota.
 * Writes: the keys' daily_counters rows.
 * @throws HttpError 429 UPLOAD_QUOTA_REACHED (the caller's transaction then keeps nothing)
 */
export async function chargeUploadBytes(
  tx: DbOrTx,
  k: QuotaKeys & { email: string },
  bytes: number,
  countAddress: boolean,
): Promise<void> {
  for (const { key, quota } of keysOf(k)) {
    const count = countAddress && key === addressQuotaKey(k.email) ? 1 : 0;
    if (!(await addIfWithin(tx, key, { count, bytes }, { count: quota.files, bytes: quota.bytes })))
      throw quotaReached();
  }
}
