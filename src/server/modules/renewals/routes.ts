import { accountOverviewContracts } from '../../../shared/contracts/account-overview.ts';
import { accountSettingsContracts } from '../../../shared/contracts/account-settings.ts';
import { initialRenewalChoice, isEarlyBird, renewalOptions, renewalWindow } from '../../../shared/rules/renewal.ts';
import { fromContract } from '../../contracts.ts';
import { LEVELS_NEEDING_990_COPY, loadRenewalContext, RENEWAL_ACTION } from './renewal-form.ts';
import { submitRenewal } from './submit-renewal.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The renewal form (docs/requirements/product.md tool 13): `GET /api/account/renewal` gives what the form shows (prices
 * in cents; the rules run in the browser with src/shared/rules/renewal.ts and again on the server),
 * `POST /app/account/renewal` bills the renewal; `window` says whether it is offered now
 * (docs/renewals.md). The holder's own account (any account user), or any account for an admin
 * (`account_id`); visitors 401, other accounts 404.
 */
export async function renewalRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(accountOverviewContracts.renewal),
    handler: async (req) => {
      const { accountId } = req.account;
      const ctx = await loadRenewalContext(app.db, accountId);
      const extensionDays = app.config.renewalDiscountExtensionDays;
      const now = new Date();
      const window = renewalWindow(ctx.account.renewalDueAt, now, extensionDays);
      return {
        action: RENEWAL_ACTION,
        is_admin: req.currentUser.isAdmin,
        extension_days: extensionDays,
        is_early_bird: isEarlyBird(ctx.account.renewalDueAt, now, extensionDays),
        // docs/renewals.md "When renewal is offered"; staff may renew outside it.
        window: { state: window.state, opens_at: window.opensAt, closes_at: window.closesAt },
        account: {
          id: ctx.account.id,
          name: ctx.account.name,
          renewal_due_at: ctx.account.renewalDueAt,
          bonus_balance_cents: ctx.account.bonusBalanceCents,
          is_suspended_from_basic_renewal: ctx.account.isSuspendedFromBasicRenewal,
          group:
            ctx.account.groupLabel === null
              ? null
              : { label: ctx.account.groupLabel, is_billed_as_group: ctx.account.isBilledAsGroup },
        },
        level: {
          id: ctx.level.id,
          name: ctx.level.name,
          price_cents: ctx.level.priceCents,
          price_discount_cents: ctx.level.priceDiscountCents,
          renewal_features: ctx.level.renewalFeatures,
          upgrade_to:
            ctx.level.upgradeTo === null
              ? null
              : {
                  id: ctx.level.upgradeTo.id,
                  name: ctx.upgradeLevelName,
                  upgrade_cents: ctx.level.upgradeTo.upgradeCents,
                  upgrade_discount_cents: ctx.level.upgradeTo.upgradeDiscountCents,
                  inc_package_cents: ctx.level.upgradeTo.incPackageCents,
                  inc_package_discount_cents: ctx.level.upgradeTo.incPackageDiscountCents,
                },
        },
        options: renewalOptions(ctx.level, ctx.account),
        initial_choice: initialRenewalChoice(ctx.level, ctx.account),
        needs_990_copy: (LEVELS_NEEDING_990_COPY as readonly string[]).includes(ctx.level.slug),
        open_invoice:
          ctx.openInvoice === null
            ? null
            : { id: ctx.openInvoice.id, number: ctx.openInvoice.number, balance_cents: ctx.openInvoice.balanceCents },
      };
    },
  });

  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(accountSettingsContracts.renew),
    handler: async (req) => {
      const { accountId, onBehalf } = req.account;
      return submitRenewal(app.db, {
        input: req.body,
        user: req.currentUser,
        accountId,
        onBehalf,
        extensionDays: app.config.renewalDiscountExtensionDays,
        ip: req.ip,
      });
    },
  });
}
