import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bylaws } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { BYLAW_SCHEMAS, type BylawAnswers, type BylawForEditing, type BylawSaved, type BylawVariant } from '../../../shared/schemas/bylaws.ts';
import { buildBylawsDocument, bylawsFileName, type BylawsDocument } from '../../../shared/bylaws/document.ts';
import { parseInput } from '../../validate.ts';

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

/** Validates a variant's payload with its shared schema (SPEC §3) and drops the captcha token. */
function answersOf(variant: BylawVariant, body: unknown): BylawAnswers {
  // Each variant's schema takes only its own `version` (z.literal), so a mismatch is a 422 there.
  const { ['g-recaptcha-response']: _captcha, ...answers } = parseInput(BYLAW_SCHEMAS[variant], body) as Record<string, unknown>;
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
 * The first Generate (SPEC §4 "Bylaws form": POST to the page path).
 * Writes: one bylaws row with a new random hash.
 * @returns action (PUT address), url (reopens the answers) and bylaw.hash (SPEC §7)
 * @throws ValidationError 422 with the variant's field messages
 */
export async function createBylaw(db: Db, variant: BylawVariant, body: unknown, owner: BylawOwner, links: BylawLinks): Promise<BylawSaved> {
  const answers = answersOf(variant, body);
  const [row] = await db.insert(bylaws).values({
    hash: randomBytes(16).toString('hex'),
    variant,
    answers,
    sessionHash: owner.sessionHash,
    userId: owner.userId,
  }).returning();
  return saved(row!, links);
}

async function findOwned(db: Db, hash: string, owner: BylawOwner): Promise<BylawRow> {
  const row = await findByHash(db, hash);
  // Someone else's bylaw answers 404, as if it did not exist (DESIGN §5.6).
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
export async function updateBylaw(db: Db, hash: string, body: unknown, owner: BylawOwner, links: BylawLinks): Promise<BylawSaved> {
  const row = await findOwned(db, hash, owner);
  const answers = answersOf(row.variant as BylawVariant, body);
  const [updated] = await db.update(bylaws).set({ answers, updatedAt: new Date() }).where(eq(bylaws.id, row.id)).returning();
  return saved(updated!, links);
}

/**
 * The saved answers for the reopened page address (url), for their owner only.
 * @throws HttpError 404
 */
export async function getBylawForEditing(db: Db, hash: string, owner: BylawOwner, links: BylawLinks): Promise<BylawForEditing> {
  const row = await findOwned(db, hash, owner);
  return { ...saved(row, links), answers: row.answers };
}

/**
 * The document model of a saved bylaw, by its hash (the hash is the capability: the online viewer
 * fetches the download without any session).
 * @throws HttpError 404 for an unknown hash
 */
export async function getBylawDocument(db: Db, hash: string, brands: { brand: string; shortBrand: string }): Promise<{ model: BylawsDocument; fileName: string }> {
  const row = await findByHash(db, hash);
  const answers = row.answers as unknown as BylawAnswers;
  return { model: buildBylawsDocument(answers, brands), fileName: bylawsFileName(answers.name) };
}

/**
 * The .docx of a saved bylaw (GET /bylaws-generator/download/{hash}).
 * @returns the file's bytes and its name after the organization
 * @throws HttpError 404 for an unknown hash
 */
export async function downloadBylaw(db: Db, hash: string, brands: { brand: string; shortBrand: string }): Promise<{ bytes: Buffer; fileName: string }> {
  const { model, fileName } = await getBylawDocument(db, hash, brands);
  // The Word library is loaded with the first document, not at start (docs/operations.md "Memory").
  const { renderBylawsDocx } = await import('./render-docx.ts');
  return { bytes: await renderBylawsDocx(model), fileName };
}
