import { eq } from 'drizzle-orm';
import { accounts, applications, users } from '../../db/schema.ts';
import { accountHasUsers } from '../applications/complete-application.ts';
import type { WorkItemDetail } from '../../../shared/schemas/work-queue.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { WorkItem } from './work-item-rows.ts';

/** The answers about linking an applicant (docs/work-queue.md "Applicants to link"). */
export const LINK_MESSAGES = {
  linked: 'The applicant is now the primary user of the account, with its first invoice; they were told by mail.',
  notLinkRequest: 'This item is not a request to link an applicant.',
  accountGone:
    'The account of this item no longer exists, so the applicant cannot be linked to it. Resolve the item with what was done.',
  accountHasUsers:
    'This account already has users, so the applicant cannot be linked to it. Resolve the item with what was done.',
  applicantGone: 'The applicant no longer exists. Resolve the item with what was done.',
  applicantHasAccount:
    'The applicant already belongs to an account, so they cannot be linked to this one. Resolve the item with what was done.',
  applicationNotDraft:
    'The application was submitted or deleted since, so it cannot be completed on this account. Resolve the item with what was done.',
  answersIncomplete:
    "The application's answers are not complete, so it cannot be completed on this account. Ask the applicant to finish the wizard, or resolve the item with what was done.",
  linkFirst:
    'Link the applicant to the account: that resolves this item. Resolve it yourself only once linking is no longer possible.',
} as const;

/** A positive int4 id from a work item's details, or 0 (matches no row). */
export const idOf = (v: unknown) =>
  Number.isInteger(Number(v)) && Number(v) > 0 && Number(v) <= 2_147_483_647 ? Number(v) : 0;

/**
 * Why the applicant of a `link_request` item can no longer be linked (docs/work-queue.md
 * "Applicants to link"): the account is gone or has users, the applicant is gone or already
 * belongs to an account, or the application is no longer a draft; null when linking is possible.
 * Reads accounts, users, applications; writes nothing.
 */
export async function linkBlocker(db: DbOrTx, item: WorkItem): Promise<string | null> {
  const [account] =
    item.accountId === null
      ? []
      : await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, item.accountId));
  if (!account) return LINK_MESSAGES.accountGone;
  if (await accountHasUsers(db, account.id)) return LINK_MESSAGES.accountHasUsers;
  const [applicant] = await db
    .select({ accountId: users.accountId })
    .from(users)
    .where(eq(users.id, idOf(item.details.applicant_user_id)));
  if (!applicant) return LINK_MESSAGES.applicantGone;
  if (applicant.accountId !== null) return LINK_MESSAGES.applicantHasAccount;
  const [application] = await db
    .select({ status: applications.status, userId: applications.userId })
    .from(applications)
    .where(eq(applications.id, idOf(item.details.application_id)));
  if (application?.status !== 'draft' || application.userId !== idOf(item.details.applicant_user_id))
    return LINK_MESSAGES.applicationNotDraft;
  return null;
}

/**
 * The panel's view of a `link_request` item (docs/work-queue.md "Applicants to link"): the
 * application, the applicant's sign-in e-mail and the president's name and phone from its answers
 * (shown only here, never in the list or the CSV), and `blocked` (linkBlocker) while open.
 * Reads applications, users, accounts; writes nothing.
 */
export async function linkView(db: DbOrTx, item: WorkItem): Promise<NonNullable<WorkItemDetail['link']>> {
  const applicationId = idOf(item.details.application_id);
  const [application] = await db
    .select({ fields: applications.fields })
    .from(applications)
    .where(eq(applications.id, applicationId));
  const [applicant] = await db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, idOf(item.details.applicant_user_id)));
  const f = application?.fields ?? {};
  const text = (k: string) => (typeof f[k] === 'string' ? (f[k] as string).trim() : '');
  return {
    application_id: applicationId,
    applicant_email: applicant?.email ?? null,
    president_name: [text('contact___president_first_name'), text('contact___president_last_name')]
      .filter(Boolean)
      .join(' '),
    president_phone: text('contact___president_phone'),
    blocked: item.status === 'open' ? await linkBlocker(db, item) : null,
  };
}
