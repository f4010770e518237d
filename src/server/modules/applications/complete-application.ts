import { and, eq, sql } from 'drizzle-orm';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { firstYearCents, pricedInvoiceLines } from '../../../shared/rules/renewal.ts';
import { isLetterAwaited } from '../../../shared/rules/wizard-answers.ts';
import { accounts, applications, invoiceLines, invoices, users, files, workItems } from '../../db/schema.ts';
import { HttpError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { saveApplicationBylaw, wizardBylawAnswers } from '../bylaws/bylaws.ts';
import { invoiceNumber } from '../invoices/create-invoice.ts';
import { linkIrsFacts } from '../irs-data/link-irs-facts.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { typed } from '../mail/mail-words.ts';
import { findApplication, type ApplicationRow, type LevelForWizard } from './find-application.ts';
import { completeAnswers } from './wizard-answers.ts';
import { checkAllPages } from './wizard.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { ApplicationHandle } from './application-handle.ts';

/** Renewal period: one year (docs/requirements/constants.md). */
const addOneYear = (d: Date) => new Date(Date.UTC(d.getUTCFullYear() + 1, d.getUTCMonth(), d.getUTCDate()));

/** The IRS-style account columns an application's answers fill; everything else stays in `data`. */
function accountColumns(values: Record<string, unknown>) {
  const text = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : '');
  const ein = text('account___ein').replace('-', '');
  const fye = Number(values.account___fiscal_year_end);
  const name = text('account___name') || text('bylaw___name') || 'New organization';
  return {
    name,
    legalName: name,
    street: text('account___street'),
    city: text('account___city'),
    state: text('account___state'),
    zip: text('account___zip'),
    ein: /^\d{9}$/.test(ein) ? ein : null,
    gen: /^\d{4}$/.test(text('account___gen')) ? text('account___gen') : null,
    fiscalYearEndMonth: fye >= 1 && fye <= 12 ? fye : null,
    searchText: [name, text('account___city')].filter(Boolean).join(' ').toLowerCase(),
  };
}

/**
 * The completion mail's paragraph for a group waiting for its IRS letter (docs/wizard.md "A group
 * waiting for its IRS letter"): what is awaited and where the letter goes when it arrives; '' otherwise.
 */
function letterAwaitedText(values: Record<string, unknown>, homeUrl: string): string {
  if (!isLetterAwaited(values)) return '';
  const filedOn = String(values.account___exemption_filed_on ?? '');
  const filed = /^\d{4}-\d{2}-\d{2}$/.test(filedOn) ? `, filed ${longDate(filedOn)}` : '';
  // One of the form numbers the field offers (1023, 1023-EZ, 1024), never other text an answer may hold.
  const form = String(values.account___exemption_form ?? '');
  return (
    `\nWe are waiting with you for the IRS determination letter on your Form ${/^10\d\d(?:-[A-Z]{1,2})?$/.test(form) ? form : '1023'}${filed}. ` +
    `When it arrives, upload it from your group's home: ${homeUrl}\n`
  );
}

export interface CompletedApplication {
  redirect: string;
  invoice_id: number;
  account_id: number;
}

/** Submit's refusal when the EIN answered already has an account (docs/wizard.md "An EIN that already has an account"). */
export const EIN_TAKEN_MESSAGE =
  'An organization with this EIN already has an account. Please contact us so we can link you to it.';
/** Added to the refusal when staff were given a `link_request` work item for it. */
export const STAFF_NOTIFIED_MESSAGE = ' Our staff have been told and will contact you.';

/**
 * Thrown inside Submit's transaction when the EIN is an account imported from the IRS data
 * (source 'irs-bmf') with no users, which staff can link the applicant to; turned into the
 * 409 after a second transaction writes the work item.
 */
class LinkableEinRefusal extends HttpError {
  readonly link: {
    accountId: number;
    ein: string;
    applicationId: number;
    userId: number;
    values: Record<string, unknown>;
  };
  constructor(link: LinkableEinRefusal['link']) {
    super(409, EIN_TAKEN_MESSAGE);
    this.link = link;
  }
}

/**
 * Writes the open `link_request` work item of a refused Submit (docs/work-queue.md "Applicants to
 * link"): key `link_request:{application id}`, inserted ON CONFLICT DO NOTHING so repeated Submits
 * make one item; details `{ ein, application_id, applicant_user_id }` (no contact: the item's panel
 * reads it from the application). The answers Submit checked are kept with the draft, so linking
 * completes the application as submitted.
 * Writes work_items, applications.fields (draft only) — one short transaction.
 */
async function recordLinkRequest(db: Db, link: LinkableEinRefusal['link']): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(workItems)
      .values({
        key: `link_request:${link.applicationId}`,
        kind: 'link_request',
        accountId: link.accountId,
        ein: link.ein,
        details: { ein: link.ein, application_id: link.applicationId, applicant_user_id: link.userId },
      })
      .onConflictDoNothing({ target: workItems.key });
    await tx
      .update(applications)
      .set({ fields: link.values, updatedAt: new Date() })
      .where(and(eq(applications.id, link.applicationId), eq(applications.status, 'draft')));
  });
}

/** What completing an application wrote: the account, its first invoice and that invoice's number. */
interface CompletedOnAccount {
  accountId: number;
  accountName: string;
  invoiceId: number;
  number: string;
}

/**
 * The writes Submit makes once the answers are checked (docs/requirements/behaviour.md "Wizard"), shared by
 * Submit (a new account) and staff linking an applicant to an imported account (docs/work-queue.md
 * "Applicants to link"): the account — inserted from the answers when `existing` is null, otherwise
 * the existing account gets the level, the applicant as primary user, the renewal due one year on
 * and the answers merged into `accounts.data` (its IRS columns stay) — the applicant as its primary
 * user (names from the president's answers), the first invoice at the level's early-bird price with
 * its lines, the application completed, the bylaws step's document, the wizard's uploads.
 * Runs inside the caller's transaction, the application row locked by the caller; mails and audit
 * rows are the caller's.
 * @param values the checked, completed answers (completeAnswers of checkAllPages)
 */
export async function completeOnAccount(
  tx: DbOrTx,
  input: {
    application: ApplicationRow;
    level: LevelForWizard;
    values: Record<string, unknown>;
    userId: number;
    existing: { id: number; name: string } | null;
    sessionHash: string;
  },
): Promise<CompletedOnAccount> {
  const { application, level, values, userId, existing } = input;
  const now = new Date();
  let account: { id: number; name: string };
  if (existing) {
    await tx
      .update(accounts)
      .set({
        levelId: level.id,
        primaryUserId: userId,
        renewalDueAt: addOneYear(now),
        data: sql`${accounts.data} || ${JSON.stringify(values)}::jsonb`,
        updatedAt: now,
      })
      .where(eq(accounts.id, existing.id));
    account = existing;
  } else {
    const columns = accountColumns(values);
    const [row] = await tx
      .insert(accounts)
      .values({
        ...columns,
        levelId: level.id,
        primaryUserId: userId,
        renewalDueAt: addOneYear(now),
        data: values,
        source: 'application',
      })
      .returning({ id: accounts.id });
    account = { id: row.id, name: columns.name };
    // A group the IRS data already knows reads its standing from the first day, not the next release.
    if (columns.ein) await linkIrsFacts(tx, [columns.ein]);
  }
  await tx
    .update(users)
    .set({
      accountId: account.id,
      isPrimary: true,
      firstName: String(values.contact___president_first_name ?? ''),
      lastName: String(values.contact___president_last_name ?? ''),
      updatedAt: now,
    })
    .where(eq(users.id, userId));
  const priceCents = firstYearCents(level);
  const [invoice] = await tx
    .insert(invoices)
    .values({
      accountId: account.id,
      number: `pending-${application.id}`,
      valueCents: priceCents,
      balanceCents: priceCents,
      applicationId: application.id,
      publicNotes: `${level.name}: first year of membership.`,
    })
    .returning({ id: invoices.id });
  // A readable number from the row's own id: unique without a second sequence.
  const number = invoiceNumber(invoice.id);
  await tx.update(invoices).set({ number }).where(eq(invoices.id, invoice.id));
  await tx.insert(invoiceLines).values(
    pricedInvoiceLines([
      {
        type: 'new_account',
        label: `${level.name} (new account)`,
        priceCents: level.priceCents,
        valueCents: priceCents,
      },
    ]).map((line) => ({ invoiceId: invoice.id, ...line })),
  );
  await tx
    .update(applications)
    .set({ status: 'completed', accountId: account.id, completedAt: now, updatedAt: now, fields: values })
    .where(eq(applications.id, application.id));
  // The bylaws step's document, from the answers as submitted (docs/wizard.md "The bylaws step").
  await saveApplicationBylaw(tx, { applicationId: application.id, userId, sessionHash: input.sessionHash, values });
  // Documents uploaded during the wizard now belong to the account too.
  await tx.update(files).set({ accountId: account.id }).where(eq(files.applicationId, application.id));
  return { accountId: account.id, accountName: account.name, invoiceId: invoice.id, number };
}

/**
 * Wizard Submit (docs/requirements/behaviour.md, docs/requirements/calls.md): validates every page, then in one transaction creates the account
 * (level, the applicant as primary user, renewal due one year on, the answers as account data) and
 * an unpaid invoice for the level at its early-bird price, which applies while the renewal due date
 * is ahead — always so for a new account (firstYearCents): the level's list price, as /pricing
 * shows it, and a named 'Early-bird discount' line taking the difference off, both of type
 * `new_account` (docs/renewals.md "Prices that agree"). The application row
 * is locked, so a second Submit — a double click, a retry — returns the same account and invoice.
 * Writes: accounts, users (account_id, is_primary), invoices, invoice_lines, applications, a mail,
 * an audit_log row, and the bylaws row of the bylaws step when the level has one (completeOnAccount).
 * An EIN that is an account imported from the IRS data with no users is refused as any taken EIN,
 * and then a second transaction writes a `link_request` work item for staff (recordLinkRequest;
 * docs/wizard.md "An EIN that already has an account").
 * @throws ValidationError (with `page`, the first page with an error); HttpError 404; 409 when the
 *   EIN already belongs to another account (`{ message, staff_notified: true }` when staff were told)
 */
export async function completeApplication(
  db: Db,
  handle: ApplicationHandle,
  userId: number,
  submitted: Record<string, unknown>,
  opts: { companyName: string; publicUrl: string; ip: string; sessionHash?: string },
): Promise<CompletedApplication> {
  // Validate before taking locks: a failing page writes nothing.
  {
    const { application, level } = await findApplication(db, handle, userId);
    if (application.status === 'draft')
      wizardBylawAnswers(await completeAnswers(db, level, checkAllPages(level, submitted, application.fields)));
  }
  try {
    return await db.transaction(async (tx) => {
      const { application, level } = await findApplication(tx, handle, userId, true);
      if (application.status === 'completed' && application.accountId) {
        const [existing] = await tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(eq(invoices.applicationId, application.id));
        return { redirect: '/app/payments', invoice_id: existing.id, account_id: application.accountId };
      }
      // The answers the wizard never asks (the bylaws' fiscal year, having applied) follow from the others.
      const values = await completeAnswers(tx, level, checkAllPages(level, submitted, application.fields));
      const columns = accountColumns(values);
      if (columns.ein) {
        const [taken] = await tx
          .select({ id: accounts.id, source: accounts.source })
          .from(accounts)
          .where(eq(accounts.ein, columns.ein));
        if (taken) {
          if (taken.source === 'irs-bmf' && !(await accountHasUsers(tx, taken.id))) {
            throw new LinkableEinRefusal({
              accountId: taken.id,
              ein: columns.ein,
              applicationId: application.id,
              userId,
              values,
            });
          }
          throw new HttpError(409, EIN_TAKEN_MESSAGE);
        }
      }
      const done = await completeOnAccount(tx, {
        application,
        level,
        values,
        userId,
        existing: null,
        sessionHash: opts.sessionHash ?? '',
      });
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
      const paymentsUrl = `${opts.publicUrl}/app/payments`;
      const homeUrl = `${opts.publicUrl}/app`;
      const awaited = letterAwaitedText(values, homeUrl);
      await enqueueMail(tx, [
        {
          kind: 'application.completed',
          to: user.email,
          subject: `Welcome to ${opts.companyName}: invoice ${done.number}`,
          text: `Hello,\n\nThank you: your ${level.name} application for ${typed(done.accountName)} is complete.\n\nInvoice ${done.number} is ready: ${paymentsUrl}\n${awaited}`,
          links: awaited ? [paymentsUrl, homeUrl] : [paymentsUrl],
        },
      ]);
      await recordAudit(tx, {
        actorUserId: userId,
        accountId: done.accountId,
        action: 'application.completed',
        details: { applicationId: application.id, invoiceId: done.invoiceId },
        ip: opts.ip,
      });
      return { redirect: '/app/payments', invoice_id: done.invoiceId, account_id: done.accountId };
    });
  } catch (err) {
    if (!(err instanceof LinkableEinRefusal)) throw err;
    await recordLinkRequest(db, err.link);
    throw new HttpError(409, EIN_TAKEN_MESSAGE + STAFF_NOTIFIED_MESSAGE, { staff_notified: true });
  }
}

/** Whether any user belongs to the account. */
export async function accountHasUsers(db: DbOrTx, accountId: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.accountId, accountId)).limit(1);
  return !!row;
}
