import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { passwordResets, sessions, users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { hashPassword } from '../../passwords.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { enqueueMail, type MailToQueue } from '../mail/enqueue-mail.ts';
import { mailDateTime } from '../mail/mail-html.ts';
import { typedAddress } from '../mail/mail-words.ts';
import { hashResetToken } from './request-password-reset.ts';
import type { PasswordResetInput } from '../../../shared/schemas/public-forms.ts';
import type { Db } from '../../db/client.ts';

const INVALID_RESET_TOKEN = 'This password reset link is invalid or has expired. Please ask for a new one.';

/** Who the notice of a reset says it comes from (docs/mail.md "Transactional mails"). */
export interface ResetNoticeSender {
  companyName: string;
  /** The provider's contact e-mail or phone, '' when none is kept. */
  companyContact: string;
}

/** The notice that a password was reset, to the user's address (the one the link was sent to). */
function passwordResetNotice(sender: ResetNoticeSender, user: { email: string }, at: Date): MailToQueue {
  const contact = sender.companyContact ? ` at ${sender.companyContact}` : '';
  return {
    kind: 'password.changed',
    to: user.email,
    subject: `Your ${sender.companyName} password was changed`,
    text:
      `Hello,\n\nThe password of your ${sender.companyName} sign-in (${typedAddress(user.email)}) ` +
      `was changed on ${mailDateTime(at)} with a password reset link sent to this address. Every device that was signed in ` +
      `was signed out.\n\nIf this was not you, someone else may be reading your e-mail: secure your e-mail account, ` +
      `then choose a new password with "Forgot your password?" on the ${sender.companyName} sign-in page and tell ${sender.companyName}${contact}.\n`,
  };
}

/**
 * Completes a password reset (docs/requirements/product.md tool 11, docs/requirements/platform.md §5.5, docs/security.md "Tokens"): the token
 * must be unused, unexpired, belong to `email` and be the user's newest reset (asking again
 * supersedes every earlier link). Sets the new argon2id hash, marks every open reset of the user
 * used (so no other link of theirs works afterwards) and ends every session of the user. The
 * reset row is locked, so the same link sent twice at once resets once.
 * A user who was invited (users.invited_at set: docs/roles.md "Invitations") chooses their first
 * password this way: the invitation is cleared and audited as accepted, and no notice is sent;
 * anyone else is mailed that their password was changed (kind 'password.changed').
 * Writes: users.password_hash (and invited_at = null), password_resets.used_at, deletes sessions,
 * one audit_log row, one mail_outbox row (a reset, not an invitation).
 * @returns the user's id and admin flag, for signing in with a fresh session, and whether it was an invitation
 * @throws ValidationError on `email` with INVALID_RESET_TOKEN
 */
export async function resetPassword(
  db: Db,
  input: PasswordResetInput,
  ip: string,
  sender: ResetNoticeSender,
  now = new Date(),
): Promise<{ userId: number; isAdmin: boolean; invited: boolean }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        resetId: passwordResets.id,
        userId: users.id,
        isAdmin: users.isAdmin,
        email: users.email,
        invitedAt: users.invitedAt,
      })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(
        and(
          eq(passwordResets.tokenHash, hashResetToken(input.token)),
          eq(users.email, input.email),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, now),
          // A newer request supersedes this link, used or not.
          sql`NOT EXISTS (SELECT 1 FROM ${passwordResets} newer WHERE newer.user_id = ${passwordResets.userId} AND newer.id > ${passwordResets.id})`,
        ),
      )
      .for('update', { of: passwordResets });
    if (!row) throw ValidationError.field('email', INVALID_RESET_TOKEN);
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, row.userId), isNull(passwordResets.usedAt)));
    await tx.update(users).set({ passwordHash, invitedAt: null, updatedAt: now }).where(eq(users.id, row.userId));
    await tx.delete(sessions).where(eq(sessions.userId, row.userId));
    const invited = row.invitedAt !== null;
    await recordAudit(tx, {
      actorUserId: row.userId,
      action: invited ? 'account_users.invitation_accepted' : 'auth.password_reset',
      ip,
    });
    if (!invited) await enqueueMail(tx, [passwordResetNotice(sender, row, now)]);
    return { userId: row.userId, isAdmin: row.isAdmin, invited };
  });
}
