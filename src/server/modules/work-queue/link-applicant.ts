import { eq } from 'drizzle-orm';
import { accounts, users, workItems } from '../../db/schema.ts';
import { HttpError, ValidationError } from '../../errors.ts';
import { completeOnAccount } from '../applications/complete-application.ts';
import { findApplication } from '../applications/find-application.ts';
import { completeAnswers } from '../applications/wizard-answers.ts';
import { checkAllPages } from '../applications/wizard.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { typed } from '../mail/mail-words.ts';
import { idOf, LINK_MESSAGES, linkBlocker } from './link-blocker.ts';
import { findWorkItem, WORK_ITEM_MESSAGES } from './work-item-rows.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';
import type { WorkItemActionAnswer } from './work-item-action-answer.ts';

/**
 * POST /api/admin/work-queue/{id}/link-applicant (staff only; docs/work-queue.md "Applicants to
 * link", docs/wizard.md "An EIN that already has an account"): the applicant whose Submit was
 * refused becomes the primary user of the account imported from the IRS data, and their draft
 * application is completed on that account exactly as Submit completes it (completeOnAccount: the
 * level, the answers merged into accounts.data, the first invoice at the level's price, the
 * bylaws document, the uploads). One transaction with the item, the account and the application
 * locked (in that order), so two staff linking at once cannot both do it: the second gets 409.
 * Writes accounts, users, invoices, invoice_lines, applications, bylaws, files, work_items
 * (resolved), mail_outbox (`account.applicant_linked` to the applicant: linked, sign in and pay),
 * audit_log `account.applicant_linked` (item, application, user, invoice).
 * @param opts.publicUrl the site's address for the mail, e.g. https://example.org
 * @throws HttpError 404 unknown item; 409 another kind of item, already resolved, or linking no
 *   longer possible (linkBlocker's reason, or the answers are incomplete)
 */
export async function linkApplicant(
  db: Db,
  itemId: number,
  actor: Pick<Actor, 'userId' | 'ip'>,
  opts: { companyName: string; publicUrl: string },
): Promise<WorkItemActionAnswer> {
  return db.transaction(async (tx) => {
    const item = await findWorkItem(tx, itemId, true);
    if (item.kind !== 'link_request') throw new HttpError(409, LINK_MESSAGES.notLinkRequest);
    if (item.status !== 'open') throw new HttpError(409, WORK_ITEM_MESSAGES.alreadyResolved);
    const [account] =
      item.accountId === null
        ? []
        : await tx
            .select({ id: accounts.id, name: accounts.name })
            .from(accounts)
            .where(eq(accounts.id, item.accountId))
            .for('update');
    if (!account) throw new HttpError(409, LINK_MESSAGES.accountGone);
    const blocked = await linkBlocker(tx, item);
    if (blocked) throw new HttpError(409, blocked);
    const userId = idOf(item.details.applicant_user_id);
    const applicationId = idOf(item.details.application_id);
    const { application, level } = await findApplication(
      tx,
      { kind: 'id', id: applicationId, text: String(applicationId) },
      userId,
      true,
    );
    if (application.status !== 'draft') throw new HttpError(409, LINK_MESSAGES.applicationNotDraft);
    let values: Record<string, unknown>;
    try {
      values = await completeAnswers(tx, level, checkAllPages(level, {}, application.fields));
    } catch (err) {
      if (err instanceof ValidationError) throw new HttpError(409, LINK_MESSAGES.answersIncomplete);
      throw err;
    }
    const done = await completeOnAccount(tx, {
      application,
      level,
      values,
      userId,
      existing: account,
      sessionHash: '',
    });
    const now = new Date();
    await tx
      .update(workItems)
      .set({
        status: 'resolved',
        resolvedBy: actor.userId,
        resolvedAt: now,
        resolution: `Applicant linked as the primary user; invoice ${done.number}.`,
        updatedAt: now,
      })
      .where(eq(workItems.id, item.id));
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    const loginUrl = `${opts.publicUrl}/login`;
    const paymentsUrl = `${opts.publicUrl}/app/payments`;
    await enqueueMail(tx, [
      {
        kind: 'account.applicant_linked',
        to: user.email,
        subject: 'Your group is linked',
        links: [loginUrl, paymentsUrl],
        text: [
          'Hello,',
          '',
          `Thank you for your ${level.name} application. The group named ${typed(account.name)} was already known to us from the IRS data, and we have now linked you to it: you are its primary user at ${opts.companyName}.`,
          '',
          `Sign in with this e-mail address to see your group's home: ${loginUrl}`,
          '',
          `Invoice ${done.number} for your first year is ready to pay: ${paymentsUrl}`,
        ].join('\n'),
      },
    ]);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId: account.id,
      action: 'account.applicant_linked',
      ip: actor.ip,
      details: { item_id: item.id, application_id: application.id, user_id: userId, invoice_id: done.invoiceId },
    });
    return { id: item.id, message: LINK_MESSAGES.linked };
  });
}
