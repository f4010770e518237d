import { HttpFailure } from '../../lib/http.ts';
import { sameSitePath } from '../../lib/same-site-path.ts';
import type { applicationWizardContracts } from '../../../shared/contracts/application-wizard.ts';
import type { ContractAnswer } from '../../../shared/contracts/contract.ts';

/**
 * GET /api/applications/:token — one of the signed-in user's applications, with its wizard.
 * `:token` is the mailed token or, from the account's list, the application's id.
 */
export type ApplicationView = ContractAnswer<typeof applicationWizardContracts.show>;

/** The bylaws step's Word document (docs/wizard.md "The bylaws step"). */
export type WizardBylaws = NonNullable<ApplicationView['bylaws']>;

type SaveAnswer = ContractAnswer<typeof applicationWizardContracts.savePage>;
/** PUT /application/create/:token with {page, ...fields}: the page saved. */
export type SavePageResponse = Extract<SaveAnswer, { fields: unknown }>;
/** PUT /application/create/:token with {submit: 1, ...fields}: the application submitted. */
export type SubmitResponse = Extract<SaveAnswer, { invoice_id: unknown }>;

/**
 * The answer to a page save ({page, ...fields}), told from a submit's by its `fields`.
 * @throws HttpFailure (500) when the server answered otherwise, which it does not for a page save
 */
export function pageSavedOf(answer: SaveAnswer): SavePageResponse {
  if ('fields' in answer) return answer;
  throw new HttpFailure(500, "That didn't work.");
}

/**
 * The answer to a submit ({submit: 1, ...fields}), told from a page save's by its `invoice_id`.
 * @throws HttpFailure (500) when the server answered otherwise, which it does not for a submit
 */
export function submittedOf(answer: SaveAnswer): SubmitResponse {
  if ('invoice_id' in answer) return answer;
  throw new HttpFailure(500, "That didn't work.");
}

/** How long typing must pause before the answers are saved as a draft. */
export const DRAFT_SAVE_DELAY_MS = 800;

export const applicationPath = (token: string) => `/application/create/${encodeURIComponent(token)}`;

/** Only same-site paths are followed from a server answer (see sameSitePath); anything else falls back. */
export const sitePath = (path: unknown, fallback: string) => sameSitePath(path, window.location.origin) ?? fallback;

/** Errors on these fields mean the applicant may have picked the wrong application type (docs/requirements/behaviour.md). */
export const WRONG_APPLICATION_FIELDS = ['account___has_requested_exemption', 'account___has_501c'];
