import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { issueResetToken } from './issue-reset-token.ts';
import type { Db } from '../../db/client.ts';

// reset-password.ts checks tokens with it; issue-reset-token.ts is where tokens are made.
export { hashResetToken } from './issue-reset-token.ts';

/** Reset links expire after 60 minutes (docs/requirements/platform.md §5.5). */
const RESET_TOKEN_MINUTES = 60;
/** The answer is the same whether or not the e-mail has an account. */
export const RESET_LINK_SENT =
  'If an account exists for that e-mail address, we have e-mailed a link to reset its password.';

/**
 * Starts a password reset (docs/requirements/product.md tool 11): when `email` belongs to a user, stores the sha256 of a
 * 128-bit random token with a 60-minute expiry (issueResetToken) and queues a mail with the link
 * `${publicUrl}/password/reset/{token}`. Does nothing visible otherwise.
 * Writes: one password_resets row and one mail_outbox row, in one transaction, or nothing.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  publicUrl: string,
  companyName: string,
  now = new Date(),
): Promise<void> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) return;
  await db.transaction(async (tx) => {
    const { link } = await issueResetToken(tx, {
      userId: user.id,
      email,
      publicUrl,
      lifetimeMinutes: RESET_TOKEN_MINUTES,
      now,
    });
    await enqueueMail(tx, [
      {
        kind: 'password.reset',
        to: email,
        subject: `Reset your ${companyName} password`,
        text:
          `Hello,\n\nWe received a request to reset the password of your ${companyName} account.\n\n` +
          `Choose a new password here (the link works once, for ${RESET_TOKEN_MINUTES} minutes):\n${link}\n\n` +
          `If you did not ask for this, you can ignore this e-mail; your password stays the same.\n`,
        links: [link],
        carriesToken: true,
      },
    ]);
  });
}
