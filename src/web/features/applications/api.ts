import { sameSitePath } from '../../lib/same-site-path.ts';
import type { WizardConfig } from '../../../shared/forms/field-definition.ts';
import type { IrsFiscalYearRecord } from '../../../shared/rules/wizard-answers.ts';
import type { ApplicationType } from '../../../shared/schemas/application.ts';

/**
 * GET /api/applications/:token — one of the signed-in user's applications, with its wizard.
 * `:token` is the mailed token or, from the account's list, the application's id.
 */
export interface ApplicationView {
  /** The handle the wizard was opened with; the wizard's own links use it. */
  token: string;
  type: ApplicationType;
  status: 'draft' | 'completed';
  level: { id: number; name: string };
  /** The last saved page, 1-based: the wizard resumes there. */
  page: number;
  config: WizardConfig;
  /** Where to switch start-up ⇄ maintain; null when switching is not offered. */
  switch_url: string | null;
  /** The IRS record's fiscal year end for the EIN answered, when the product holds it. */
  irs_fiscal_year?: IrsFiscalYearRecord | null;
  /** Warnings that do not stop the application, e.g. a fiscal year end that differs from the IRS record. */
  notices?: string[];
  /** The bylaws document of the bylaws step, once that page is saved. */
  bylaws: WizardBylaws | null;
}

/** The bylaws step's Word document (docs/wizard.md "The bylaws step"). */
export interface WizardBylaws {
  file_name: string;
  download_url: string;
  updated_at: string;
}

/** PUT /application/create/:token with {page, ...fields}. */
export interface SavePageResponse {
  page: number;
  fields: Record<string, unknown>;
  irs_fiscal_year?: IrsFiscalYearRecord | null;
  notices?: string[];
  bylaws: WizardBylaws | null;
}

/** PATCH /application/create/:token with {page, ...fields}: a draft save (docs/wizard.md "Saving as you type"). */
export interface DraftSaveResponse {
  page: number;
  saved: string[];
  saved_at: string;
}

/** How long typing must pause before the answers are saved as a draft. */
export const DRAFT_SAVE_DELAY_MS = 800;

/** PUT /application/create/:token with {submit: 1, ...fields}. */
export interface SubmitResponse {
  redirect: string;
  invoice_id: number;
}

export const applicationPath = (token: string) => `/application/create/${encodeURIComponent(token)}`;

/** Only same-site paths are followed from a server answer (see sameSitePath); anything else falls back. */
export const sitePath = (path: unknown, fallback: string) => sameSitePath(path, window.location.origin) ?? fallback;

/** Errors on these fields mean the applicant may have picked the wrong application type (docs/requirements/behaviour.md). */
export const WRONG_APPLICATION_FIELDS = ['account___has_requested_exemption', 'account___has_501c'];
