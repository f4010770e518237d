import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResets, sessions, users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { hashPassword } from '../../passwords.ts';
import type { PasswordResetInput } from '../../../shared/schemas/public-forms.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { hashResetToken } from './request-password-reset.ts';

export const INVALID_RESET_TOKEN = 'This password reset link is invalid or has expired. Please ask for a new one.';

/**
 * Completes a password reset (SPEC tool 11, DESIGN §5.5, docs/security.md "Tokens"): the token
 * must be unused, unexpired, belong to `email` and be the user's newest reset (asking again
 * supersedes every earlier link). Sets the new argon2id hash, marks every open reset of the user
 * used (so no other link of theirs works afterwards) and ends every session of the user. The
 * reset row is locked, so the same link sent twice at once resets once.
 * Writes: users.password_hash, password_resets.used_at, deletes sessions, one audit_log row.
 * @returns the user's id and admin flag, for signing in with a fresh session
 * @throws ValidationError on `email` with INVALID_RESET_TOKEN
 */
export async function resetPassword(db: Db, input: PasswordResetInput, ip: string, now = new Date()): Promise<{ userId: number; isAdmin: boolean }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ resetId: passwordResets.id, userId: users.id, isAdmin: users.isAdmin })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(and(
        eq(passwordResets.tokenHash, hashResetToken(input.token)),
        eq(users.email, input.email),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
        // A newer request supersedes this link, used or not.
        sql`NOT EXISTS (SELECT 1 FROM ${passwordResets} newer WHERE newer.user_id = ${passwordResets.userId} AND newer.id > ${passwordResets.id})`,
      ))
      .for('update', { of: passwordResets });
    if (!row) throw ValidationError.field('email', INVALID_RESET_TOKEN);
    await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, row.userId), isNull(passwordResets.usedAt)));
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, row.userId));
    await tx.delete(sessions).where(eq(sessions.userId, row.userId));
    await recordAudit(tx, { actorUserId: row.userId, action: 'auth.password_reset', ip });
    return { userId: row.userId, isAdmin: row.isAdmin };
  });
}
