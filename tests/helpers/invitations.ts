import { and, desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../../src/server/db/schema.ts';
import { Agent } from './test-app.ts';
import type { Db } from '../../src/server/db/client.ts';
import type { FastifyInstance } from 'fastify';

/**
 * The set-password link of the newest invitation mailed to `email` (read from the outbox while the
 * mail waits: a sent one keeps only a note), as the invited person would click it; `kind` is the
 * mail's kind (an account's invitation, or 'group_users.invitation' for a central organization's).
 * @throws when no invitation with a link was written for that address
 */
export async function invitationLink(
  db: Db,
  email: string,
  kind = 'account_users.invitation',
): Promise<{ link: string; token: string }> {
  const [mail] = await db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), eq(mailOutbox.toAddress, email.toLowerCase())))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  const m = mail && /(https?:\/\/\S+\/password\/reset\/([A-Za-z0-9_-]+)\S*)/.exec(mail.textBody);
  if (!m) throw new Error(`no invitation link for ${email}`);
  return { link: m[1], token: m[2] };
}

/**
 * Accepts the newest invitation of `email` the way the invited person does: the set-password
 * form of its link (POST /password/reset) with `password`.
 * @returns the agent signed in by it (signed out again with `signOut`, leaving no session)
 */
export async function acceptInvitation(
  app: FastifyInstance,
  db: Db,
  email: string,
  password: string,
  opts: { signOut?: boolean; kind?: string } = {},
): Promise<Agent> {
  const { token } = await invitationLink(db, email, opts.kind);
  const agent = await new Agent(app).start();
  const res = await agent.post('/password/reset', {
    token,
    email: email.toLowerCase(),
    password,
    password_confirmation: password,
  });
  if (res.statusCode !== 200)
    throw new Error(`accepting the invitation of ${email} failed: ${res.statusCode} ${res.body}`);
  agent.csrfToken = (await agent.get('/api/session')).json().csrfToken;
  if (opts.signOut) await agent.post('/logout');
  return agent;
}
