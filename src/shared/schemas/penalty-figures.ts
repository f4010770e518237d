import { z } from 'zod';
import { optionalText, requiredInt, requiredText } from '../validation.ts';
import { dollarsToCentsField } from './admin-levels.ts';

/**
 * Staff's form for the IRC §6652(c)(1)(A) late-filing penalty figures of one due year
 * (docs/irs-standing.md "What being late costs"), copied from the IRS instructions that print them.
 * The browser checks it before sending; POST /api/admin/penalty-figures parses its body with it. Amounts are typed in dollars and come out as integer cents.
 */
export const penaltyFiguresSchema = z
  .object({
    /** The calendar year the returns the figures apply to are due in. */
    due_year: requiredInt('due year', 2000, 2100),
    daily: dollarsToCentsField('daily penalty'),
    maximum: dollarsToCentsField('maximum'),
    // The statute's threshold was $1,000,000 before inflation adjustments.
    large_receipts_over: dollarsToCentsField('gross receipts threshold', 100_000_000),
    large_daily: dollarsToCentsField('daily penalty above the threshold'),
    large_maximum: dollarsToCentsField('maximum above the threshold'),
    source: requiredText({ label: 'source', max: 300 }),
    source_url: optionalText({ label: 'address on irs.gov', max: 500 }).refine(
      (v) => v === '' || /^https:\/\/[^\s/]*irs\.gov(\/\S*)?$/i.test(v),
      'The address must be an https address on irs.gov.',
    ),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.daily <= 0) issue('daily', 'The daily penalty must be more than $0.00.');
    if (v.maximum <= v.daily) issue('maximum', 'The maximum must be more than the daily penalty.');
    if (v.large_receipts_over <= 0)
      issue('large_receipts_over', 'The gross receipts threshold must be more than $0.00.');
    if (v.large_daily <= v.daily)
      issue('large_daily', 'The daily penalty above the threshold must be more than the daily penalty.');
    if (v.large_maximum <= v.maximum)
      issue('large_maximum', 'The maximum above the threshold must be more than the maximum.');
  });
export type PenaltyFiguresInput = z.output<typeof penaltyFiguresSchema>;

/** The due year in a removal's address: a calendar year from 2000 to 2100. */
export const penaltyYearParams = z.object({ year: requiredInt('year', 2000, 2100) });

/** One due year's figures as staff read them back (amounts in integer cents). */
export const penaltyFiguresRowSchema = z.object({
  due_year: z.number().int(),
  daily_cents: z.number().int(),
  maximum_cents: z.number().int(),
  large_receipts_over_cents: z.number().int(),
  large_daily_cents: z.number().int(),
  large_maximum_cents: z.number().int(),
  source: z.string(),
  source_url: z.string(),
  updated_at: z.string(),
  /** How a late return due that year reads with these figures (lateCostText, a Form 990). */
  reads: z.string(),
});
export type PenaltyFiguresRow = z.infer<typeof penaltyFiguresRowSchema>;
