import { z } from 'zod';
import { checkText, hasRefusedControl, msg } from '../validation.ts';
import { checkbox } from './admin.ts';
import { rosterImportSummarySchema, rosterRowIssueSchema, type RosterRowIssue } from './roster-imports.ts';

export type { RosterRowIssue };

/**
 * The generic drag-and-drop uploader (docs/requirements/product.md tool 5, docs/requirements/entities.md "Generic upload", docs/requirements/calls.md): the text parts of its
 * multipart POST, and the answer the page broadcasts on 'file-uploaded'.
 */

/** Where the admin uploader posts (multipart: the fields below plus `uploads[]`). */
export const GENERIC_UPLOAD_ACTION = '/admin/uploads';
/** Files one request may carry. */
export const GENERIC_UPLOAD_MAX_FILES = 20;
/** Longest `params` text accepted. */
export const PARAMS_MAX_LENGTH = 10_000;

const PARAMS_INVALID = 'The params field must be a valid JSON object.';

/** The text parts of a generic upload: `create_new_accounts` 0/1, `profile_id` (group id, 0 = none), `params` (JSON object text). */
export const genericUploadFields = z.object({
  create_new_accounts: z.preprocess((v) => v ?? '0', checkbox),
  profile_id: z.preprocess(
    (v, ctx) => {
      const s = typeof v === 'string' ? checkText(v, ctx, 'profile id') : v;
      if (s === '' || s === null || s === undefined) return 0;
      return typeof s === 'string' ? (/^\d+$/.test(s) ? Number(s) : NaN) : s;
    },
    z
      .number({ error: 'The profile id field must be an integer.' })
      .int('The profile id field must be an integer.')
      .min(0, 'The profile id field must be at least 0.')
      .max(2_147_483_647, 'The profile id field must be an integer.'),
  ),
  params: z.preprocess(
    // JSON text over several lines is fine; a C1 or bidirectional control is not (checkText), in it or escaped in its texts.
    (v, ctx) =>
      v === undefined || v === null ? '{}' : typeof v === 'string' ? checkText(v, ctx, 'params', 'multi') || '{}' : v,
    z
      .string({ error: PARAMS_INVALID })
      .max(PARAMS_MAX_LENGTH, `The params field must not be greater than ${PARAMS_MAX_LENGTH} characters.`)
      .transform((text, ctx) => {
        try {
          const value: unknown = JSON.parse(text);
          if (value && typeof value === 'object' && !Array.isArray(value)) {
            if (!hasRefusedControl(JSON.stringify(value), 'multi')) return value as Record<string, unknown>;
            ctx.addIssue({ code: 'custom', message: msg.noControl('params') });
            return z.NEVER;
          }
        } catch {
          // reported below
        }
        ctx.addIssue({ code: 'custom', message: PARAMS_INVALID });
        return z.NEVER;
      }),
  ),
});
export type GenericUploadFields = z.infer<typeof genericUploadFields>;

/** A stored file as the uploader answers it; `uploaded_at` ISO 8601. */
const uploadedFileEntrySchema = z.object({
  id: z.number().int(),
  file_name: z.string(),
  size_bytes: z.number().int(),
  mime_type: z.string(),
  uploaded_at: z.string(),
});

/** How each roster file was read. `layout` 'irs-bmf': the IRS EO BMF extract layout; 'roster': name, email, city, state, ein. */
const rosterFileReportSchema = z.object({
  file_name: z.string(),
  layout: z.enum(['irs-bmf', 'roster']),
  read: z.number().int(),
  created: z.number().int(),
  skipped: z.number().int(),
  rejected: z.number().int(),
});
export type RosterFileReport = z.output<typeof rosterFileReportSchema>;

/** How many skipped and rejected rows an answer lists. */
export const ISSUES_LISTED = 100;

/** The account import of one upload (create_new_accounts=1). Counts are exact; the lists are capped. */
const rosterImportReportSchema = z.object({
  group: z.object({ id: z.number().int(), label: z.string() }).nullable(),
  /** Data rows read, over all files. */
  read: z.number().int(),
  created: z.number().int(),
  skipped_count: z.number().int(),
  rejected_count: z.number().int(),
  /** Duplicates (by EIN or e-mail) of an existing account or of an earlier row: the first {@link ISSUES_LISTED}. */
  skipped: z.array(rosterRowIssueSchema),
  /** Rows that could not be read or checked (missing name, bad EIN, ...): the first {@link ISSUES_LISTED}. */
  rejected: z.array(rosterRowIssueSchema),
  files: z.array(rosterFileReportSchema),
});
export type RosterImportReport = z.output<typeof rosterImportReportSchema>;

/** The answer of a generic upload, broadcast on 'file-uploaded' (docs/requirements/calls.md). */
export const genericUploadResultSchema = z.object({
  files: z.array(uploadedFileEntrySchema),
  params: z.record(z.string(), z.unknown()),
  /** The account import of the files in the simple roster layout; null when there are none. */
  import: rosterImportReportSchema.nullable(),
  /**
   * The preview staged from the files in the IRS EO BMF layout (docs/irs-data.md "Roster
   * import"): nothing is written to accounts until staff confirm it; null when there are none.
   */
  roster_import: rosterImportSummarySchema.nullable(),
});
export type GenericUploadResult = z.output<typeof genericUploadResultSchema>;

/** What the admin uploader page needs: the groups new accounts can join and the limits (`max_bytes` in bytes). */
export const genericUploadOptionsSchema = z.object({
  groups: z.array(z.object({ id: z.number().int(), label: z.string(), gen: z.string().nullable() })),
  max_bytes: z.number().int(),
  max_files: z.number().int(),
});
export type GenericUploadOptions = z.output<typeof genericUploadOptionsSchema>;
