import { z } from 'zod';
import { msg, requiredInt } from '../validation.ts';
import { dollarsField } from './payments.ts';

/**
 * POST of the renewal action (docs/requirements/entities.md "Renewal form payload", docs/requirements/calls.md): account_id, current_level_id,
 * new_level_id, is_upgrade_selected (0/1), is_incorporation_selected (0/1), totals (subtotal,
 * discount_total, bonus_total, order_total, decimal dollars) and bonus_balance (decimal dollars).
 * The server recomputes every total from the database and refuses a payload whose totals differ.
 */

const MAX_ID = 2_147_483_647;
const flag = (label: string) =>
  z.preprocess(
    (v) =>
      v === true || v === 1 || v === '1'
        ? true
        : v === false || v === 0 || v === '0' || v === undefined || v === null || v === ''
          ? false
          : v,
    z.boolean({ error: msg.in(label) }),
  );

export const renewalTotalsSchema = z.object(
  {
    subtotal: dollarsField('subtotal'),
    discount_total: dollarsField('discount total'),
    bonus_total: dollarsField('bonus total'),
    order_total: dollarsField('order total'),
  },
  { error: msg.required('totals') },
);

export const renewalPayloadSchema = z.object({
  account_id: requiredInt('account id', 1, MAX_ID),
  current_level_id: requiredInt('current level id', 1, MAX_ID),
  new_level_id: requiredInt('new level id', 1, MAX_ID),
  is_upgrade_selected: flag('upgrade'),
  is_incorporation_selected: flag('incorporation'),
  totals: renewalTotalsSchema,
  bonus_balance: dollarsField('bonus balance'),
});
export type RenewalPayloadInput = z.input<typeof renewalPayloadSchema>;
export type RenewalPayload = z.output<typeof renewalPayloadSchema>;

/** Refusals of the renewal action that docs/requirements/errors.md leaves open (the form shows the first one in 'Oops...'). */
export const RENEWAL_MESSAGES = {
  totalsChanged: 'The renewal totals changed. Please review them and try again.',
  levelChanged: 'Your level changed since this page was opened. Please reload the page.',
  notOffered: 'This option is not offered for your level.',
  upgradeRequired: 'This account renews with the upgrade only.',
  incorporationNeedsUpgrade: 'The incorporation package comes with the upgrade.',
  alreadyOpen: 'A renewal is already waiting for payment. Please pay it on the payments page.',
  notYet: 'Renewal opens 60 days before your due date. We will e-mail you when it does.',
  windowClosed:
    'The grace period after your renewal date has ended, so the renewal can no longer be done online. Please contact us and we will renew your membership.',
  noLevel: 'This account has no level to renew.',
} as const;
