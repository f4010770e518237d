import { eq, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { dollarsToCents } from '../../../shared/rules/billing.ts';
import { pricedInvoiceLines, renewalOptions, renewalTotals, renewalWindow } from '../../../shared/rules/renewal.ts';
import { RENEWAL_MESSAGES, type RenewalPayload } from '../../../shared/schemas/renewal.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { accounts, invoiceLines, invoices, renewals } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { invoiceNumber } from '../invoices/create-invoice.ts';
import { applyPaidRenewal } from './apply-paid-renewal.ts';
import { loadRenewalContext } from './renewal-form.ts';
import type { Db } from '../../db/client.ts';
import type { SessionUser } from '../../plugins/session.ts';

/** Input of {@link submitRenewal}. */
export interface RenewalRequest {
  input: RenewalPayload;
  user: SessionUser;
  /** The account renewed, already authorised (own account, or any for an admin). */
  accountId: number;
  onBehalf: boolean;
  extensionDays: number;
  ip?: string;
  now?: Date;
}

/**
 * POST /app/account/renewal (docs/requirements/product.md tool 13, docs/requirements/entities.md "Renewal form payload", docs/requirements/behaviour.md "Renewal", docs/requirements/validation.md "Order
 * total", docs/requirements/permissions.md, docs/requirements/calls.md): bills a renewal. One transaction, the account row locked:
 * - the payload's current level must be the account's (else 422 'Your level changed…'), its choices
 *   must be allowed (an upgrade only when the level has a target and then to that target, the
 *   incorporation package only with the upgrade, the upgrade required when the account is
 *   suspended from basic renewal), and no earlier renewal may be open (docs/renewals.md "One open
 *   renewal": checked under the account's row lock, and enforced by the unique index
 *   renewals_one_open_per_account, so two concurrent submits bill once);
 * - a holder renews only inside the window of renewalWindow (60 days before the due date until the
 *   grace period ends: docs/renewals.md "When renewal is offered"); staff may renew at any time;
 * - the totals are recomputed with renewalTotals (early-bird prices while the due date plus
 *   `extensionDays` is ahead, the account's whole bonus balance up to what is left); every total and
 *   the bonus balance sent must match to the cent (else 422 'The renewal totals changed…');
 * - the invoice is written with one line per item at its list price (typed renewal, upgrade,
 *   incorporation, so discount code flags apply), a named 'Early-bird discount' line of the same
 *   type under each item charged less (pricedInvoiceLines), and a 'bonus' credit line; the bonus used leaves
 *   the account's balance; the renewal row remembers the new level;
 * - an order total of 0 is settled at once (renewal date moved, level changed).
 * Writes: invoices, invoice_lines, renewals, accounts (bonus balance, and renewal date and level
 * when settled), audit_log. @returns the redirect (docs/requirements/permissions.md: admin → /admin/accounts/show/{id},
 * holder → /app/payments) and the invoice id
 * @throws ValidationError 422 as above; HttpError 404 for an account without a level
 */
export async function submitRenewal(db: Db, req: RenewalRequest): Promise<{ redirect: string; invoice_id: number }> {
  try {
    return await billRenewal(db, req);
  } catch (err) {
    // The unique index renewals_one_open_per_account refused a second open renewal that a
    // concurrent request (another server, another tab) committed first.
    if (isUniqueViolation(err)) throw new ValidationError({ account_id: [RENEWAL_MESSAGES.alreadyOpen] });
    throw err;
  }
}

async function billRenewal(db: Db, req: RenewalRequest): Promise<{ redirect: string; invoice_id: number }> {
  const now = req.now ?? new Date();
  const { input, accountId } = req;
  return db.transaction(async (tx) => {
    const ctx = await loadRenewalContext(tx, accountId, { lock: true });
    const { level, account } = ctx;
    if (input.current_level_id !== level.id)
      throw new ValidationError({ current_level_id: [RENEWAL_MESSAGES.levelChanged] });
    if (ctx.openInvoice) throw new ValidationError({ account_id: [RENEWAL_MESSAGES.alreadyOpen] });
    // Staff may bill a renewal outside the window (an account past its grace period renews through them).
    const window = renewalWindow(account.renewalDueAt, now, req.extensionDays);
    if (!req.user.isAdmin && window.state !== 'open') {
      throw new ValidationError({
        account_id: [window.state === 'not_yet' ? RENEWAL_MESSAGES.notYet : RENEWAL_MESSAGES.windowClosed],
      });
    }

    const options = renewalOptions(level, account);
    const upgrade = input.is_upgrade_selected;
    const incorporation = input.is_incorporation_selected;
    if (upgrade && !options.canUpgrade)
      throw new ValidationError({ is_upgrade_selected: [RENEWAL_MESSAGES.notOffered] });
    if (!upgrade && options.isUpgradeLocked)
      throw new ValidationError({ is_upgrade_selected: [RENEWAL_MESSAGES.upgradeRequired] });
    if (incorporation && !upgrade)
      throw new ValidationError({ is_incorporation_selected: [RENEWAL_MESSAGES.incorporationNeedsUpgrade] });
    const newLevelId = upgrade ? must(level.upgradeTo, 'the level to upgrade to').id : level.id;
    if (input.new_level_id !== newLevelId)
      throw new ValidationError({ new_level_id: [RENEWAL_MESSAGES.totalsChanged] });

    const choice = { isUpgradeSelected: upgrade, isIncorporationSelected: incorporation, newLevelId };
    const totals = renewalTotals(level, account, choice, now, req.extensionDays);
    const sent = input.totals;
    const same =
      dollarsToCents(sent.subtotal) === totals.subtotal &&
      dollarsToCents(sent.discount_total) === totals.discount_total &&
      dollarsToCents(sent.bonus_total) === totals.bonus_total &&
      dollarsToCents(sent.order_total) === totals.order_total &&
      dollarsToCents(input.bonus_balance) === account.bonusBalanceCents;
    if (!same) throw new ValidationError({ totals: [RENEWAL_MESSAGES.totalsChanged] });

    const [invoice] = await tx
      .insert(invoices)
      .values({
        accountId,
        number: `pending-renewal-${accountId}-${now.getTime()}`,
        valueCents: totals.order_total,
        balanceCents: totals.order_total,
        documentAt: now,
        publicNotes: `Yearly renewal of ${account.name}${upgrade && ctx.upgradeLevelName ? `, upgraded to ${ctx.upgradeLevelName}` : ''}.`,
      })
      .returning({ id: invoices.id });
    const number = invoiceNumber(invoice.id);
    await tx.update(invoices).set({ number }).where(eq(invoices.id, invoice.id));
    const items = totals.lines.map((l) => ({
      ...l,
      label: l.type === 'upgrade' && ctx.upgradeLevelName ? `Upgrade to ${ctx.upgradeLevelName}` : l.label,
    }));
    const lines = pricedInvoiceLines(items).map((l) => ({ invoiceId: invoice.id, ...l }));
    if (totals.bonus_total > 0)
      lines.push({
        invoiceId: invoice.id,
        label: 'Bonus balance used',
        type: 'bonus',
        valueCents: -totals.bonus_total,
      });
    await tx.insert(invoiceLines).values(lines);
    if (totals.bonus_total > 0) {
      await tx
        .update(accounts)
        .set({ bonusBalanceCents: sql`${accounts.bonusBalanceCents} - ${totals.bonus_total}` })
        .where(eq(accounts.id, accountId));
    }
    const [renewal] = await tx
      .insert(renewals)
      .values({
        accountId,
        invoiceId: invoice.id,
        currentLevelId: level.id,
        newLevelId,
        isUpgradeSelected: upgrade,
        isIncorporationSelected: incorporation,
        bonusCents: totals.bonus_total,
        userId: req.user.id,
      })
      .returning({ id: renewals.id });
    await recordAudit(tx, {
      actorUserId: req.user.id,
      accountId,
      action: req.onBehalf ? 'renewal.submitted_on_behalf' : 'renewal.submitted',
      ip: req.ip,
      details: { renewalId: renewal.id, invoiceId: invoice.id, orderTotalCents: totals.order_total, newLevelId },
    });
    if (totals.order_total === 0) await applyPaidRenewal(tx, invoice.id, now);
    return {
      redirect: req.user.isAdmin ? `/admin/accounts/show/${accountId}` : '/app/payments',
      invoice_id: invoice.id,
    };
  });
}
