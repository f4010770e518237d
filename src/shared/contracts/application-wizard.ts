import { z } from 'zod';
import {
  APPLICATION_TYPES,
  applicationStartSchema,
  wizardDraftSchema,
  wizardPageSchema,
} from '../schemas/application.ts';
import { fileAnswer, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';
import type { WizardConfig } from '../forms/field-definition.ts';

/** A Word document (.docx); written here, not taken from ./bylaws.ts, so the wizard's screen does not load the generator's schemas. */
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** `{token}` of these addresses: the mailed token or, from the account's list, the application's id. */
const tokenParams = z.object({ token: z.string() });

/** The IRS record's fiscal year end for the EIN answered (docs/wizard.md "Fiscal year and the IRS record"). */
const irsFiscalYearSchema = z.object({
  /** 9 digits. */
  ein: z.string(),
  /** The month (1-12) the accounting period ends. */
  month: z.number().int(),
  /** 'YYYY-MM-DD' of the IRS release it was read from. */
  releasedOn: z.string(),
});

/** The bylaws step's Word document (docs/wizard.md "The bylaws step"). */
const wizardBylawsSchema = z.object({
  file_name: z.string(),
  /** The .docx, for the application's owner only. */
  download_url: z.string(),
  updated_at: z.string(),
});

/** What the wizard learns of the IRS record and the warnings that do not stop it. */
const irsCheck = {
  irs_fiscal_year: irsFiscalYearSchema.nullable(),
  /** Warnings that do not stop the application, e.g. a fiscal year end that differs from the IRS record. */
  notices: z.array(z.string()),
};

/**
 * The wizard's configuration (docs/requirements/entities.md "Dynamic form configuration"): the
 * level's pages and fields as the level's schema defines them, sent as they are.
 */
const wizardConfigSchema = z
  .custom<WizardConfig>((v) => typeof v === 'object' && v !== null)
  .describe('The wizard configuration: title, fields (initial values), schemas (pages), submission_alert');

/** One of the signed-in user's applications with its wizard (GET /api/applications/:token). */
const applicationViewSchema = z.object({
  /** The handle the wizard was opened with; the wizard's own links use it. */
  token: z.string(),
  type: z.enum(APPLICATION_TYPES),
  status: z.enum(['draft', 'completed']),
  level: z.object({ id: z.number().int(), name: z.string() }),
  /** The last saved page, 1-based: the wizard resumes there. */
  page: z.number().int(),
  config: wizardConfigSchema,
  /** Where to switch start-up ⇄ maintain; null when switching is not offered. */
  switch_url: z.string().nullable(),
  ...irsCheck,
  /** The bylaws document of the bylaws step, once that page is saved. */
  bylaws: wizardBylawsSchema.nullable(),
});

/** Next: the page saved, all saved answers and what the wizard shows beside them. */
const pageSavedSchema = z.object({
  page: z.number().int(),
  fields: z.record(z.string(), z.unknown()),
  bylaws: wizardBylawsSchema.nullable(),
  ...irsCheck,
});

/** Submit: where to go next (the invoice) and the new account. */
const submittedSchema = z.object({
  redirect: z.string(),
  invoice_id: z.number().int(),
  account_id: z.number().int(),
});

/** A file as the dropbox lists it (docs/requirements/entities.md `file_uploads`). */
const fileUploadEntrySchema = z.object({
  id: z.number().int(),
  file_name: z.string(),
  /** Bytes. */
  size_bytes: z.number().int(),
  mime_type: z.string(),
  uploaded_at: z.string(),
});

/**
 * Joining (docs/requirements/product.md tools 1-2, docs/wizard.md): the application start, then the
 * wizard of the signed-in applicant's own application.
 */
export const applicationWizardContracts = {
  start: defineContract({
    method: 'POST',
    url: '/application/start',
    access: 'visitor',
    summary: 'Start an application: the applicant is signed up, signed in and mailed the wizard link',
    body: applicationStartSchema,
    response: { 201: z.object({ token: z.string(), csrfToken: z.string() }), 422: validationFailedSchema },
  }),
  show: defineContract({
    method: 'GET',
    url: '/api/applications/:token',
    access: 'signed-in',
    scoped: true,
    summary: 'One of your applications with its wizard',
    params: tokenParams,
    response: { 200: applicationViewSchema },
  }),
  savePage: defineContract({
    method: 'PUT',
    url: '/application/create/:token',
    access: 'signed-in',
    scoped: true,
    summary: 'Save a wizard page (Next, with page) or submit the application (submit=1), checked by its rules',
    params: tokenParams,
    body: wizardPageSchema,
    response: {
      200: z.union([pageSavedSchema, submittedSchema]),
      // A refused submit also names the first page with an error.
      422: validationFailedSchema.extend({ page: z.number().int().optional() }),
    },
  }),
  saveDraft: defineContract({
    method: 'PATCH',
    url: '/application/create/:token',
    access: 'signed-in',
    scoped: true,
    summary: "Keep a wizard page's answers as typed so far, unchecked (draft save)",
    params: tokenParams,
    body: wizardDraftSchema,
    response: {
      200: z.object({ page: z.number().int(), saved: z.array(z.string()), saved_at: z.string() }),
      422: validationFailedSchema,
    },
  }),
  bylaws: defineContract({
    method: 'GET',
    url: '/application/bylaws/:token',
    access: 'signed-in',
    scoped: true,
    summary: "The bylaws step's Word document",
    params: tokenParams,
    response: { 200: fileAnswer('The bylaws as a Word document') },
    produces: [DOCX_TYPE],
  }),
  switchType: defineContract({
    method: 'POST',
    url: '/application/switch/:token',
    access: 'signed-in',
    scoped: true,
    summary: 'Switch a draft between start-up and maintain, keeping the answers both ask',
    params: tokenParams,
    response: { 200: z.object({ token: z.string(), redirect: z.string() }) },
  }),
  remove: defineContract({
    method: 'DELETE',
    url: '/application/delete',
    access: 'signed-in',
    scoped: true,
    summary: 'Delete a draft application with its documents',
    body: z.object({ token: z.string() }),
    response: { 200: z.object({ redirect: z.string() }), 422: validationFailedSchema },
  }),
  upload: defineContract({
    method: 'POST',
    url: '/application/upload/:token',
    access: 'signed-in',
    scoped: true,
    summary: "Add a document to the application's dropbox (multipart, one file)",
    params: tokenParams,
    response: {
      201: z.object({ file_upload: fileUploadEntrySchema, file_uploads: z.array(fileUploadEntrySchema) }),
    },
  }),
  document: defineContract({
    method: 'GET',
    url: '/application/upload/:token/:fileId',
    access: 'signed-in',
    scoped: true,
    summary: 'A document of the application, as uploaded',
    params: z.object({ token: z.string(), fileId: z.coerce.number().int().positive().max(2_147_483_647) }),
    response: { 200: fileAnswer('The stored document, with the type it was uploaded with') },
    produces: ['application/octet-stream'],
  }),
};
