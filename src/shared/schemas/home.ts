import { z } from 'zod';
import { STANDING_STATES } from '../rules/standing.ts';
import { accountChoiceSchema } from './account-choice.ts';

/**
 * The group's home, /app (docs/app-home.md): one summary of where the group stands, what is due,
 * what is unpaid, what is in progress, its documents and its users, read from
 * `GET /api/app/home`. Dates are ISO strings ('YYYY-MM-DD' for calendar days); amounts integer cents.
 */

/**
 * Query of GET /api/app/home: staff name the account with `account_id` (a malformed one is refused
 * with 422 before the query is read, plugins/access.ts); a holder's is ignored, even malformed.
 */
export const homeQuery = z.object({ account_id: accountChoiceSchema.shape.account_id.catch(undefined) });

export const homeDeadlineSchema = z.object({
  kind: z.enum(['form_990', 'renewal', 'state']),
  label: z.string(),
  /** 'YYYY-MM-DD'. */
  due: z.string(),
  /** Calendar days from today; negative when overdue. */
  days_left: z.number().int(),
  /** For a Form 990 deadline: whether a filing for its tax year is recorded. */
  filed: z.boolean().optional(),
});

/**
 * The group applied to the IRS and awaits its determination letter (docs/wizard.md "A group
 * waiting for its IRS letter"): the form and the day it was filed, as answered.
 */
export const letterAwaitedSchema = z.object({
  form: z.string(),
  filed_on: z.string(),
  /** 'YYYY-MM-DD' the letter waiting for staff's review was uploaded; null when none waits. */
  received_on: z.string().nullable(),
  /** The last letter staff sent back, while no newer one waits: why, and when ('YYYY-MM-DD'). */
  returned: z.object({ reason: z.string(), on: z.string() }).nullable(),
});

export const homeSummarySchema = z.object({
  /** The account shown; null when the signed-in holder has no organization yet. */
  account: z
    .object({
      id: z.number().int(),
      name: z.string(),
      /** Formatted 12-3456789, or '' when unknown. */
      ein: z.string(),
      city: z.string(),
      state: z.string(),
      level: z.string().nullable(),
      renewal_due_at: z.string().nullable(),
    })
    .nullable(),
  /** true when staff act for an account that is not their own. */
  on_behalf: z.boolean(),
  standing: z
    .object({
      state: z.enum(STANDING_STATES),
      label: z.string(),
      missed_tax_years: z.array(z.number().int()),
      days_to_revocation: z.number().int().nullable(),
      revocation_date: z.string().nullable(),
    })
    .nullable(),
  /**
   * The group applied to the IRS and awaits its determination letter (docs/wizard.md "A group
   * waiting for its IRS letter"); null otherwise. `received_on` once the letter was uploaded.
   */
  letter_awaited: letterAwaitedSchema.nullable(),
  /** Upcoming deadlines, soonest first (the compliance calendar). */
  deadlines: z.array(homeDeadlineSchema),
  /** The first deadline not yet met (a Form 990 already recorded as filed is skipped); null when none. */
  next_deadline: homeDeadlineSchema.nullable(),
  invoices: z.array(
    z.object({
      id: z.number().int(),
      number: z.string(),
      document_at: z.string(),
      value_cents: z.number().int(),
      balance_cents: z.number().int(),
      /** A payment of it is being processed: it cannot be paid now. */
      is_processing: z.boolean(),
    }),
  ),
  /** Sum of the balances of the invoices that can be paid now. */
  payable_cents: z.number().int(),
  /** Applications in progress of the account's users (the holder's own when there is no account yet), newest first. */
  applications: z.array(
    z.object({
      id: z.number().int(),
      level: z.string(),
      updated_at: z.string(),
      /** Who started it: a name, or the e-mail when no name is kept. */
      started_by: z.string(),
      /** Started by the viewer: only they can continue it (its wizard link names their own application). */
      is_mine: z.boolean(),
    }),
  ),
  documents: z.object({
    /** Bylaws made with the generator by the account's users, newest first. */
    bylaws: z.array(
      z.object({
        hash: z.string(),
        variant: z.enum(['standard', 'school', 'short']),
        updated_at: z.string(),
      }),
    ),
    /** Receipts of the newest payments that have one (at most RECEIPTS_ON_HOME). */
    receipts: z.array(
      z.object({
        id: z.number().int(),
        created_at: z.string(),
        amount_cents: z.number().int(),
        status: z.string(),
      }),
    ),
    /** The good-standing letter: available while the IRS data shows the group in good standing. */
    standing_letter: z.object({ available: z.boolean(), url: z.string() }),
  }),
  users: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      email: z.string(),
      is_primary: z.boolean(),
    }),
  ),
});
export type HomeSummary = z.infer<typeof homeSummarySchema>;
export type HomeDeadline = z.infer<typeof homeDeadlineSchema>;

/** How many receipts the home lists; the rest are on /app/finances. */
export const RECEIPTS_ON_HOME = 5;
