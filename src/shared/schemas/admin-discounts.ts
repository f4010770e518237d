import { z } from 'zod';
import { normalizeDiscountCode } from '../rules/billing.ts';
import { checkText, msg, optionalText, requiredChoice } from '../validation.ts';
import { dollarsToCentsField } from './admin-levels.ts';
import { checkbox } from './admin.ts';

/**
 * The admin's discount code form (docs/requirements/entities.md "Discount"): checked by the browser before
 * sending and by POST /api/admin/discounts and PUT /api/admin/discounts/:id. A code is either a
 * fixed amount off (typed in dollars, stored in integer cents) or a percentage (typed 0-100 with
 * up to 4 decimals, stored as a multiplier of 6 decimals); never both. Dates are whole days in
 * UTC: a code starts at 00:00 UTC of its start date and ends after 23:59:59 UTC of its end date.
 */

export const DISCOUNT_KINDS = ['fixed', 'percent'] as const;
export type DiscountKindChoice = (typeof DISCOUNT_KINDS)[number];

/** What stored codes look like (the table's check constraint). */
export const DISCOUNT_CODE_PATTERN = /^[A-Z0-9_-]{1,64}$/;

/** Largest fixed amount off, in dollars. */
export const MAX_DISCOUNT_DOLLARS = 100_000;
/** Largest use limit. */
export const MAX_USE_LIMIT = 1_000_000;

export const DISCOUNT_MESSAGES = {
  codeFormat: 'The code may contain only letters, digits, "-" and "_" (up to 64).',
  codeTaken: 'This code is already in use.',
  fixedRange: `The amount off must be more than $0 and at most $${MAX_DISCOUNT_DOLLARS.toLocaleString('en-US')}.`,
  percentFormat: 'The percentage must be a number such as 20 or 12.5 (up to 4 decimals).',
  percentRange: 'The percentage must be more than 0 and at most 100.',
  flags: 'Choose at least one kind of charge the code applies to.',
  date: 'Enter a date as YYYY-MM-DD.',
  endBeforeStart: 'The end date must not be before the start date.',
  useLimit: `The use limit must be a whole number from 1 to ${MAX_USE_LIMIT.toLocaleString('en-US')}, or empty for no limit.`,
} as const;

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of a real calendar day -> its 00:00 UTC; anything else -> null. */
export function dayStartUtc(day: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === day ? d : null;
}

/** A stored starts_at -> the start date shown in the form ('' when open). */
export function startDateOf(startsAt: string | Date | null): string {
  return startsAt ? new Date(startsAt).toISOString().slice(0, 10) : '';
}

/** A stored expires_at (the first moment the code no longer works) -> the last day it works ('' when open). */
export function endDateOf(expiresAt: string | Date | null): string {
  return expiresAt ? new Date(new Date(expiresAt).getTime() - 1).toISOString().slice(0, 10) : '';
}

/** An optional date input: '' -> null, 'YYYY-MM-DD' -> that day's 00:00 UTC. */
const dayField = (label: string) =>
  z.preprocess(
    (v, ctx) => (v === null || v === undefined ? '' : typeof v === 'string' ? checkText(v, ctx, label) : v),
    z.string({ error: DISCOUNT_MESSAGES.date }).transform((s, ctx) => {
      if (s === '') return null;
      const d = dayStartUtc(s.slice(0, 10));
      if (!d || (s.length > 10 && !/^T/.test(s.slice(10)))) {
        ctx.addIssue({ code: 'custom', message: DISCOUNT_MESSAGES.date });
        return z.NEVER;
      }
      return d;
    }),
  );

/** The amount as typed, checked against the chosen kind below. */
const amountText = z.preprocess(
  (v, ctx) =>
    v === null || v === undefined
      ? ''
      : typeof v === 'number'
        ? String(v)
        : typeof v === 'string'
          ? checkText(v, ctx, 'amount')
          : v,
  z.string({ error: msg.required('amount') }).min(1, msg.required('amount')),
);

const useLimit = z.preprocess(
  (v, ctx) => {
    const s = typeof v === 'string' ? checkText(v, ctx, 'use limit') : v;
    if (s === '' || s === null || s === undefined) return null;
    return typeof s === 'string' ? (/^\d+$/.test(s) ? Number(s) : NaN) : s;
  },
  z
    .number({ error: DISCOUNT_MESSAGES.useLimit })
    .int(DISCOUNT_MESSAGES.useLimit)
    .min(1, DISCOUNT_MESSAGES.useLimit)
    .max(MAX_USE_LIMIT, DISCOUNT_MESSAGES.useLimit)
    .nullable(),
);

const fixedCents = dollarsToCentsField('amount off');

/**
 * The discount form: code (normalised: trimmed, upper case), description, kind ('fixed' |
 * 'percent') with `amount` (dollars or percent), the four flags (at least one), `starts_at` and
 * `expires_at` as 'YYYY-MM-DD' or '' (the end date is the last day the code works), `max_redemptions`
 * ('' for unlimited) and `is_active`. The output carries `currency_value_cents`, `multiplier`, and
 * the dates as instants (`expires_at` is 00:00 UTC of the day after the end date).
 */
export const discountFormSchema = z
  .object({
    code: z.preprocess(
      (v, ctx) =>
        normalizeDiscountCode(
          typeof v === 'number' ? String(v) : typeof v === 'string' ? checkText(v, ctx, 'code') : v,
        ),
      z
        .string()
        .min(1, { message: msg.required('code'), abort: true })
        .regex(DISCOUNT_CODE_PATTERN, DISCOUNT_MESSAGES.codeFormat),
    ),
    description: optionalText({ label: 'description', max: 255 }),
    kind: requiredChoice('kind', DISCOUNT_KINDS),
    amount: amountText,
    is_new_account: checkbox,
    is_renewals: checkbox,
    is_upgrades: checkbox,
    is_service_fees: checkbox,
    starts_at: dayField('start date'),
    expires_at: dayField('end date'),
    max_redemptions: useLimit,
    is_active: checkbox,
  })
  .transform((v, ctx) => {
    let currency_value_cents = 0;
    let multiplier = 0;
    if (v.kind === 'fixed') {
      const parsed = fixedCents.safeParse(v.amount);
      if (!parsed.success) ctx.addIssue({ code: 'custom', path: ['amount'], message: parsed.error.issues[0].message });
      else if (parsed.data <= 0 || parsed.data > MAX_DISCOUNT_DOLLARS * 100)
        ctx.addIssue({ code: 'custom', path: ['amount'], message: DISCOUNT_MESSAGES.fixedRange });
      else currency_value_cents = parsed.data;
    } else {
      const s = v.amount.replace(/\s*%$/, '');
      if (!/^\d+(\.\d{1,4})?$/.test(s))
        ctx.addIssue({ code: 'custom', path: ['amount'], message: DISCOUNT_MESSAGES.percentFormat });
      else {
        const percent = Number(s);
        if (percent <= 0 || percent > 100)
          ctx.addIssue({ code: 'custom', path: ['amount'], message: DISCOUNT_MESSAGES.percentRange });
        // Whole ten-thousandths of a percent are whole millionths of the multiplier: exact to 6 decimals.
        else multiplier = Math.round(Number((percent * 10_000).toFixed(3))) / 1_000_000;
      }
    }
    if (!v.is_new_account && !v.is_renewals && !v.is_upgrades && !v.is_service_fees) {
      ctx.addIssue({ code: 'custom', path: ['flags'], message: DISCOUNT_MESSAGES.flags });
    }
    const expiresAt = v.expires_at ? new Date(v.expires_at.getTime() + DAY_MS) : null;
    if (v.starts_at && v.expires_at && v.expires_at.getTime() < v.starts_at.getTime()) {
      ctx.addIssue({ code: 'custom', path: ['expires_at'], message: DISCOUNT_MESSAGES.endBeforeStart });
    }
    return {
      code: v.code,
      description: v.description,
      currency_value_cents,
      multiplier,
      is_new_account: v.is_new_account,
      is_renewals: v.is_renewals,
      is_upgrades: v.is_upgrades,
      is_service_fees: v.is_service_fees,
      starts_at: v.starts_at,
      expires_at: expiresAt,
      max_redemptions: v.max_redemptions,
      is_active: v.is_active,
    };
  });
export type DiscountFormInput = z.input<typeof discountFormSchema>;
export type DiscountForm = z.output<typeof discountFormSchema>;

/**
 * A discount code as the admin list shows it (GET /api/admin/discounts): the fields of `Discount`
 * (src/shared/rules/billing.ts; money in integer cents, the multiplier a fraction) and its schedule.
 */
export const adminDiscountSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  description: z.string(),
  currency_value_cents: z.number().int(),
  multiplier: z.number(),
  is_new_account: z.boolean(),
  is_renewals: z.boolean(),
  is_upgrades: z.boolean(),
  is_service_fees: z.boolean(),
  /** ISO 8601 or null (open). */
  starts_at: z.string().nullable(),
  /** ISO 8601, the first moment the code no longer works, or null (open). */
  expires_at: z.string().nullable(),
  max_redemptions: z.number().int().nullable(),
  is_active: z.boolean(),
  /** Redeemed reservations (payments that used the code). */
  used: z.number().int(),
  created_at: z.string(),
});
export type AdminDiscount = z.infer<typeof adminDiscountSchema>;

/** Percent text of a multiplier for the form: 0.2 -> '20', 0.125 -> '12.5'. */
export function percentTextOf(multiplier: number): string {
  return String(Number((multiplier * 100).toFixed(4)));
}
