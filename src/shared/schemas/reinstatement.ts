import { z } from 'zod';
import { timestampSchema } from '../contracts/common.ts';
import { REINSTATEMENT_ITEM_KEYS, REINSTATEMENT_SECTIONS } from '../rules/reinstatement.ts';
import { msg, requiredChoice } from '../validation.ts';

/**
 * The reinstatement checklist of a revoked organization (docs/irs-standing.md "Reinstatement"):
 * GET and PUT /api/account/reinstatement. One schema for the checkbox, the route and the service.
 * Dates are 'YYYY-MM-DD'.
 */

/** Messages of the rules the service checks. */
export const REINSTATEMENT_MESSAGES = {
  notRevoked:
    'The organization is not on the IRS Automatic Revocation List without a reinstatement: there is no checklist to work through.',
  notOffered: 'No reinstatement application is offered at the moment: please write to us.',
  ordered: (number: string, level: string) => `Invoice ${number} for the ${level} is ready to pay.`,
  alreadyOrdered: (number: string) => `The reinstatement application is already ordered: invoice ${number}.`,
  checked: (text: string) => `Ticked: ${text}`,
  unchecked: (text: string) => `No longer ticked: ${text}`,
};

/**
 * PUT /api/account/reinstatement: `{ item, checked }`. `item` is a key of REINSTATEMENT_ITEMS (a 422
 * "The selected item is invalid." otherwise); `checked` true ticks it, false unticks it.
 */
export const reinstatementItemSchema = z.object({
  item: requiredChoice('item', REINSTATEMENT_ITEM_KEYS),
  checked: z.boolean({ error: msg.required('checked') }),
});
export type ReinstatementItemInput = z.infer<typeof reinstatementItemSchema>;

const itemSchema = z.object({
  key: z.enum(REINSTATEMENT_ITEM_KEYS),
  text: z.string(),
  /** When it was ticked, null while it is not. */
  checked_at: timestampSchema.nullable(),
  /** Who ticked it: the name (or e-mail), "staff" words for a group reading staff's tick, null when not ticked or the user is gone. */
  checked_by: z.string().nullable(),
});

const pathSchema = z.object({
  section: z.enum(REINSTATEMENT_SECTIONS),
  title: z.string(),
  fit: z.enum(['fits', 'may_fit', 'does_not_fit']),
  reason: z.string(),
  deadline: z.string().nullable(),
  items: z.array(itemSchema),
});

/**
 * The account's order of the reinstatement application for its current revocation: its invoice,
 * value and balance in integer cents (0 once paid), and when it was placed.
 */
export const reinstatementOrderSchema = z.object({
  invoice_id: z.number().int(),
  number: z.string(),
  value_cents: z.number().int(),
  balance_cents: z.number().int(),
  ordered_at: timestampSchema,
});
export type ReinstatementOrder = z.output<typeof reinstatementOrderSchema>;

/**
 * GET /api/account/reinstatement: for an organization on the revocation list and not reinstated,
 * its revocation (`revoked_on`, `posted_on`, the 15-month `deadline`) and the Rev. Proc. 2014-11
 * paths in order with their checklists and ticks; otherwise `revocation` null and no paths. `level`:
 * the "Reinstatement application" level the group orders (POST /api/account/reinstatement/order),
 * null when the installation offers none; `order`: the order placed for the current revocation, if any.
 */
export const reinstatementViewSchema = z.object({
  today: z.string(),
  revocation: z
    .object({ revoked_on: z.string(), posted_on: z.string().nullable(), deadline: z.string().nullable() })
    .nullable(),
  paths: z.array(pathSchema),
  level: z.object({ id: z.number().int(), name: z.string(), price_cents: z.number().int() }).nullable(),
  order: reinstatementOrderSchema.nullable(),
});
export type ReinstatementView = z.output<typeof reinstatementViewSchema>;
