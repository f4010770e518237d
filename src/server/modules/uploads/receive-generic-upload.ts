import { eq } from 'drizzle-orm';
import { liftStatementTimeout, type Db } from '../../db/client.ts';
import { groups } from '../../db/schema.ts';
import { vacuumAnalyze } from '../../db/maintenance.ts';
import { ValidationError } from '../../errors.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';
import { ALLOWED_EXTENSIONS, checkFileName } from '../../../shared/rules/uploads.ts';
import { genericUploadFields, type GenericUploadResult, type RosterFileReport } from '../../../shared/schemas/generic-upload.ts';
import { parseInput } from '../../validate.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { discardUpload, type ReceivedUpload } from '../files/receive-upload.ts';
import { fileUploadEntry, insertFile } from '../files/stored-files.ts';
import { ImportTally, importRosterFile } from './import-roster.ts';

/** Accounts created by one upload from which the planner statistics are refreshed (PGlite has no autovacuum). */
const VACUUM_AFTER_CREATED = 1000;

export interface UploadActor {
  userId: number;
  ip: string;
  /** Where a failed after-commit maintenance step is reported (the upload itself has succeeded). */
  log: { warn(obj: object, msg: string): void };
}

/**
 * The generic uploader's POST (SPEC tool 5, §3 "Generic upload", §7), after `receiveUpload` has
 * stored and checked the files (any type but the forbidden list). Reads the text parts
 * (`create_new_accounts`, `profile_id`, `params`), writes one `files` row per file and, when
 * `create_new_accounts` is 1, imports each file as a CSV roster into group `profile_id` (0: no
 * group). Everything is one transaction: on any failure no row is kept and the stored objects are
 * removed. After an import of many accounts the accounts table is vacuumed and analyzed.
 * Writes: files (purpose 'roster' when importing, else 'any'), accounts, audit_log
 * ('uploads.stored' or 'accounts.imported').
 * @returns the stored files, `params` as sent, and the import report (null without import)
 * @throws ValidationError 422 on `create_new_accounts`, `profile_id` (also an unknown group),
 *   `params` (not a JSON object), or `uploads` (a file other than .csv/.txt when importing, a file
 *   whose header is not a roster)
 */
export async function receiveGenericUpload(db: Db, storage: FileStorage, upload: ReceivedUpload, actor: UploadActor): Promise<GenericUploadResult> {
  let result: GenericUploadResult;
  try {
    const input = parseInput(genericUploadFields, upload.fields);
    if (input.create_new_accounts) {
      for (const f of upload.files) {
        const refused = checkFileName(f.fileName, ALLOWED_EXTENSIONS.roster);
        if (refused) throw ValidationError.field('uploads', refused);
      }
    }
    let group: { id: number; label: string } | null = null;
    if (input.profile_id > 0) {
      [group = null] = await db.select({ id: groups.id, label: groups.label }).from(groups).where(eq(groups.id, input.profile_id));
      if (!group) throw ValidationError.field('profile_id', 'The selected profile id is invalid.');
    }

    result = await db.transaction(async (tx) => {
      const purpose = input.create_new_accounts ? 'roster' : 'any';
      const rows = [];
      for (const f of upload.files) rows.push(await insertFile(tx, f, purpose, { uploadedBy: actor.userId }));
      if (!input.create_new_accounts) {
        await recordAudit(tx, { actorUserId: actor.userId, action: 'uploads.stored', ip: actor.ip, details: { file_ids: rows.map((r) => r.id), params: input.params } });
        return { files: rows.map(fileUploadEntry), params: input.params, import: null };
      }
      // A roster of the full size limit runs for longer than one request's statements may.
      await liftStatementTimeout(tx);
      const tally = new ImportTally();
      const reports: RosterFileReport[] = [];
      for (const f of upload.files) {
        reports.push(await importRosterFile(tx, await storage.get(f.storageKey), { fileName: f.fileName, groupId: group?.id ?? null, tally }));
      }
      await recordAudit(tx, {
        actorUserId: actor.userId, action: 'accounts.imported', ip: actor.ip,
        details: { file_ids: rows.map((r) => r.id), group_id: group?.id ?? null, read: tally.read, created: tally.created, skipped: tally.skippedCount, rejected: tally.rejectedCount, params: input.params },
      });
      return {
        files: rows.map(fileUploadEntry),
        params: input.params,
        import: {
          group, read: tally.read, created: tally.created, skipped_count: tally.skippedCount, rejected_count: tally.rejectedCount,
          skipped: tally.skipped, rejected: tally.rejected, files: reports,
        },
      };
    });
  } catch (err) {
    await discardUpload(storage, upload);
    throw err;
  }
  if ((result.import?.created ?? 0) >= VACUUM_AFTER_CREATED) {
    await vacuumAnalyze(db, 'accounts').catch((err: unknown) => actor.log.warn({ err }, 'VACUUM (ANALYZE) accounts after a roster import failed'));
  }
  return result;
}
