import { z } from 'zod';
import { timestampSchema } from '../contracts/common.ts';
import { longDate } from '../rules/compliance-calendar.ts';
import {
  EXTENSION_RECORDERS,
  EXTENSION_RETURN_FORMS,
  isPeriod,
  periodFirstDay,
  type ExtensionReturnForm,
} from '../rules/extensions.ts';
import { extendedDueDate, periodDueDate, periodText } from '../rules/standing.ts';
import { checkText, msg, requiredChoice, requiredIsoDate } from '../validation.ts';

/**
 * A Form 8868 extension as the group or staff record it (docs/irs-standing.md "Extensions"). One
 * schema for the form, the route (POST /api/account/extensions) and the service. Dates are
 * 'YYYY-MM-DD', the period 'YYYY-MM' (the end of the accounting period the return covers).
 */

/** The return a form option names. */
export const EXTENSION_RETURN_FORM_LABELS: Record<ExtensionReturnForm, string> = {
  '990-EZ': 'Form 990-EZ',
  '990': 'Form 990',
  '990-PF': 'Form 990-PF',
  '990-BL': 'Form 990-BL',
};

/** Messages of the rules that need the account or today, which the service checks. */
export const EXTENSION_MESSAGES = {
  future: 'The Form 8868 filing date must not be in the future.',
  noFiscalYearEnd:
    "The organization's fiscal year end is not known, so its return periods are not either: no Form 8868 extension can be recorded.",
  taken: (period: string, extendedDue: string) =>
    `A Form 8868 extension for the ${periodText(period)} is already recorded (due ${longDate(extendedDue)}).`,
  wrongForm: (forms: readonly ExtensionReturnForm[]) =>
    `This organization files ${forms.map((f) => EXTENSION_RETURN_FORM_LABELS[f]).join(' or ')}: choose the return that was extended.`,
  recorded: (period: string, extendedDue: string) =>
    `The Form 8868 extension was recorded: the return for the ${periodText(period)} is due ${longDate(extendedDue)}.`,
  removed: (period: string) => `The Form 8868 extension for the ${periodText(period)} was removed.`,
};

/** A required 'YYYY-MM' month: one line, no control characters (checkText), then the format. */
function requiredPeriod(label: string) {
  return z.preprocess(
    (v, ctx) => (typeof v === 'string' ? checkText(v, ctx, label) : (v ?? '')),
    z
      .string({ error: msg.required(label) })
      .min(1, msg.required(label))
      .refine(isPeriod, msg.format(label)),
  );
}

/**
 * POST /api/account/extensions. Besides each field's shape, the rules that need nothing but the
 * payload (docs/irs-standing.md "Extensions"): Form 8868 is filed by the return's original due date
 * (periodDueDate: the 15th day of the 5th month after the period ends, moved to a business day) and
 * not before the tax year it extends began; the extended due date is the one Form 8868 gives
 * (extendedDueDate: six months later, moved to a business day), named in the message when it
 * differs. The service adds the rules that need the account and today.
 */
export const filingExtensionSchema = z
  .object({
    period_end: requiredPeriod('return period'),
    return_form: requiredChoice('return extended', EXTENSION_RETURN_FORMS),
    filed_on: requiredIsoDate('Form 8868 filing date'),
    extended_due: requiredIsoDate('extended due date'),
  })
  .superRefine((v, ctx) => {
    // Only fields that passed their own rules are compared (a refused field has its message already).
    if (typeof v.period_end !== 'string' || !isPeriod(v.period_end)) return;
    const period = v.period_end;
    const isDate = (s: unknown): s is string => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s);
    if (isDate(v.filed_on)) {
      const due = periodDueDate(period);
      const first = periodFirstDay(period);
      if (v.filed_on > due) {
        ctx.addIssue({
          code: 'custom',
          path: ['filed_on'],
          message: `Form 8868 must be filed by the return's due date: ${longDate(due)} for the ${periodText(period)}. One filed later does not extend it.`,
        });
      } else if (v.filed_on < first) {
        ctx.addIssue({
          code: 'custom',
          path: ['filed_on'],
          message: `The Form 8868 filing date must be in or after the tax year it extends: on or after ${longDate(first)}.`,
        });
      }
    }
    if (isDate(v.extended_due)) {
      const extended = extendedDueDate(period);
      if (v.extended_due !== extended) {
        ctx.addIssue({
          code: 'custom',
          path: ['extended_due'],
          message: `The extended due date of the return for the ${periodText(period)} is ${longDate(extended)}: Form 8868 gives six months from the original due date.`,
        });
      }
    }
  });
export type FilingExtensionInput = z.infer<typeof filingExtensionSchema>;

/**
 * A recorded extension as the list shows it. `recorded_by`: the recorder's name (or e-mail when it
 * has none); null for a user since removed, and for staff when the reader is not staff.
 */
export const filingExtensionRowSchema = z.object({
  id: z.number().int(),
  period_end: z.string(),
  form: z.string(),
  return_form: z.enum(EXTENSION_RETURN_FORMS),
  filed_on: z.string(),
  extended_due: z.string(),
  recorded_as: z.enum(EXTENSION_RECORDERS),
  recorded_by: z.string().nullable(),
  created_at: timestampSchema,
});
export type FilingExtensionRow = z.output<typeof filingExtensionRowSchema>;

/** A period the form offers: its end 'YYYY-MM', original due date and the date with Form 8868. */
const extendablePeriodSchema = z.object({ period_end: z.string(), due: z.string(), extended_due: z.string() });

/**
 * GET /api/account/extensions: the account's recorded extensions, newest period first, and what the
 * form may offer: `refusal` says why none can be recorded (a 990-N filer, a church, ...) and is null
 * when one can; `periods` the periods without one yet (newest first), `return_forms` the returns
 * the organization files; `can_remove` for staff.
 */
export const filingExtensionsViewSchema = z.object({
  today: z.string(),
  extensions: z.array(filingExtensionRowSchema),
  refusal: z.string().nullable(),
  return_forms: z.array(z.enum(EXTENSION_RETURN_FORMS)),
  periods: z.array(extendablePeriodSchema),
  can_remove: z.boolean(),
});
export type FilingExtensionsView = z.output<typeof filingExtensionsViewSchema>;
