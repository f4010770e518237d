import { eq } from 'drizzle-orm';
import { applications, levels, users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { hashPassword } from '../../passwords.ts';
import { endPendingInvitation, type InvitationEndContext } from '../account-users/end-invitation.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { hashApplicationToken, newApplicationToken } from './application-handle.ts';
import type { ApplicationStartInput, ApplicationType } from '../../../shared/schemas/application.ts';
import type { Db } from '../../db/client.ts';

const EMAIL_TAKEN = 'An account already uses this e-mail address. Please sign in instead.';

/**
 * The maintain level is for groups that already hold an exemption, and so is the reinstatement
 * level (a revoked group had its determination letter); every other level starts one.
 */
const applicationTypeFor = (levelSlug: string): ApplicationType =>
  levelSlug === 'maintain' || levelSlug === 'reinstatement' ? 'maintain' : 'start-up';

/**
 * Application start (docs/requirements/product.md tool 1, docs/requirements/behaviour.md "Application start"): creates the user and a draft application
 * for the chosen public level, and mails the link that resumes the draft. Only the token's sha256
 * is stored, and the mail is marked as carrying a token (its body is dropped once sent).
 * A pending invitation never stops its address from starting its own application (docs/roles.md
 * "Invitations"): when the address belongs to a user who was invited to an account and never
 * chose a password, that invitation is ended first, as if its recipient had said "This was not
 * me" (endPendingInvitation, reason 'application_started': the account's primary user and staff
 * are told, audited), and the start goes on as for a new address, with the same answer.
 * Writes: one users row, one applications row, one mail_outbox row, one audit_log row — in one
 * transaction, or nothing; and what endPendingInvitation writes when an invitation is ended.
 * @param opts.invitationEnd who the notices of an ended invitation come from, and the staff address
 * @returns the new user's id and the application token for /application/create/{token}
 * @throws ValidationError on `level_id` for an unknown or non-public level, on `email` when a
 *   user who chose a password has it
 */
export async function startApplication(
  db: Db,
  input: ApplicationStartInput,
  opts: {
    publicUrl: string;
    companyName: string;
    ip: string;
    invitationEnd: Omit<InvitationEndContext, 'ip'>;
  },
): Promise<{ userId: number; token: string }> {
  const [level] = await db
    .select({ id: levels.id, slug: levels.slug, name: levels.name, isPublic: levels.isPublic })
    .from(levels)
    .where(eq(levels.id, input.level_id));
  if (!level || !level.isPublic) throw ValidationError.field('level_id', 'The selected level is invalid.');
  const passwordHash = await hashPassword(input.password);
  const token = newApplicationToken();
  return db.transaction(async (tx) => {
    const insertUser = () =>
      tx.insert(users).values({ email: input.email, passwordHash }).onConflictDoNothing().returning({ id: users.id });
    let [user] = await insertUser();
    if (!user) {
      // Taken: by a user who chose a password (refused), or by a pending invitation (ended, then started).
      const [holder] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
      const ended =
        holder &&
        (await endPendingInvitation(tx, holder.id, 'application_started', { ...opts.invitationEnd, ip: opts.ip }));
      if (ended) [user] = await insertUser();
      if (!user) throw ValidationError.field('email', EMAIL_TAKEN);
    }
    await tx.insert(applications).values({
      tokenHash: hashApplicationToken(token),
      userId: user.id,
      levelId: level.id,
      type: applicationTypeFor(level.slug),
    });
    const link = `${opts.publicUrl}/application/create/${token}`;
    await enqueueMail(tx, [
      {
        kind: 'application.started',
        to: input.email,
        subject: `Your ${opts.companyName} application`,
        text:
          `Hello,\n\nThank you for starting your ${level.name} application with ${opts.companyName}.\n\n` +
          `Your answers are saved as you go. Continue where you left off at any time:\n${link}\n\n` +
          `You can also sign in with this e-mail address and find the application in your account.\n`,
        links: [link],
        carriesToken: true,
      },
    ]);
    await recordAudit(tx, {
      actorUserId: user.id,
      action: 'application.started',
      details: { levelId: level.id },
      ip: opts.ip,
    });
    return { userId: user.id, token };
  });
}
