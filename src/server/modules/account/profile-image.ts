import { and, eq } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { accounts, files } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { discardUpload, type ReceivedUpload } from '../files/receive-upload.ts';
import { insertFile, type FileRow } from '../files/stored-files.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';

/** docs/requirements/entities.md "Profile account": id and the header image's address ('' when none). */
export interface ProfileAccount {
  id: number;
  public_profile_image: string;
}

/** Where a header image is served from (public: it is shown on the public profile). */
const profileImageUrl = (accountId: number, fileId: number) => `/app/account/image/${accountId}/${fileId}`;

/**
 * The account a user may change the header image of: their own, or any for an admin.
 * @throws HttpError 404 for another account (docs/requirements/platform.md §5.6: never reveal it exists)
 */
async function editableAccount(db: Db, user: SessionUser, accountId: number) {
  if (!user.isAdmin && user.accountId !== accountId) throw notFound('The account');
  const [row] = await db
    .select({ id: accounts.id, image: accounts.publicProfileImage })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!row) throw notFound('The account');
  return row;
}

/** Removes an account's header image rows; returns their storage keys, to delete after commit. */
async function dropImages(tx: DbOrTx, accountId: number): Promise<string[]> {
  const old = await tx
    .delete(files)
    .where(and(eq(files.accountId, accountId), eq(files.purpose, 'profile_image')))
    .returning({ storageKey: files.storageKey });
  return old.map((f) => f.storageKey);
}

/**
 * Sets the public profile header image (docs/requirements/product.md tool 12, docs/requirements/calls.md "POST page-supplied
 * action (profile image or dropbox upload)"): jpeg, png or gif, checked by receiveUpload. The previous image is removed.
 * Writes: files (purpose profile_image), accounts.public_profile_image, audit_log when an admin
 * acts for the account; then deletes the previous stored object.
 * @returns the updated account
 * @throws HttpError 404 for another account; ValidationError from the upload
 */
export async function setProfileImage(
  db: Db,
  storage: FileStorage,
  user: SessionUser,
  accountId: number,
  receive: () => Promise<ReceivedUpload>,
  ip: string,
): Promise<ProfileAccount> {
  await editableAccount(db, user, accountId);
  const upload = await receive();
  let oldKeys: string[] = [];
  let url = '';
  try {
    await db.transaction(async (tx) => {
      oldKeys = await dropImages(tx, accountId);
      const row = await insertFile(tx, must(upload.files[0], 'the uploaded file'), 'profile_image', {
        accountId,
        uploadedBy: user.id,
      });
      url = profileImageUrl(accountId, row.id);
      await tx
        .update(accounts)
        .set({ publicProfileImage: url, updatedAt: new Date() })
        .where(eq(accounts.id, accountId));
      if (user.accountId !== accountId)
        await recordAudit(tx, {
          actorUserId: user.id,
          accountId,
          action: 'account.profile_image.set',
          details: { fileId: row.id },
          ip,
        });
    });
  } catch (err) {
    await discardUpload(storage, upload);
    throw err;
  }
  await Promise.all(oldKeys.map((k) => storage.delete(k)));
  return { id: accountId, public_profile_image: url };
}

/**
 * 'Clear image' (docs/requirements/calls.md POST /app/account/empty-image/{id}): removes the header image.
 * Writes: accounts.public_profile_image = '', deletes the files rows, then the stored objects.
 * @returns the updated account
 * @throws HttpError 404 for another account
 */
export async function clearProfileImage(
  db: Db,
  storage: FileStorage,
  user: SessionUser,
  accountId: number,
  ip: string,
): Promise<ProfileAccount> {
  await editableAccount(db, user, accountId);
  const keys = await db.transaction(async (tx) => {
    const removed = await dropImages(tx, accountId);
    await tx.update(accounts).set({ publicProfileImage: '', updatedAt: new Date() }).where(eq(accounts.id, accountId));
    if (user.accountId !== accountId)
      await recordAudit(tx, {
        actorUserId: user.id,
        accountId,
        action: 'account.profile_image.cleared',
        details: {},
        ip,
      });
    return removed;
  });
  await Promise.all(keys.map((k) => storage.delete(k)));
  return { id: accountId, public_profile_image: '' };
}

/**
 * A header image for the public profile (anyone may read it: the profile is public).
 * @throws HttpError 404 unless the file is that account's header image
 */
export async function findProfileImage(db: Db, accountId: number, fileId: number): Promise<FileRow> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.accountId, accountId), eq(files.purpose, 'profile_image')));
  if (!row) throw notFound('The image');
  return row;
}
