import { eq } from 'drizzle-orm';
import { bylawsFileName } from '../../../shared/bylaws/document.ts';
import { readLevelWizard, type FieldDefinition, type WizardConfig } from '../../../shared/forms/field-definition.ts';
import { checkFields, linesOf, normaliseValue, valueFields } from '../../../shared/forms/rules.ts';
import { prefillAnswers } from '../../../shared/rules/wizard-answers.ts';
import { DRAFT_VALUE_MAX, type ApplicationType } from '../../../shared/schemas/application.ts';
import { dropRefusedControls, stripControl } from '../../../shared/validation.ts';
import { applications, bylaws, files, levels } from '../../db/schema.ts';
import { HttpError, ValidationError } from '../../errors.ts';
import { findApplicationBylaw, hasWizardBylawFields, saveApplicationBylaw } from '../bylaws/bylaws.ts';
import { fileUploadEntry, type FileUploadEntry } from '../files/stored-files.ts';
import { listApplicationDocuments } from './application-documents.ts';
import { findApplication, type ApplicationRow, type LevelForWizard } from './find-application.ts';
import { askedFields, completeAnswers, wizardIrsCheck, type WizardIrsCheck } from './wizard-answers.ts';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';
import type { ApplicationHandle } from './application-handle.ts';

/** Shown on the last page (docs/requirements/screens.md "A submission alert is displayed only on the last page"). */
export const SUBMISSION_ALERT_FALLBACK =
  'By submitting, you confirm your answers are accurate. We will create an invoice for your level.';

export interface WizardView {
  /** The handle the wizard was opened with (the mailed token, or the id from the account's list). */
  token: string;
  type: ApplicationType;
  /** A deleted application is never shown (findApplication answers 404). */
  status: 'draft' | 'completed';
  level: { id: number; name: string };
  /** The page to resume at, 1-based. */
  page: number;
  config: WizardConfig;
  switch_url: string | null;
  /** The IRS record's fiscal year end for the EIN answered, when held (docs/wizard.md "Fiscal year and the IRS record"). */
  irs_fiscal_year: WizardIrsCheck['irs_fiscal_year'];
  /** Warnings about the saved answers that do not stop the application. */
  notices: string[];
  /** The bylaws document of the bylaws step, once that page is saved (docs/wizard.md "The bylaws step"). */
  bylaws: WizardBylaws | null;
}

export interface WizardBylaws {
  file_name: string;
  /** The .docx, for the application's owner only. */
  download_url: string;
  updated_at: string;
}

/** The wizard's view of the bylaws row its bylaws step wrote. */
function wizardBylawsView(
  row: { answers: Record<string, unknown>; updatedAt: Date } | null,
  handle: string,
): WizardBylaws | null {
  if (!row) return null;
  return {
    file_name: bylawsFileName(String(row.answers.name ?? '')),
    download_url: `/application/bylaws/${encodeURIComponent(handle)}`,
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The wizard configuration of docs/requirements/entities.md for an application. Dropbox actions written with `{token}`
 * in the level schema, and the switch address, get `handle`: the token or id the wizard was
 * opened with (only the token's hash is stored, so the server cannot write the token itself).
 * `fields.file_uploads` lists its documents.
 */
function wizardView(
  application: ApplicationRow,
  level: LevelForWizard,
  handle: string,
  submissionAlert: string,
  uploads: FileUploadEntry[] = [],
  bylaw: WizardBylaws | null = null,
  irs: WizardIrsCheck = { irs_fiscal_year: null, notices: [] },
): WizardView {
  const schemas = level.pages.map((p) => ({
    ...p,
    schema: p.schema.map((f) =>
      f.action?.includes('{token}') ? { ...f, action: f.action.replace('{token}', handle) } : f,
    ),
  }));
  return {
    token: handle,
    type: application.type as ApplicationType,
    status: application.status as WizardView['status'],
    level: { id: level.id, name: level.name },
    page: Math.min(Math.max(application.page, 1), Math.max(level.pages.length, 1)),
    config: {
      title: level.title ?? `${level.name} application`,
      // A draft saved before a question was prefilled shows the answer already given (docs/wizard.md "Answers asked once").
      fields: {
        ...(application.status === 'draft'
          ? prefillAnswers(application.fields, askedFields(level))
          : application.fields),
        file_uploads: uploads,
      },
      schemas,
      submission_alert: level.submissionAlert ?? submissionAlert,
      is_disabled: application.status !== 'draft',
      is_cancelable: application.status === 'draft',
    },
    switch_url: application.status === 'draft' ? `/application/switch/${handle}` : null,
    bylaws: bylaw,
    ...irs,
  };
}

/** GET the wizard for its owner. @throws HttpError 404 */
export async function getWizard(
  db: Db,
  handle: ApplicationHandle,
  userId: number,
  submissionAlert: string,
): Promise<WizardView> {
  const { application, level } = await findApplication(db, handle, userId);
  const uploads = await listApplicationDocuments(db, application.id);
  const bylaw = wizardBylawsView(await findApplicationBylaw(db, application.id), handle.text);
  return wizardView(
    application,
    level,
    handle.text,
    submissionAlert,
    uploads.map(fileUploadEntry),
    bylaw,
    await wizardIrsCheck(db, application.fields),
  );
}

/**
 * Wizard Next (docs/requirements/behaviour.md): validates page `page` (1-based) by its rules and saves its answers; the
 * draft resumes at the following page. Previous never calls this. Answers already given elsewhere
 * are prefilled or derived (completeAnswers, docs/wizard.md "Answers asked once"). Saving the
 * bylaws step writes its bylaws document (docs/wizard.md "The bylaws step"); on the last page the
 * draft stays there.
 * Writes: applications.fields, page, updated_at; bylaws (the application's row) for the bylaws step.
 * @param sessionHash sha256 of the session cookie, recorded on a new bylaws row
 * @returns the saved page number, all saved values, the bylaws document, if any, the IRS record's
 *   fiscal year for the EIN answered and warnings that do not stop the wizard (WizardIrsCheck,
 *   docs/wizard.md "Fiscal year and the IRS record")
 * @throws ValidationError with the page's field errors; HttpError 404; 409 when already submitted
 */
export async function saveWizardPage(
  db: Db,
  handle: ApplicationHandle,
  userId: number,
  page: number,
  submitted: Record<string, unknown>,
  sessionHash = '',
) {
  const { application, level } = await findApplication(db, handle, userId);
  if (application.status !== 'draft') throw new HttpError(409, 'This application has already been submitted.');
  const def = level.pages[page - 1];
  if (!def) throw ValidationError.field('page', 'The selected page is invalid.');
  const { values, errors } = checkFields(def.schema, submitted, application.fields);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  // Fields of this page that are now hidden (conditional) are dropped, not kept from before.
  const onPage = new Set(valueFields(def.schema).map((f) => f.name));
  const fields = Object.fromEntries(Object.entries(application.fields).filter(([k]) => !onPage.has(k)));
  Object.assign(fields, values);
  const saved = await completeAnswers(db, level, fields);
  const next = Math.min(page + 1, level.pages.length);
  const bylaw = await db.transaction(async (tx) => {
    await tx
      .update(applications)
      .set({ fields: saved, page: Math.max(next, 1), updatedAt: new Date() })
      .where(eq(applications.id, application.id));
    return hasWizardBylawFields(onPage)
      ? saveApplicationBylaw(tx, { applicationId: application.id, userId, sessionHash, values: saved })
      : findApplicationBylaw(tx, application.id);
  });
  return { page, fields: saved, bylaws: wizardBylawsView(bylaw, handle.text), ...(await wizardIrsCheck(db, saved)) };
}

/**
 * One answer as a draft keeps it: checkboxes 1 or 0, text without control characters (none its
 * field refuses: docs/security.md "Control characters in text") and cut at
 * DRAFT_VALUE_MAX, numbers as text, null as ''. Objects, arrays and booleans of other fields are
 * never a field's value: undefined, so the draft leaves the field alone.
 */
function draftValue(def: FieldDefinition, value: unknown): unknown {
  if (def.field_type === 'checkbox') return normaliseValue(def, value);
  if (typeof value === 'string') {
    // Not checked yet, but never kept with a control its field refuses (docs/security.md "Control characters in text").
    const lines = linesOf(def);
    const text = stripControl(value);
    return (lines ? dropRefusedControls(text, lines) : text).slice(0, DRAFT_VALUE_MAX);
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (value === null) return '';
  return undefined;
}

/**
 * Draft save (docs/wizard.md "Saving as you type"): keeps the answers of page `page` as typed so
 * far, without checking them and without moving the draft to another page: Next still checks the
 * page. Only that page's value fields are kept (other names are ignored), disabled fields keep their
 * value. The row is locked so a draft save and a Next of the same draft apply one after the other.
 * Writes: applications.fields, updated_at.
 * @returns the page and the names kept
 * @throws ValidationError for a page the level does not have; HttpError 404 not the user's
 *   application; 409 when already submitted
 */
export async function saveWizardDraft(
  db: Db,
  handle: ApplicationHandle,
  userId: number,
  page: number,
  submitted: Record<string, unknown>,
): Promise<{ page: number; saved: string[]; saved_at: string }> {
  return db.transaction(async (tx) => {
    const { application, level } = await findApplication(tx, handle, userId, true);
    if (application.status !== 'draft') throw new HttpError(409, 'This application has already been submitted.');
    const def = level.pages[page - 1];
    if (!def) throw ValidationError.field('page', 'The selected page is invalid.');
    const draft: Record<string, unknown> = {};
    for (const f of valueFields(def.schema)) {
      if (f.is_disabled || !Object.hasOwn(submitted, f.name)) continue;
      const value = draftValue(f, submitted[f.name]);
      if (value !== undefined) draft[f.name] = value;
    }
    const now = new Date();
    if (Object.keys(draft).length) {
      await tx
        .update(applications)
        .set({ fields: { ...application.fields, ...draft }, updatedAt: now })
        .where(eq(applications.id, application.id));
    }
    return { page, saved: Object.keys(draft), saved_at: now.toISOString() };
  });
}

/**
 * Validates every page against the submitted values (merged over the saved ones).
 * @returns the clean values of all pages (without the answers completeAnswers derives)
 * @throws ValidationError whose body also names the first page with an error (`page`)
 */
export function checkAllPages(
  level: LevelForWizard,
  submitted: Record<string, unknown>,
  saved: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...saved, ...submitted };
  const all: Record<string, unknown> = {};
  for (const [i, p] of level.pages.entries()) {
    const { values, errors } = checkFields(p.schema, merged, saved);
    if (Object.keys(errors).length) {
      const error = new ValidationError(errors);
      error.page = i + 1;
      throw error;
    }
    Object.assign(all, values);
  }
  return all;
}

/** The counterpart level of a switch: start-up levels ⇄ the maintain level. */
async function counterpartLevel(db: Db, type: string) {
  const slug = type === 'maintain' ? 'start-up' : 'maintain';
  const [row] = await db
    .select({ id: levels.id, slug: levels.slug, schema: levels.schema })
    .from(levels)
    .where(eq(levels.slug, slug));
  if (!row) throw new HttpError(409, 'There is no other application type to switch to.');
  return row;
}

/**
 * Switches a draft between start-up and maintain (docs/requirements/screens.md /application/switch/{token}), keeping
 * the answers whose fields exist in both wizards; the draft restarts at page 1.
 * Writes: applications.level_id, type, fields, page.
 * @throws HttpError 404; 409 when already submitted
 */
export async function switchApplication(db: Db, handle: ApplicationHandle, userId: number) {
  const { application } = await findApplication(db, handle, userId);
  if (application.status !== 'draft') throw new HttpError(409, 'This application has already been submitted.');
  const target = await counterpartLevel(db, application.type);
  const { pages } = readLevelWizard(target.schema);
  const shared = new Set(pages.flatMap((p) => valueFields(p.schema).map((f) => f.name)));
  const fields = Object.fromEntries(Object.entries(application.fields).filter(([k]) => shared.has(k)));
  const type = target.slug === 'maintain' ? 'maintain' : 'start-up';
  await db
    .update(applications)
    .set({ levelId: target.id, type, fields, page: 1, updatedAt: new Date() })
    .where(eq(applications.id, application.id));
  return { token: handle.text, redirect: `/application/create/${handle.text}` };
}

/**
 * Cancel → delete (docs/requirements/calls.md DELETE /application/delete): the draft is marked deleted, its link
 * stops working and its uploaded documents are removed.
 * Writes: applications.status; deletes its bylaws row and its files rows, then their stored objects.
 * @throws HttpError 404; 409 when already submitted
 */
export async function deleteApplication(db: Db, storage: FileStorage, handle: ApplicationHandle, userId: number) {
  const { application } = await findApplication(db, handle, userId);
  if (application.status !== 'draft') throw new HttpError(409, 'A submitted application cannot be deleted.');
  const removed = await db.transaction(async (tx) => {
    await tx
      .update(applications)
      .set({ status: 'deleted', updatedAt: new Date() })
      .where(eq(applications.id, application.id));
    // Its bylaws go with it, off the group home too.
    await tx.delete(bylaws).where(eq(bylaws.applicationId, application.id));
    return tx.delete(files).where(eq(files.applicationId, application.id)).returning({ storageKey: files.storageKey });
  });
  await Promise.all(removed.map((f) => storage.delete(f.storageKey)));
  return { redirect: '/pricing' };
}
