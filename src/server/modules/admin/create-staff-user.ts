import { eq } from 'drizzle-orm';
import { randomSecret } from '../../config.ts';
import { users } from '../../db/schema.ts';
import { HttpError } from '../../errors.ts';
import { hashPassword } from '../../passwords.ts';
import { insertInvitedUser } from '../account-users/account-user-rows.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { issueResetToken } from '../password-reset/issue-reset-token.ts';
import type { StaffUserInput } from '../../../shared/schemas/staff-user.ts';
import type { Db } from '../../db/client.ts';

/**
 * How long the set-password link of `npm run admin:create` works: 24 hours, once. Longer than the
 * 60 minutes of a reset asked by mail, since the person who runs the command is often not the one
 * who signs in, and the link travels to them by hand (docs/deploy.md "Production settings").
 */
export const STAFF_LINK_HOURS = 24;

/** What {@link createStaffUser} did; the link is the only way to the account's password. */
export interface StaffUserLink {
  userId: number;
  /** false when a staff user with this e-mail already existed (it was found, not changed). */
  created: boolean;
  /** `${publicUrl}/password/reset/{token}?email=…`, working once for STAFF_LINK_HOURS. */
  link: string;
  expiresAt: Date;
}

/**
 * Creates the staff user of `input.email` (or finds it) and makes a one-time set-password link
 * (docs/deploy.md "Production settings"): a new user is an admin (users.is_admin) whose password is
 * the argon2id hash of 32 random bytes nobody ever sees, so it cannot sign in until the link is
 * used; it is marked invited (users.invited_at), so setting the first password sends no "password
 * was changed" notice (docs/roles.md "Invitations"). No password or token is returned except
 * inside the link.
 * Writes, in one transaction: the users row (when new), one password_resets row
 * (issueResetToken), one audit_log row ('staff.created' or 'staff.set_password_link').
 * @param publicUrl config.publicUrl, the origin of the link
 * @throws HttpError 409 when the e-mail belongs to a user of an account (never made staff here)
 */
export async function createStaffUser(
  db: Db,
  input: StaffUserInput,
  publicUrl: string,
  now = new Date(),
): Promise<StaffUserLink> {
  const unusableHash = await hashPassword(randomSecret(32));
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: users.id, isAdmin: users.isAdmin })
      .from(users)
      .where(eq(users.email, input.email))
      .for('update');
    if (found && !found.isAdmin) {
      throw new HttpError(
        409,
        `${input.email} is a user of an account, not staff: choose another e-mail address for the staff user.`,
      );
    }
    // Invited: choosing the first password through the link is not a change to warn about.
    const userId = found?.id ?? (await insertInvitedUser(tx, { ...input, isAdmin: true }, unusableHash, now));
    const { link, expiresAt } = await issueResetToken(tx, {
      userId,
      email: input.email,
      publicUrl,
      lifetimeMinutes: STAFF_LINK_HOURS * 60,
      now,
    });
    await recordAudit(tx, {
      actorUserId: null,
      action: found ? 'staff.set_password_link' : 'staff.created',
      details: { userId, via: 'admin:create' },
    });
    return { userId, created: !found, link, expiresAt };
  });
}
