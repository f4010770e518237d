import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { buildBylawsDocument, bylawsFileName, type BylawsDocument } from '../../../shared/bylaws/document.ts';
import { must } from '../../../shared/must.ts';
import {
  BYLAW_SCHEMAS,
  type BylawAnswers,
  type BylawForEditing,
  type BylawSaved,
  type BylawVariant,
} from '../../../shared/schemas/bylaws.ts';
import { bylaws } from '../../db/schema.ts';
import { notFound, ValidationError } from '../../errors.ts';
import { parseInput } from '../../validate.ts';
import type { Db, DbOrTx } from '../../db/client.ts';

type BylawRow = typeof bylaws.$inferSelect;

/** Who is saving: the session (its cookie's sha256) and the signed-in user, if any. */
export interface BylawOwner {
  sessionHash: string;
  userId: number | null;
}

export interface BylawLinks {
  /** Origin for absolute download addresses (config.publicUrl). */
  publicUrl: string;
  /** config.bylaws.viewerUrl: null when the site is not publicly reachable. */
  viewerUrl: string | null;
}

/** Validates a variant's payload with its shared schema (docs/requirements/entities.md) and drops the captcha token. */
function answersOf(variant: BylawVariant, body: unknown): BylawAnswers {
  // Each variant's schema takes only its own `version` (z.literal), so a mismatch is a 422 there.
  const { ['g-recaptcha-response']: _captcha, ...answers } = parseInput(BYLAW_SCHEMAS[variant], body) as Record<
    string,
    unknown
  >;
  return answers as BylawAnswers;
}

function saved(row: BylawRow, links: BylawLinks): BylawSaved {
  return {
    action: `/bylaws-generator/${row.hash}`,
    url: `/bylaws-generator/edit/${row.hash}`,
    bylaw: {
      hash: row.hash,
      variant: row.variant as BylawVariant,
      download_url: `${links.publicUrl}/bylaws-generator/download/${row.hash}`,
      preview_url: `/bylaws-generator/preview/${row.hash}`,
      viewer: links.viewerUrl,
    },
  };
}

const isOwner = (row: BylawRow, owner: BylawOwner) =>
  row.sessionHash === owner.sessionHash || (owner.userId !== null && row.userId === owner.userId);

/**
 * The first Generate (docs/requirements/behaviour.md "Bylaws form": POST to the page path).
 * Writes: one bylaws row with a new random hash.
 * @returns action (PUT address), url (reopens the answers) and bylaw.hash (docs/requirements/calls.md)
 * @throws ValidationError 422 with the variant's field messages
 */
export async function createBylaw(
  db: Db,
  variant: BylawVariant,
  body: unknown,
  owner: BylawOwner,
  links: BylawLinks,
): Promise<BylawSaved> {
  const answers = answersOf(variant, body);
  const [row] = await db
    .insert(bylaws)
    .values({
      hash: randomBytes(16).toString('hex'),
      variant,
      answers,
      sessionHash: owner.sessionHash,
      userId: owner.userId,
    })
    .returning();
  return saved(must(row, 'the saved bylaws'), links);
}

async function findOwned(db: Db, hash: string, owner: BylawOwner): Promise<BylawRow> {
  const row = await findByHash(db, hash);
  // Someone else's bylaw answers 404, as if it did not exist (docs/requirements/platform.md §5.6).
  if (!isOwner(row, owner)) throw notFound('The bylaws');
  return row;
}

async function findByHash(db: Db, hash: string): Promise<BylawRow> {
  if (!/^[0-9a-f]{32}$/.test(hash)) throw notFound('The bylaws');
  const [row] = await db.select().from(bylaws).where(eq(bylaws.hash, hash));
  if (!row) throw notFound('The bylaws');
  return row;
}

/**
 * A later Generate (PUT to the action), only by the session or user that created it.
 * Writes: bylaws.answers, updated_at.
 * @throws HttpError 404 for an unknown hash or another session's bylaws; ValidationError 422
 */
export async function updateBylaw(
  db: Db,
  hash: string,
  body: unknown,
  owner: BylawOwner,
  links: BylawLinks,
): Promise<BylawSaved> {
  const row = await findOwned(db, hash, owner);
  const answers = answersOf(row.variant as BylawVariant, body);
  const [updated] = await db
    .update(bylaws)
    .set({ answers, updatedAt: new Date() })
    .where(eq(bylaws.id, row.id))
    .returning();
  return saved(must(updated, 'the updated bylaws'), links);
}

/**
 * The saved answers for the reopened page address (url), for their owner only.
 * @throws HttpError 404
 */
export async function getBylawForEditing(
  db: Db,
  hash: string,
  owner: BylawOwner,
  links: BylawLinks,
): Promise<BylawForEditing> {
  const row = await findOwned(db, hash, owner);
  return { ...saved(row, links), answers: row.answers };
}

/**
 * The document model of a saved bylaw, by its hash (the hash is the capability: the online viewer
 * fetches the download without any session).
 * @throws HttpError 404 for an unknown hash
 */
export async function getBylawDocument(
  db: Db,
  hash: string,
  brands: { brand: string; shortBrand: string },
): Promise<{ model: BylawsDocument; fileName: string }> {
  return documentOf(await findByHash(db, hash), brands);
}

function documentOf(
  row: BylawRow,
  brands: { brand: string; shortBrand: string },
): { model: BylawsDocument; fileName: string } {
  const answers = row.answers as unknown as BylawAnswers;
  return { model: buildBylawsDocument(answers, brands), fileName: bylawsFileName(answers.name) };
}

/** The .docx bytes of one saved bylaw row, named after the organization. */
async function renderRow(
  row: BylawRow,
  brands: { brand: string; shortBrand: string },
): Promise<{ bytes: Buffer; fileName: string }> {
  const { model, fileName } = documentOf(row, brands);
  // The Word library is loaded with the first document, not at start (docs/operations.md "Memory").
  const { renderBylawsDocx } = await import('./render-docx.ts');
  return { bytes: await renderBylawsDocx(model), fileName };
}

/**
 * The .docx of a saved bylaw (GET /bylaws-generator/download/{hash}).
 * @returns the file's bytes and its name after the organization
 * @throws HttpError 404 for an unknown hash
 */
export async function downloadBylaw(
  db: Db,
  hash: string,
  brands: { brand: string; shortBrand: string },
): Promise<{ bytes: Buffer; fileName: string }> {
  return renderRow(await findByHash(db, hash), brands);
}

// ---------------------------------------------------------------------------------------------
// The application wizard's bylaws step (docs/wizard.md "The bylaws step")

/** Wizard field names of the bylaws step are this prefix plus the generator's field name (docs/requirements/entities.md "Bylaw form (booster wizard step)"). */
const WIZARD_BYLAW_PREFIX = 'bylaw___';

/** The generator's fields the wizard step asks (docs/requirements/entities.md "Bylaw form (booster wizard step)"). */
const WIZARD_BYLAW_FIELDS = [
  'name',
  'purpose',
  'facility',
  'meeting_attendee_minimum',
  'nomination_month',
  'annual_meeting_month',
  'meeting_request_minimum',
  'fiscal_year_end',
  'is_highlighted',
] as const;

/** True when a set of wizard answers (or a page's field names) includes the bylaws step. */
export const hasWizardBylawFields = (names: Iterable<string>) =>
  [...names].some((n) => n.startsWith(WIZARD_BYLAW_PREFIX));

/**
 * The generator's standard-variant answers from the wizard's `bylaw___` answers. The step does not
 * ask whether the facility is a school, so the neutral wording is used (is_school 0).
 * @returns null when the answers have no bylaws step
 * @throws ValidationError keyed by the wizard's field names when the generator's schema refuses an answer
 */
export function wizardBylawAnswers(values: Record<string, unknown>): BylawAnswers | null {
  if (!hasWizardBylawFields(Object.keys(values))) return null;
  const body: Record<string, unknown> = { version: 'standard', is_school: 0 };
  for (const f of WIZARD_BYLAW_FIELDS) body[f] = values[WIZARD_BYLAW_PREFIX + f];
  const parsed = BYLAW_SCHEMAS.standard.safeParse(body);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = WIZARD_BYLAW_PREFIX + String(issue.path[0] ?? 'name');
      (errors[key] ??= []).push(issue.message);
    }
    throw new ValidationError(errors);
  }
  const { ['g-recaptcha-response']: _captcha, ...answers } = parsed.data as Record<string, unknown>;
  return answers as BylawAnswers;
}

/**
 * Writes the bylaws of an application's bylaws step as a generator row, so the generator's
 * document code, its download and the group home's document list serve them (docs/requirements/product.md tool 3, docs/requirements/entities.md
 * "Bylaw form (booster wizard step)"). One row per application: a later save replaces its answers.
 * Writes: bylaws (insert or update by application_id), with the applicant as its user.
 * @param values the application's validated answers (all pages or the saved ones)
 * @returns the row, or null when the answers have no bylaws step
 * @throws ValidationError keyed by the wizard's field names (see wizardBylawAnswers)
 */
export async function saveApplicationBylaw(
  db: DbOrTx,
  input: { applicationId: number; userId: number; sessionHash: string; values: Record<string, unknown> },
): Promise<BylawRow | null> {
  const answers = wizardBylawAnswers(input.values);
  if (!answers) return null;
  const [row] = await db
    .insert(bylaws)
    .values({
      hash: randomBytes(16).toString('hex'),
      variant: 'standard',
      answers,
      sessionHash: input.sessionHash,
      userId: input.userId,
      applicationId: input.applicationId,
    })
    .onConflictDoUpdate({
      target: bylaws.applicationId,
      set: { answers, userId: input.userId, updatedAt: new Date() },
    })
    .returning();
  return must(row, 'the saved bylaws');
}

/** The bylaws row an application's bylaws step wrote, if any. */
export async function findApplicationBylaw(db: DbOrTx, applicationId: number): Promise<BylawRow | null> {
  const [row] = await db.select().from(bylaws).where(eq(bylaws.applicationId, applicationId));
  return row ?? null;
}

/**
 * The .docx of an application's bylaws; the caller has checked the application is the user's.
 * @throws HttpError 404 when the bylaws step has not been saved yet
 */
export async function downloadApplicationBylaw(
  db: Db,
  applicationId: number,
  brands: { brand: string; shortBrand: string },
): Promise<{ bytes: Buffer; fileName: string }> {
  const row = await findApplicationBylaw(db, applicationId);
  if (!row) throw notFound('The bylaws');
  return renderRow(row, brands);
}
