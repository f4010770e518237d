import { createHash, randomBytes } from 'node:crypto';
import { notFound } from '../../errors.ts';

/**
 * How a route names one of the signed-in user's applications (docs/security.md "Tokens"):
 * - `token`: the secret of the mailed link /application/create/{token} (32 base64url characters,
 *   looked up by its sha256, the only form the database keeps);
 * - `id`: the application's id, used by the account's own list, which cannot know the token
 *   once it has been mailed.
 * Either way the application must belong to the signed-in user (findApplication), so an id
 * gives no one access to somebody else's draft.
 * `text` is the handle as it appeared in the address, reused in the wizard's own links.
 */
export type ApplicationHandle =
  { kind: 'token'; tokenHash: string; text: string } | { kind: 'id'; id: number; text: string };

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;
const ID = /^[1-9]\d{0,9}$/;
const MAX_ID = 2_147_483_647;

/** sha256 (hex) of an application token: what applications.token stores. */
export const hashApplicationToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new application token: 24 random bytes (192 bits) as 32 base64url characters. */
export const newApplicationToken = () => randomBytes(24).toString('base64url');

/**
 * Reads an application handle from a path parameter or body field.
 * @throws HttpError 404 'The application could not be found.' for anything else (never 422:
 *   a made-up handle looks like an unknown one)
 */
export function parseApplicationHandle(value: unknown): ApplicationHandle {
  if (typeof value === 'string') {
    if (ID.test(value) && Number(value) <= MAX_ID) return { kind: 'id', id: Number(value), text: value };
    if (TOKEN.test(value)) return { kind: 'token', tokenHash: hashApplicationToken(value), text: value };
  }
  throw notFound('The application');
}
