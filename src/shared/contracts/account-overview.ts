import { z } from 'zod';
import { accountChoiceSchema } from '../schemas/account-choice.ts';
import { standingViewSchema } from '../schemas/search.ts';
import { fileAnswer, timestampSchema } from './common.ts';
import { defineContract } from './contract.ts';

/** One deadline of the compliance calendar ('YYYY-MM-DD'); the Form 990 one says whether a filing for its tax year is recorded. */
const calendarDeadlineSchema = z.object({
  kind: z.enum(['form_990', 'renewal', 'state']),
  label: z.string(),
  due: z.string(),
  /** Calendar days from today; 0 on the day, negative when overdue. */
  daysLeft: z.number().int(),
  /** For 'form_990': the calendar year the fiscal year ends in. */
  taxYear: z.number().int().optional(),
  filed: z.boolean().optional(),
  filed_on: z.string().optional(),
});

/** The renewal form's facts (docs/renewals.md); prices in cents, instants ISO 8601. */
const renewalScreenSchema = z.object({
  action: z.string(),
  is_admin: z.boolean(),
  extension_days: z.number().int(),
  is_early_bird: z.boolean(),
  /** docs/renewals.md "When renewal is offered"; null instants without a due date. */
  window: z.object({
    state: z.enum(['open', 'not_yet', 'closed']),
    opens_at: z.string().nullable(),
    closes_at: z.string().nullable(),
  }),
  account: z.object({
    id: z.number().int(),
    name: z.string(),
    renewal_due_at: z.string().nullable(),
    bonus_balance_cents: z.number().int(),
    is_suspended_from_basic_renewal: z.boolean(),
    group: z.object({ label: z.string(), is_billed_as_group: z.boolean() }).nullable(),
  }),
  level: z.object({
    id: z.number().int(),
    name: z.string(),
    price_cents: z.number().int(),
    price_discount_cents: z.number().int(),
    renewal_features: z.array(z.string()),
    upgrade_to: z
      .object({
        id: z.number().int(),
        name: z.string().nullable(),
        upgrade_cents: z.number().int(),
        upgrade_discount_cents: z.number().int(),
        inc_package_cents: z.number().int(),
        inc_package_discount_cents: z.number().int(),
      })
      .nullable(),
  }),
  options: z.object({ canUpgrade: z.boolean(), isUpgradeLocked: z.boolean(), canIncorporate: z.boolean() }),
  initial_choice: z.object({
    isUpgradeSelected: z.boolean(),
    isIncorporationSelected: z.boolean(),
    newLevelId: z.number().int(),
  }),
  needs_990_copy: z.boolean(),
  open_invoice: z.object({ id: z.number().int(), number: z.string(), balance_cents: z.number().int() }).nullable(),
});

/**
 * The account area of a signed-in user (/account; docs/requirements/product.md "Compliance
 * calendar", tool 13, docs/irs-standing.md "Letter"): staff name an account with `account_id`
 * where the route is the account's.
 */
export const accountOverviewContracts = {
  account: defineContract({
    method: 'GET',
    url: '/api/account',
    access: 'signed-in',
    scoped: true,
    summary:
      'The signed-in user and their account: organization, level, renewal date and standing with the IRS (null without one)',
    response: {
      200: z.object({
        user: z.object({
          id: z.number().int(),
          email: z.string(),
          firstName: z.string(),
          lastName: z.string(),
          isAdmin: z.boolean(),
          accountId: z.number().int().nullable(),
        }),
        account: z
          .object({
            id: z.number().int(),
            name: z.string(),
            ein: z.string().nullable(),
            city: z.string(),
            state: z.string(),
            renewal_due_at: timestampSchema.nullable(),
            level: z.string().nullable(),
            public_profile_image: z.string(),
            standing: standingViewSchema,
          })
          .nullable(),
      }),
    },
  }),
  applications: defineContract({
    method: 'GET',
    url: '/api/account/applications',
    access: 'signed-in',
    scoped: true,
    summary: "The signed-in user's applications that can still be resumed, newest first",
    response: {
      200: z.object({
        applications: z.array(
          z.object({ id: z.number().int(), level: z.string(), status: z.string(), updated_at: timestampSchema }),
        ),
      }),
    },
  }),
  calendar: defineContract({
    method: 'GET',
    url: '/api/account/calendar',
    access: 'account-user',
    scoped: true,
    summary: "The account's upcoming deadlines, soonest first, and its recorded Form 990-series filings, newest first",
    querystring: accountChoiceSchema,
    response: {
      200: z.object({
        today: z.string(),
        fiscal_year_end_month: z.number().int().nullable(),
        deadlines: z.array(calendarDeadlineSchema),
        filings: z.array(z.object({ tax_year: z.number().int(), form: z.string(), filed_on: z.string() })),
      }),
    },
  }),
  renewal: defineContract({
    method: 'GET',
    url: '/api/account/renewal',
    access: 'account-user',
    scoped: true,
    summary:
      "What the renewal form shows: the account's level, its prices (cents), the options and whether renewal is offered now",
    querystring: accountChoiceSchema,
    response: { 200: renewalScreenSchema },
  }),
  standingLetter: defineContract({
    method: 'GET',
    url: '/api/account/standing-letter',
    access: 'signed-in',
    scoped: true,
    summary: "The good-standing letter of the user's group, while the IRS data shows it in good standing",
    response: { 200: fileAnswer('The letter as PDF') },
    produces: ['application/pdf'],
  }),
};
