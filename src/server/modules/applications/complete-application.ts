import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, applications, invoiceLines, invoices, users, files } from '../../db/schema.ts';
import { HttpError } from '../../errors.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { findApplication } from './find-application.ts';
import type { ApplicationHandle } from './application-handle.ts';
import { checkAllPages } from './wizard.ts';
import { saveApplicationBylaw, wizardBylawAnswers } from '../bylaws/bylaws.ts';
import { completeAnswers } from './wizard-answers.ts';
import { isLetterAwaited } from '../../../shared/rules/wizard-answers.ts';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { firstYearCents, pricedInvoiceLines } from '../../../shared/rules/renewal.ts';

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
function letterAwaitedText(values: Record<string, unknown>, publicUrl: string): string {
  if (!isLetterAwaited(values)) return '';
  const filedOn = String(values.account___exemption_filed_on ?? '');
  const filed = /^\d{4}-\d{2}-\d{2}$/.test(filedOn) ? `, filed ${longDate(filedOn)}` : '';
  return `\nWe are waiting with you for the IRS determination letter on your Form ${String(values.account___exemption_form ?? '1023')}${filed}. `
    + `When it arrives, upload it from your group's home: ${publicUrl}/app\n`;
}

export interface CompletedApplication {
  redirect: string;
  invoice_id: number;
  account_id: number;
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
 * an audit_log row, and the bylaws row of the bylaws step when the level has one.
 * @throws ValidationError (with `page`, the first page with an error); HttpError 404; 409 when the
 *   EIN already belongs to another account
 */
export async function completeApplication(db: Db, handle: ApplicationHandle, userId: number, submitted: Record<string, unknown>, opts: { companyName: string; publicUrl: string; ip: string; sessionHash?: string }): Promise<CompletedApplication> {
  // Validate before taking locks: a failing page writes nothing.
  {
    const { application, level } = await findApplication(db, handle, userId);
    if (application.status === 'draft') wizardBylawAnswers(await completeAnswers(db, level, checkAllPages(level, submitted, application.fields)));
  }
  return db.transaction(async (tx) => {
    const { application, level } = await findApplication(tx, handle, userId, true);
    if (application.status === 'completed' && application.accountId) {
      const [existing] = await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.applicationId, application.id));
      return { redirect: '/app/payments', invoice_id: existing.id, account_id: application.accountId };
    }
    // The answers the wizard never asks (the bylaws' fiscal year, having applied) follow from the others.
    const values = await completeAnswers(tx, level, checkAllPages(level, submitted, application.fields));
    const now = new Date();
    const columns = accountColumns(values);
    if (columns.ein) {
      const [taken] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.ein, columns.ein));
      if (taken) throw new HttpError(409, 'An organization with this EIN already has an account. Please contact us so we can link you to it.');
    }
    const [account] = await tx.insert(accounts).values({
      ...columns,
      levelId: level.id,
      primaryUserId: userId,
      renewalDueAt: addOneYear(now),
      data: values,
      source: 'application',
    }).returning({ id: accounts.id });
    await tx.update(users).set({
      accountId: account.id,
      isPrimary: true,
      firstName: String(values.contact___president_first_name ?? ''),
      lastName: String(values.contact___president_last_name ?? ''),
      updatedAt: now,
    }).where(eq(users.id, userId));
    const priceCents = firstYearCents(level);
    const [invoice] = await tx.insert(invoices).values({
      accountId: account.id,
      number: `pending-${application.id}`,
      valueCents: priceCents,
      balanceCents: priceCents,
      applicationId: application.id,
      publicNotes: `${level.name}: first year of membership.`,
    }).returning({ id: invoices.id });
    // A readable number from the row's own id: unique without a second sequence.
    const number = `GS-${String(invoice.id).padStart(6, '0')}`;
    await tx.update(invoices).set({ number }).where(eq(invoices.id, invoice.id));
    await tx.insert(invoiceLines).values(pricedInvoiceLines([{ type: 'new_account', label: `${level.name} (new account)`, priceCents: level.priceCents, valueCents: priceCents }])
      .map((line) => ({ invoiceId: invoice.id, ...line })));
    await tx.update(applications).set({ status: 'completed', accountId: account.id, completedAt: now, updatedAt: now, fields: values }).where(eq(applications.id, application.id));
    // The bylaws step's document, from the answers as submitted (docs/wizard.md "The bylaws step").
    await saveApplicationBylaw(tx, { applicationId: application.id, userId, sessionHash: opts.sessionHash ?? '', values });
    // Documents uploaded during the wizard now belong to the account too.
    await tx.update(files).set({ accountId: account.id }).where(eq(files.applicationId, application.id));
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    await enqueueMail(tx, [{
      kind: 'application.completed',
      to: user.email,
      subject: `Welcome to ${opts.companyName}: invoice ${number}`,
      text: `Hello,\n\nThank you: your ${level.name} application for ${columns.name} is complete.\n\nInvoice ${number} is ready: ${opts.publicUrl}/app/payments\n${letterAwaitedText(values, opts.publicUrl)}`,
    }]);
    await recordAudit(tx, { actorUserId: userId, accountId: account.id, action: 'application.completed', details: { applicationId: application.id, invoiceId: invoice.id }, ip: opts.ip });
    return { redirect: '/app/payments', invoice_id: invoice.id, account_id: account.id };
  });
}
