import { parse, type CsvError } from 'csv-parse';
import { sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { ISSUES_LISTED, type RosterFileReport, type RosterRowIssue } from '../../../shared/schemas/generic-upload.ts';
import { accounts } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { linkIrsFacts } from '../irs-data/link-irs-facts.ts';
import { detectLayout, rowToAccount, unknownLayoutMessage, type AccountDraft } from './roster-rows.ts';
import type { Tx } from '../../db/client.ts';
import type { Readable } from 'node:stream';

/** Rows per duplicate check and INSERT (28 columns each stay well under PostgreSQL's 65,535 parameters). */
const BATCH_SIZE = 500;
/** Longest CSV record read; a runaway quoted field is rejected instead of buffered. */
const MAX_RECORD_BYTES = 1024 * 1024;

/** Counts over every file of one upload, with the first skipped and rejected rows listed. */
export class ImportTally {
  read = 0;
  created = 0;
  skippedCount = 0;
  rejectedCount = 0;
  skipped: RosterRowIssue[] = [];
  rejected: RosterRowIssue[] = [];

  skip(issue: RosterRowIssue) {
    this.skippedCount++;
    if (this.skipped.length < ISSUES_LISTED) this.skipped.push(issue);
  }

  reject(issue: RosterRowIssue) {
    this.rejectedCount++;
    if (this.rejected.length < ISSUES_LISTED) this.rejected.push(issue);
  }
}

/**
 * The first record of a CSV file (its header), for choosing how the file is imported; reads no
 * further and closes the stream.
 * @returns the header's fields, or null for an empty file or one CSV cannot read
 */
export async function readHeaderRow(body: Readable): Promise<string[] | null> {
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  body.on('error', (err) => parser.destroy(err));
  body.pipe(parser);
  try {
    for await (const record of parser as AsyncIterable<string[]>) return record;
    return null;
  } catch {
    return null;
  } finally {
    body.unpipe(parser);
    body.destroy();
    parser.destroy();
  }
}

interface Pending {
  row: number;
  account: AccountDraft;
}

/**
 * Creates one account per row of a CSV roster (docs/requirements/product.md tool 5 "create accounts for uploaded
 * records") in the simple roster layout (name, email, city, state, ein; header names
 * case-insensitive). Files in the IRS EO BMF layout are never imported here: they are staged as a
 * preview for a GEN (stageRosterImport, docs/irs-data.md "Roster import").
 * Streams the file with csv-parse, so its size only costs time. A row whose EIN or e-mail is
 * already an account's, or repeats an earlier row, is skipped; a row that cannot be read or
 * checked is rejected (see `rowToAccount`); the rest are inserted in batches.
 * Writes: accounts rows (group `groupId`), inside the caller's transaction.
 * @param body the file's bytes
 * @param tally counts and listed issues of the whole upload, updated in place
 * @returns this file's counts and layout
 * @throws ValidationError on `uploads` when the header is neither layout
 */
export async function importRosterFile(
  tx: Tx,
  body: Readable,
  opts: { fileName: string; groupId: number | null; tally: ImportTally },
): Promise<RosterFileReport> {
  const { fileName, groupId, tally } = opts;
  const report: RosterFileReport = {
    file_name: fileName,
    layout: 'roster',
    read: 0,
    created: 0,
    skipped: 0,
    rejected: 0,
  };
  const skip = (row: number, reason: string) => {
    report.skipped++;
    tally.skip({ file_name: fileName, row, reason });
  };
  const reject = (row: number, reason: string) => {
    report.rejected++;
    tally.reject({ file_name: fileName, row, reason });
  };

  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    max_record_size: MAX_RECORD_BYTES,
    skip_records_with_error: true,
    info: true,
    on_skip: (err: CsvError | undefined) => {
      report.read++;
      tally.read++;
      reject(
        Number((err as { lines?: unknown } | undefined)?.lines ?? 0),
        `The row could not be read: ${err?.message ?? 'invalid CSV'}`,
      );
      return undefined;
    },
  });
  body.on('error', (err) => parser.destroy(err));
  body.pipe(parser);

  // Rows seen in this file, by EIN and e-mail, with the row that had them first.
  const einRow = new Map<string, number>();
  const emailRow = new Map<string, number>();
  let layout: ReturnType<typeof detectLayout> | undefined;
  let batch: Pending[] = [];

  const flush = async () => {
    if (!batch.length) return;
    const pending = batch;
    batch = [];
    const eins = pending.map((p) => p.account.ein).filter((e): e is string => !!e);
    const emails = pending.map((p) => p.account.email).filter((e): e is string => !!e);
    const existing = await tx
      .select({ ein: accounts.ein, email: sql<string | null>`lower(${accounts.email})` })
      .from(accounts)
      .where(
        sql`${accounts.ein} = ANY(${sql.param(eins)}::text[]) OR lower(${accounts.email}) = ANY(${sql.param(emails)}::text[])`,
      );
    const takenEins = new Set(existing.map((e) => e.ein));
    const takenEmails = new Set(existing.map((e) => e.email));
    const fresh: Pending[] = [];
    for (const p of pending) {
      if (p.account.ein && takenEins.has(p.account.ein))
        skip(p.row, `An account with EIN ${p.account.ein} already exists.`);
      else if (p.account.email && takenEmails.has(p.account.email))
        skip(p.row, `An account with the e-mail ${p.account.email} already exists.`);
      else fresh.push(p);
    }
    if (!fresh.length) return;
    // A concurrent upload may have created the same EIN or e-mail since the check: DO NOTHING skips it.
    const inserted = await tx
      .insert(accounts)
      .values(fresh.map((p) => p.account))
      .onConflictDoNothing()
      .returning({ ein: accounts.ein, email: accounts.email });
    // Accounts the IRS data already knows take its facts now (docs/irs-data.md "IRS facts").
    await linkIrsFacts(
      tx,
      inserted.map((r) => r.ein).filter((e): e is string => !!e),
    );
    const insertedEins = new Set(inserted.map((r) => r.ein));
    const insertedEmails = new Set(inserted.map((r) => r.email));
    for (const p of fresh) {
      const done = p.account.ein ? insertedEins.has(p.account.ein) : insertedEmails.has(p.account.email);
      if (done) {
        report.created++;
        tally.created++;
      } else skip(p.row, 'An account with this EIN or e-mail was created by another upload meanwhile.');
    }
  };

  try {
    await readRows();
  } finally {
    body.destroy();
  }
  await flush();
  return report;

  async function readRows() {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // The line the record starts on: quoted fields may span lines.
      const row = info.lines - record.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);
      if (layout === undefined) {
        layout = detectLayout(record);
        if (!layout) throw ValidationError.field('uploads', unknownLayoutMessage(fileName));
        // IRS files never create listed accounts directly: they are staged (stageRosterImport).
        if (layout.kind === 'irs-bmf')
          throw new Error(`${fileName} is an IRS EO BMF file: stage it with stageRosterImport`);
        report.layout = layout.kind;
        continue;
      }
      report.read++;
      tally.read++;
      const outcome = rowToAccount(must(layout, 'the layout read from the header'), record, groupId);
      if ('reason' in outcome) {
        reject(row, outcome.reason);
        continue;
      }
      const { ein, email } = outcome.account;
      const sameEin = ein ? einRow.get(ein) : undefined;
      const sameEmail = email ? emailRow.get(email) : undefined;
      if (sameEin !== undefined) {
        skip(row, `EIN ${ein} is on an earlier row (${sameEin}).`);
        continue;
      }
      if (sameEmail !== undefined) {
        skip(row, `The e-mail ${email} is on an earlier row (${sameEmail}).`);
        continue;
      }
      if (ein) einRow.set(ein, row);
      if (email) emailRow.set(email, row);
      batch.push({ row, account: outcome.account });
      if (batch.length >= BATCH_SIZE) await flush();
    }
    if (!layout) throw ValidationError.field('uploads', unknownLayoutMessage(fileName));
  }
}
