import { eq, isNotNull } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { ALLOWED_EXTENSIONS, checkFileName } from '../../../shared/rules/uploads.ts';
import {
  genericUploadFields,
  type GenericUploadResult,
  type RosterFileReport,
} from '../../../shared/schemas/generic-upload.ts';
import { liftStatementTimeout, type Db } from '../../db/client.ts';
import { vacuumAnalyze } from '../../db/maintenance.ts';
import { groups } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { parseInput } from '../../validate.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { discardUpload, type ReceivedUpload } from '../files/receive-upload.ts';
import { fileUploadEntry, insertFile } from '../files/stored-files.ts';
import { getRosterImport } from './get-roster-import.ts';
import { ImportTally, importRosterFile, readHeaderRow } from './import-roster.ts';
import { detectLayout, unknownLayoutMessage } from './roster-rows.ts';
import { stageRosterImport, type GenGroup } from './stage-roster-import.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';

/** Accounts created by one upload from which the planner statistics are refreshed (PGlite has no autovacuum). */
const VACUUM_AFTER_CREATED = 1000;

export interface UploadActor {
  userId: number;
  ip: string;
  /** Where a failed after-commit maintenance step is reported (the upload itself has succeeded). */
  log: { warn(obj: object, msg: string): void };
}

/**
 * The group an IRS EO BMF file is imported for (docs/irs-data.md "Roster import"): the chosen
 * group when it has a GEN, or with no group chosen the only group that has one.
 * @throws ValidationError 422 on `profile_id` when the chosen group has no GEN, or none was chosen
 *   and not exactly one group has a GEN
 */
async function genGroupFor(db: Db, profileId: number): Promise<GenGroup> {
  if (profileId > 0) {
    const [group] = await db
      .select({ id: groups.id, label: groups.label, gen: groups.gen })
      .from(groups)
      .where(eq(groups.id, profileId));
    if (!group) throw ValidationError.field('profile_id', 'The selected profile id is invalid.');
    if (!group.gen) {
      throw ValidationError.field(
        'profile_id',
        `An IRS EO BMF file is imported for a group exemption, and the group "${group.label}" has no GEN. Choose the group of the central organization's GEN.`,
      );
    }
    return { ...group, gen: group.gen };
  }
  const withGen = await db
    .select({ id: groups.id, label: groups.label, gen: groups.gen })
    .from(groups)
    .where(isNotNull(groups.gen))
    .limit(2);
  const [only] = withGen;
  if (only && withGen.length === 1)
    return { ...only, gen: must(only.gen, 'the GEN (the query keeps only groups with one)') };
  throw ValidationError.field(
    'profile_id',
    withGen.length
      ? 'An IRS EO BMF file is imported for a group exemption: choose the group whose GEN it is for.'
      : 'An IRS EO BMF file is imported for a group exemption, and no group has a GEN.',
  );
}

/**
 * The generic uploader's POST (docs/requirements/product.md tool 5, docs/requirements/entities.md "Generic upload", docs/requirements/calls.md), after `receiveUpload` has
 * stored and checked the files (any type but the forbidden list). Reads the text parts
 * (`create_new_accounts`, `profile_id`, `params`), writes one `files` row per file and, when
 * `create_new_accounts` is 1, reads each file's header: a simple roster (name, email, city, state,
 * ein) creates accounts in group `profile_id` (0: no group) as before; the files in the IRS EO BMF
 * layout are staged together as one preview for the GEN of `profile_id` (or of the only group with
 * a GEN), writing nothing to accounts until staff confirm it (docs/irs-data.md "Roster import").
 * Everything is one transaction: on any failure no row is kept and the stored objects are
 * removed. After an import of many accounts the accounts table is vacuumed and analyzed.
 * Writes: files (purpose 'roster' when importing, else 'any'), accounts, roster_imports and
 * roster_import_rows, audit_log ('uploads.stored', 'accounts.imported', 'roster_import.staged').
 * @returns the stored files, `params` as sent, the roster import report (null without simple
 *   roster files) and the staged preview (null without IRS files)
 * @throws ValidationError 422 on `create_new_accounts`, `profile_id` (also an unknown group, or
 *   no group with a GEN for an IRS file), `params` (not a JSON object), or `uploads` (a file other
 *   than .csv/.txt when importing, a file whose header is not a roster)
 */
export async function receiveGenericUpload(
  db: Db,
  storage: FileStorage,
  upload: ReceivedUpload,
  actor: UploadActor,
): Promise<GenericUploadResult> {
  let result: GenericUploadResult;
  try {
    const input = parseInput(genericUploadFields, upload.fields);
    const layouts: ('irs-bmf' | 'roster')[] = [];
    if (input.create_new_accounts) {
      for (const f of upload.files) {
        const refused = checkFileName(f.fileName, ALLOWED_EXTENSIONS.roster);
        if (refused) throw ValidationError.field('uploads', refused);
      }
    }
    let group: { id: number; label: string } | null = null;
    if (input.profile_id > 0) {
      [group = null] = await db
        .select({ id: groups.id, label: groups.label })
        .from(groups)
        .where(eq(groups.id, input.profile_id));
      if (!group) throw ValidationError.field('profile_id', 'The selected profile id is invalid.');
    }
    if (input.create_new_accounts) {
      for (const f of upload.files) {
        const header = await readHeaderRow(await storage.get(f.storageKey));
        const layout = header && detectLayout(header);
        if (!layout) throw ValidationError.field('uploads', unknownLayoutMessage(f.fileName));
        layouts.push(layout.kind);
      }
    }
    const genGroup = layouts.includes('irs-bmf') ? await genGroupFor(db, input.profile_id) : null;

    result = await db.transaction(async (tx) => {
      const purpose = input.create_new_accounts ? 'roster' : 'any';
      const rows: Awaited<ReturnType<typeof insertFile>>[] = [];
      for (const f of upload.files) rows.push(await insertFile(tx, f, purpose, { uploadedBy: actor.userId }));
      if (!input.create_new_accounts) {
        await recordAudit(tx, {
          actorUserId: actor.userId,
          action: 'uploads.stored',
          ip: actor.ip,
          details: { file_ids: rows.map((r) => r.id), params: input.params },
        });
        return { files: rows.map(fileUploadEntry), params: input.params, import: null, roster_import: null };
      }
      // A roster of the full size limit runs for longer than one request's statements may.
      await liftStatementTimeout(tx);
      const rosterFiles = upload.files
        .map((f, i) => ({ f, row: must(rows[i], `the stored row of ${f.fileName}`) }))
        .filter((_, i) => layouts[i] === 'roster');
      const bmfFiles = upload.files
        .map((f, i) => ({ f, row: must(rows[i], `the stored row of ${f.fileName}`) }))
        .filter((_, i) => layouts[i] === 'irs-bmf');

      let staged: { id: number } | null = null;
      if (genGroup) {
        staged = await stageRosterImport(
          tx,
          bmfFiles.map(({ f, row }) => ({
            fileName: f.fileName,
            fileId: row.id,
            open: () => storage.get(f.storageKey),
          })),
          genGroup,
          { userId: actor.userId, ip: actor.ip },
        );
      }
      let report: GenericUploadResult['import'] = null;
      if (rosterFiles.length) {
        const tally = new ImportTally();
        const reports: RosterFileReport[] = [];
        for (const { f } of rosterFiles) {
          reports.push(
            await importRosterFile(tx, await storage.get(f.storageKey), {
              fileName: f.fileName,
              groupId: group?.id ?? null,
              tally,
            }),
          );
        }
        await recordAudit(tx, {
          actorUserId: actor.userId,
          action: 'accounts.imported',
          ip: actor.ip,
          details: {
            file_ids: rosterFiles.map(({ row }) => row.id),
            group_id: group?.id ?? null,
            read: tally.read,
            created: tally.created,
            skipped: tally.skippedCount,
            rejected: tally.rejectedCount,
            params: input.params,
          },
        });
        report = {
          group,
          read: tally.read,
          created: tally.created,
          skipped_count: tally.skippedCount,
          rejected_count: tally.rejectedCount,
          skipped: tally.skipped,
          rejected: tally.rejected,
          files: reports,
        };
      }
      return {
        files: rows.map(fileUploadEntry),
        params: input.params,
        import: report,
        roster_import: staged ? await getRosterImport(tx, staged.id) : null,
      };
    });
  } catch (err) {
    await discardUpload(storage, upload);
    throw err;
  }
  if ((result.import?.created ?? 0) >= VACUUM_AFTER_CREATED) {
    await vacuumAnalyze(db, 'accounts').catch((err: unknown) =>
      actor.log.warn({ err }, 'VACUUM (ANALYZE) accounts after a roster import failed'),
    );
  }
  return result;
}
