import { createHash, randomBytes } from 'node:crypto';
import { passwordResets } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The sha256 of a reset token, as stored in password_resets.token_hash (the token itself is never stored). */
export const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** What {@link issueResetToken} made: the link to hand to the user (by mail, or printed by admin:create) and when it stops working. */
export interface IssuedResetToken {
  /** `${publicUrl}/password/reset/{token}?email=…`: the password reset page (docs/requirements/product.md tool 11). */
  link: string;
  /**
   * With `invitation`: `${publicUrl}/invitation/not-me/{token}`, the page where the invited
   * person ends the invitation with the same token ("This was not me", docs/roles.md "Invitations").
   */
  notMeLink?: string;
  expiresAt: Date;
}

/**
 * The one place a password reset token is made (docs/security.md "Password reset and set-password
 * links"): a 128-bit random token whose sha256 is stored for `userId` with an expiry of
 * `lifetimeMinutes` (60 for a reset asked by mail, 24 hours for the link `npm run admin:create`
 * prints). The token leaves this function only inside the link (and, for an invitation, the "This
 * was not me" link); the link works once.
 * Writes: one password_resets row (run it in the transaction of what goes with it, e.g. the mail).
 * @param publicUrl the origin for the link (config.publicUrl: the link leaves the site)
 * @param email the user's e-mail address, which the reset page asks the token to match
 * @param invitation the link invites a new user to choose their first password (docs/roles.md
 *   "Invitations"); the same token then also opens the "This was not me" page (`notMeLink`)
 */
export async function issueResetToken(
  db: DbOrTx,
  opts: { userId: number; email: string; publicUrl: string; lifetimeMinutes: number; now?: Date; invitation?: boolean },
): Promise<IssuedResetToken> {
  const token = randomBytes(16).toString('base64url');
  const expiresAt = new Date((opts.now ?? new Date()).getTime() + opts.lifetimeMinutes * 60_000);
  await db.insert(passwordResets).values({ userId: opts.userId, tokenHash: hashResetToken(token), expiresAt });
  // `invitation=1` only changes the page's words ("Set your password"); the token is the same kind.
  return {
    link: `${opts.publicUrl}/password/reset/${token}?email=${encodeURIComponent(opts.email)}${opts.invitation ? '&invitation=1' : ''}`,
    ...(opts.invitation ? { notMeLink: `${opts.publicUrl}/invitation/not-me/${token}` } : {}),
    expiresAt,
  };
}
