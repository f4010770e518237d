import { z } from 'zod';
import { MONTH_NAMES } from '../lists/months.ts';
import { dollarsToCents } from '../rules/billing.ts';
import { checkText, msg, optionalText, requiredText } from '../validation.ts';

/**
 * Admin forms for levels and their prices, and for the per-state requirements (docs/requirements/product.md "Staff console"). The
 * browser checks them before sending, the routes PUT /api/admin/levels/:id and
 * PUT /api/admin/states/:code parse their bodies with them. Amounts are typed in decimal dollars
 * and come out as integer cents.
 */

/** Largest amount an admin may type, in dollars. */
export const MAX_ADMIN_DOLLARS = 1_000_000;

/**
 * An amount typed in dollars ('345', '345.5', '1,245.00', '$20'), at most 2 decimals, 0 to `max`
 * (1,000,000); the output is integer cents. Messages name `label` ('The price field is required.').
 */
export function dollarsToCentsField(label: string, max: number = MAX_ADMIN_DOLLARS) {
  return z.preprocess(
    (v, ctx) => {
      const s = typeof v === 'string' ? checkText(v, ctx, label).replace(/^\$/, '').replace(/,/g, '') : v;
      if (s === '' || s === null || s === undefined) return undefined;
      return typeof s === 'string' ? (/^\d+(\.\d{1,2})?$/.test(s) ? Number(s) : NaN) : s;
    },
    z
      .number({
        error: (iss) =>
          iss.input === undefined
            ? msg.required(label)
            : `The ${label} must be an amount in dollars, such as 245 or 245.50.`,
      })
      .min(0, msg.between(label, 0, max))
      .max(max, msg.between(label, 0, max))
      .refine(
        (d) => Math.abs(d * 100 - Math.round(d * 100)) < 1e-6,
        `The ${label} must be an amount in dollars, such as 245 or 245.50.`,
      )
      .transform((d) => dollarsToCents(d)),
  );
}

export const LEVEL_MESSAGES = {
  earlyBird: 'The early-bird price must not be greater than the price.',
  upgradeEarlyBird: 'The early-bird upgrade price must not be greater than the upgrade price.',
  incEarlyBird: 'The early-bird incorporation price must not be greater than the incorporation price.',
  upgradeTarget: 'Choose another level, or none.',
  features: 'List at most 20 renewal features, one per line, each up to 255 characters.',
} as const;

/**
 * Renewal features as typed: one per line (a textarea: line breaks kept, no other control;
 * checkText); blank lines dropped, each trimmed.
 */
const featureLines = z
  .preprocess(
    (v, ctx) =>
      checkText(Array.isArray(v) ? v.join('\n') : typeof v === 'string' ? v : '', ctx, 'renewal features', 'multi'),
    z.string().transform((s) =>
      s
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  )
  .refine((lines) => lines.length <= 20 && lines.every((l) => l.length <= 255), LEVEL_MESSAGES.features);

/** '' or null: no upgrade target; otherwise a level id (the server checks it exists and is another level). */
const upgradeTarget = z.preprocess(
  (v, ctx) => {
    const s = typeof v === 'string' ? checkText(v, ctx, 'upgrade level') : v;
    if (s === '' || s === null || s === undefined || s === 0 || s === '0') return null;
    return typeof s === 'string' ? (/^[1-9]\d{0,9}$/.test(s) ? Number(s) : NaN) : s;
  },
  z
    .number({ error: LEVEL_MESSAGES.upgradeTarget })
    .int(LEVEL_MESSAGES.upgradeTarget)
    .min(1, LEVEL_MESSAGES.upgradeTarget)
    .max(2_147_483_647, LEVEL_MESSAGES.upgradeTarget)
    .nullable(),
);

/**
 * A level's prices (PUT /api/admin/levels/:id): price, early-bird price (`price_discount`: the
 * price paid when renewing early, not an amount off; at most the price), upgrade target (another
 * level or none), upgrade and incorporation prices with their early-bird prices, renewal features.
 */
export const levelFormSchema = z
  .object({
    price: dollarsToCentsField('price'),
    price_discount: dollarsToCentsField('early-bird price'),
    upgrade_to_id: upgradeTarget,
    upgrade: dollarsToCentsField('upgrade price'),
    upgrade_discount: dollarsToCentsField('early-bird upgrade price'),
    inc_package: dollarsToCentsField('incorporation price'),
    inc_package_discount: dollarsToCentsField('early-bird incorporation price'),
    renewal_features: featureLines,
  })
  .superRefine((v, ctx) => {
    if (v.price_discount > v.price)
      ctx.addIssue({ code: 'custom', path: ['price_discount'], message: LEVEL_MESSAGES.earlyBird });
    if (v.upgrade_discount > v.upgrade)
      ctx.addIssue({ code: 'custom', path: ['upgrade_discount'], message: LEVEL_MESSAGES.upgradeEarlyBird });
    if (v.inc_package_discount > v.inc_package)
      ctx.addIssue({ code: 'custom', path: ['inc_package_discount'], message: LEVEL_MESSAGES.incEarlyBird });
  });
export type LevelFormInput = z.input<typeof levelFormSchema>;
export type LevelForm = z.output<typeof levelFormSchema>;

/** A level as the admin screen lists it (GET /api/admin/levels); money in integer cents. */
export const adminLevelSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  is_public: z.boolean(),
  price_cents: z.number().int(),
  /** The early-bird price (not an amount off). */
  price_discount_cents: z.number().int(),
  upgrade_to_id: z.number().int().nullable(),
  upgrade_to_name: z.string().nullable(),
  upgrade_cents: z.number().int(),
  upgrade_discount_cents: z.number().int(),
  inc_package_cents: z.number().int(),
  inc_package_discount_cents: z.number().int(),
  renewal_features: z.array(z.string()),
});
export type AdminLevel = z.infer<typeof adminLevelSchema>;

export const STATE_FILING_MESSAGES = {
  labelRequired: 'The filing label field is required when a filing date is given.',
  labelWithoutDate: 'Give the filing due month and day, or leave the filing label empty.',
  monthRequired: 'Choose the filing due month too, or clear the filing due day.',
  dayRequired: 'Enter the filing due day too, or choose no filing due month.',
  month: 'Choose a month from the list.',
} as const;

/** Longest day of each month (1-based index - 1); February 29 is allowed, leap years only fall on it. */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** The month choices of the state form's filing due month ('' = no date), month 1-based. */
export const FILING_MONTH_OPTIONS: { value: string; label: string }[] = [
  { value: '', label: 'No filing date' },
  ...MONTH_NAMES.map((label, i) => ({ value: String(i + 1), label })),
];

/** '' / null / undefined → null; digits → number; anything else → NaN (rejected with `message`). */
const optionalWhole = (label: string, min: number, max: number, message?: string) =>
  z.preprocess(
    (v, ctx) => {
      const s = typeof v === 'string' ? checkText(v, ctx, label) : v;
      if (s === '' || s === null || s === undefined) return null;
      return typeof s === 'string' ? (/^\d{1,3}$/.test(s) ? Number(s) : NaN) : s;
    },
    z
      .number({ error: message ?? msg.integer(label) })
      .int(message ?? msg.integer(label))
      .min(min, message ?? msg.between(label, min, max))
      .max(max, message ?? msg.between(label, min, max))
      .nullable(),
  );

/**
 * One state's requirement (PUT /api/admin/states/:code): name, the two estimates in dollars, notes,
 * and the state's annual filing for nonprofits: label ('Annual report'), due month (1-12) and day
 * (1 to the month's length, February 29 allowed). The date is both set or both empty; a label
 * needs a date. Output: `filing_label`, `filing_due_month`, `filing_due_day` all null when no date.
 */
export const stateRequirementFormSchema = z
  .object({
    state_name: requiredText({ label: 'state name', max: 100 }),
    maintain_estimate: dollarsToCentsField('maintain estimate'),
    aoi_estimate: dollarsToCentsField('articles of incorporation estimate'),
    notes: optionalText({ label: 'notes', max: 1000, lines: 'multi' }),
    filing_label: optionalText({ label: 'filing label', max: 100 }),
    filing_due_month: optionalWhole('filing due month', 1, 12, STATE_FILING_MESSAGES.month),
    filing_due_day: optionalWhole('filing due day', 1, 31),
  })
  .superRefine((v, ctx) => {
    const { filing_due_month: month, filing_due_day: day } = v;
    if (month !== null && day === null)
      ctx.addIssue({ code: 'custom', path: ['filing_due_day'], message: STATE_FILING_MESSAGES.dayRequired });
    if (month === null && day !== null)
      ctx.addIssue({ code: 'custom', path: ['filing_due_month'], message: STATE_FILING_MESSAGES.monthRequired });
    if (month !== null && day !== null && day > MONTH_DAYS[month - 1]) {
      ctx.addIssue({
        code: 'custom',
        path: ['filing_due_day'],
        message: `The filing due day must be between 1 and ${MONTH_DAYS[month - 1]} for ${MONTH_NAMES[month - 1]}.`,
      });
    }
    if ((month !== null || day !== null) && v.filing_label === '')
      ctx.addIssue({ code: 'custom', path: ['filing_label'], message: STATE_FILING_MESSAGES.labelRequired });
    if (month === null && day === null && v.filing_label !== '')
      ctx.addIssue({ code: 'custom', path: ['filing_label'], message: STATE_FILING_MESSAGES.labelWithoutDate });
  })
  .transform((v) => {
    const dated = v.filing_due_month !== null && v.filing_due_day !== null;
    return {
      ...v,
      filing_label: dated ? v.filing_label : null,
      filing_due_month: dated ? v.filing_due_month : null,
      filing_due_day: dated ? v.filing_due_day : null,
    };
  });
export type StateRequirementFormInput = z.input<typeof stateRequirementFormSchema>;
export type StateRequirementForm = z.output<typeof stateRequirementFormSchema>;

/** A state's requirement as listed (GET /api/admin/states); estimates in integer cents; the filing fields null when no date is kept. */
export const adminStateRequirementSchema = z.object({
  code: z.string(),
  state_name: z.string(),
  maintain_estimate_cents: z.number().int(),
  aoi_estimate_cents: z.number().int(),
  notes: z.string(),
  filing_label: z.string().nullable(),
  filing_due_month: z.number().int().nullable(),
  filing_due_day: z.number().int().nullable(),
});
export type AdminStateRequirement = z.infer<typeof adminStateRequirementSchema>;
