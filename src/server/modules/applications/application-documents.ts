import { and, asc, eq } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { files } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { discardUpload, type ReceivedUpload } from '../files/receive-upload.ts';
import { fileUploadEntry, insertFile, type FileRow, type FileUploadEntry } from '../files/stored-files.ts';
import { findApplication } from './find-application.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';
import type { ApplicationHandle } from './application-handle.ts';

/** The documents uploaded to an application, oldest first. */
export async function listApplicationDocuments(db: DbOrTx, applicationId: number): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(eq(files.applicationId, applicationId), eq(files.purpose, 'application_document')))
    .orderBy(asc(files.id));
}

/**
 * A wizard dropbox upload (docs/requirements/entities.md field type "file dropbox", docs/requirements/calls.md "POST page-supplied action"):
 * checks the draft belongs to the user before reading the body, stores the file, then writes
 * its row. Writes: storage object, then files (purpose application_document).
 * @param receive reads and stores the multipart body (receiveUpload bound to the request)
 * @returns the new entry (`file_upload`) and the whole list (`file_uploads`), each with `file_name`
 * @throws HttpError 404 unknown or someone else's token or id; 409 submitted; ValidationError from receive
 */
export async function uploadApplicationDocument(
  db: Db,
  storage: FileStorage,
  handle: ApplicationHandle,
  userId: number,
  receive: () => Promise<ReceivedUpload>,
): Promise<{ file_upload: FileUploadEntry; file_uploads: FileUploadEntry[] }> {
  const { application } = await findApplication(db, handle, userId);
  if (application.status !== 'draft') throw new HttpError(409, 'This application has already been submitted.');
  const upload = await receive();
  try {
    const row = await insertFile(db, must(upload.files[0], 'the uploaded file'), 'application_document', {
      applicationId: application.id,
      uploadedBy: userId,
    });
    const all = await listApplicationDocuments(db, application.id);
    return { file_upload: fileUploadEntry(row), file_uploads: all.map(fileUploadEntry) };
  } catch (err) {
    await discardUpload(storage, upload);
    throw err;
  }
}

/**
 * One document of the applicant's own application, for download.
 * @throws HttpError 404 when the application or the file is not theirs
 */
export async function findApplicationDocument(
  db: Db,
  handle: ApplicationHandle,
  userId: number,
  fileId: number,
): Promise<FileRow> {
  const { application } = await findApplication(db, handle, userId);
  const [row] = await db
    .select()
    .from(files)
    .where(
      and(eq(files.id, fileId), eq(files.applicationId, application.id), eq(files.purpose, 'application_document')),
    );
  if (!row) throw notFound('The file');
  return row;
}
