import { z } from 'zod';
import { pageObjectSchema } from '../contracts/page-object.ts';
import { STATE_CODES } from '../lists/states.ts';
import { grossReceiptsTest, type GrossReceiptsResult } from '../rules/gross-receipts.ts';
import { checkText, msg, requiredChoice, requiredInt } from '../validation.ts';
import { listSearch } from './list-params.ts';

/**
 * The yearly supervision report and Form 990-N preparation (docs/supervision.md): one schema for
 * the form on /app/supervision, `PUT /api/account/supervision` and the service saveSupervisionReport.
 * The form sends text; money is typed in dollars and comes out as integer cents.
 *
 * IRS field limits (docs/supervision.md "Field limits"): IRS Publication 5248 (the e-Postcard user
 * guide, Rev. 8-2023) asks filers to use only letters, numbers and hyphens in text fields and to
 * keep each entry to 35 characters; the 990-N data the IRS publishes has 35-character address
 * lines and up to three other names. Spaces are allowed (every name and address holds them).
 */

/** The longest e-Postcard text entry (IRS Publication 5248). */
export const EPOSTCARD_TEXT_MAX = 35;
/** Longest officers list and activities description of the supervision part (ours: a page of text). */
export const OFFICERS_MAX = 2000;
export const ACTIVITIES_MAX = 4000;
/** Largest amount a money field takes, in dollars (a 990-N filer is far below it). */
export const MONEY_MAX_DOLLARS = 100_000_000;
/** The earliest tax year a 990-N exists for (tax years ending on or after 31 December 2007). */
export const FIRST_990N_TAX_YEAR = 2007;

/** Type of organization: private foundations and supporting organizations may not file the 990-N. */
export const ORGANIZATION_TYPES = ['other', 'private_foundation', 'supporting_organization'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];
export const ORGANIZATION_TYPE_LABELS: Record<OrganizationType, string> = {
  other: 'Neither (a public charity or other exempt organization)',
  private_foundation: 'A private foundation',
  supporting_organization: 'A supporting organization (section 509(a)(3))',
};
export const YES_NO = ['no', 'yes'] as const;

/** What each ineligible type files instead (the IRS page "Form 990-N: Organizations Not Permitted to File"). */
export const INELIGIBLE_MESSAGES: Record<Exclude<OrganizationType, 'other'>, string> = {
  private_foundation: 'A private foundation may not file the e-Postcard (Form 990-N): it files Form 990-PF.',
  supporting_organization:
    'A supporting organization (section 509(a)(3)) may not file the e-Postcard (Form 990-N): it files Form 990-EZ or Form 990.',
};

/** One line of text (checkText: a line break or control is refused, not folded), runs of spaces as one. */
const asText = (label: string) => (v: unknown, ctx: z.RefinementCtx) =>
  typeof v === 'string' ? checkText(v, ctx, label).replace(/\s+/g, ' ') : typeof v === 'number' ? String(v) : (v ?? '');
const IRS_TEXT = /^[A-Za-z0-9 -]*$/;
const irsCharsMessage = (label: string) =>
  `The ${label} field may only contain letters, numbers, spaces and hyphens (the IRS e-Postcard accepts no other characters).`;

/** An e-Postcard text entry: letters, numbers, spaces and hyphens, at most 35 characters. */
function irsText(label: string, required: boolean) {
  let s = z
    .string({ error: msg.string(label) })
    .max(EPOSTCARD_TEXT_MAX, msg.max(label, EPOSTCARD_TEXT_MAX))
    .regex(IRS_TEXT, irsCharsMessage(label));
  if (required) s = s.min(1, msg.required(label));
  return z.preprocess(asText(label), s);
}

/** A US ZIP code: 5 digits or ZIP+4, kept as '12345' or '12345-6789'. */
function zipCode(label: string) {
  return z.preprocess(
    asText(label),
    z
      .string({ error: msg.string(label) })
      .min(1, msg.required(label))
      .regex(/^\d{5}(-?\d{4})?$/, `The ${label} field must be a ZIP code: 5 digits, or 9 as 12345-6789.`)
      .transform((v) =>
        v.replace('-', '').length === 9 ? `${v.replace('-', '').slice(0, 5)}-${v.replace('-', '').slice(5)}` : v,
      ),
  );
}

/** A free text of the supervision part (officers, activities): required, at most `max` characters, line breaks kept. */
function longText(label: string, max: number) {
  return z.preprocess(
    (v, ctx) => (typeof v === 'string' ? checkText(v, ctx, label, 'multi') : (v ?? '')),
    z
      .string({ error: msg.required(label) })
      .min(1, msg.required(label))
      .max(max, msg.max(label, max)),
  );
}

/**
 * Dollars as typed ('1,234.50', '$80', '0') to integer cents; at most 2 decimals. Required fields
 * refuse an empty entry; optional ones give null.
 */
export function dollarsToCents(label: string, required: boolean) {
  return z.preprocess(
    (v, ctx) => {
      const s =
        typeof v === 'string'
          ? checkText(v, ctx, label).replace(/^\$/, '').replace(/,/g, '')
          : typeof v === 'number'
            ? String(v)
            : v;
      if (s === '' || s === null || s === undefined) return null;
      const m = typeof s === 'string' ? /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(s) : null;
      // Cents from the digits themselves: 0.29 * 100 is 28.999… in floating point.
      return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : NaN;
    },
    z
      .number({ error: msg.format(label) })
      .nullable()
      .refine((c) => c !== null || !required, msg.required(label))
      .refine(
        (c) => c === null || (Number.isSafeInteger(c) && c <= MONEY_MAX_DOLLARS * 100),
        `The ${label} field must be an amount in dollars from 0 to ${MONEY_MAX_DOLLARS.toLocaleString('en-US')}, with at most 2 decimals.`,
      ),
  );
}

/** Integer cents as the form's dollars text ('1234.5' → '1234.50'; whole dollars without decimals). */
export function centsToDollarsText(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '';
  const rest = cents % 100;
  return rest ? `${Math.floor(cents / 100)}.${String(rest).padStart(2, '0')}` : String(cents / 100);
}

const einField = z.preprocess(
  asText('EIN'),
  z
    .string({ error: msg.string('EIN') })
    .min(1, msg.required('EIN'))
    .regex(/^\d{2}-?\d{7}$/, 'The EIN field must be the 9-digit Employer Identification Number, as 12-3456789.')
    .transform((v) => v.replace('-', '')),
);

const websiteField = z.preprocess(
  asText('website'),
  z
    .string()
    .max(EPOSTCARD_TEXT_MAX, msg.max('website', EPOSTCARD_TEXT_MAX))
    .refine(
      (v) => v === '' || /^(https?:\/\/)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(\/[A-Za-z0-9._~%/?=&+#-]*)?$/.test(v),
      'The website field must be a web address, such as www.example.org.',
    ),
);

const confirmed = z.preprocess(
  (v) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on',
  z
    .boolean()
    .refine((b) => b, 'Confirm that the organization operated for the purposes of the uniform purpose statement.'),
);

/**
 * `PUT /api/account/supervision`: the report of one tax year. The eight items of Form 990-N (EIN,
 * tax year with the fiscal year end month, mailing address, other names, principal officer, website,
 * gross receipts normally $50,000 or less, terminated) and the supervision information a 990-N filer
 * gives its central organization (officers, receipts and expenses, activities, the uniform purpose
 * confirmation). Checks, each on its field: the IRS field limits, the type of organization, and the
 * gross receipts test (shared/rules/gross-receipts.ts), whose failure message points to Form
 * 990-EZ or 990. The server adds what needs the account: the EIN on file, the fiscal year end
 * month it knows, and that the year has ended (docs/supervision.md).
 */
export const supervisionReportSchema = z
  .object({
    tax_year: requiredInt('tax year', FIRST_990N_TAX_YEAR, 9999),
    fiscal_year_end_month: requiredInt('fiscal year end month', 1, 12),
    ein: einField,
    mailing_address_line1: irsText('mailing address line 1', true),
    mailing_address_line2: irsText('mailing address line 2', false),
    mailing_city: irsText('mailing city', true),
    mailing_state: requiredChoice('mailing state', STATE_CODES),
    mailing_zip: zipCode('mailing ZIP code'),
    other_name_1: irsText('other name 1', false),
    other_name_2: irsText('other name 2', false),
    other_name_3: irsText('other name 3', false),
    officer_name: irsText('principal officer name', true),
    officer_address_line1: irsText('principal officer address line 1', true),
    officer_address_line2: irsText('principal officer address line 2', false),
    officer_city: irsText('principal officer city', true),
    officer_state: requiredChoice('principal officer state', STATE_CODES),
    officer_zip: zipCode('principal officer ZIP code'),
    website: websiteField,
    organization_type: requiredChoice('type of organization', ORGANIZATION_TYPES),
    first_tax_year: requiredInt('first tax year', 1900, 9999),
    gross_receipts: dollarsToCents('gross receipts', true),
    prior_year_receipts: dollarsToCents('prior year gross receipts', false),
    second_prior_year_receipts: dollarsToCents('gross receipts two years before', false),
    first_year_pledges: dollarsToCents('pledges', false),
    terminated: requiredChoice('terminated', YES_NO),
    officers: longText('officers and directors', OFFICERS_MAX),
    total_expenses: dollarsToCents('total expenses', true),
    activities: longText('activities', ACTIVITIES_MAX),
    purpose_confirmed: confirmed,
  })
  .superRefine((v, ctx) => {
    if (v.organization_type !== 'other') {
      ctx.addIssue({ code: 'custom', path: ['organization_type'], message: INELIGIBLE_MESSAGES[v.organization_type] });
    }
    if (v.gross_receipts === null) return;
    const test = receiptsTestOf(v);
    if (test.passes === null) {
      const path = {
        firstTaxYear: 'first_tax_year',
        priorYearCents: 'prior_year_receipts',
        secondPriorYearCents: 'second_prior_year_receipts',
        receiptsCents: 'gross_receipts',
      }[test.field];
      ctx.addIssue({ code: 'custom', path: [path], message: test.message });
    } else if (!test.passes) {
      ctx.addIssue({ code: 'custom', path: ['gross_receipts'], message: test.message });
    }
  });
export type SupervisionReportInput = z.output<typeof supervisionReportSchema>;

/** The gross receipts test of a report's answers (the same call on the form, the route and the page). */
export function receiptsTestOf(
  v: Pick<
    SupervisionReportInput,
    | 'tax_year'
    | 'first_tax_year'
    | 'gross_receipts'
    | 'prior_year_receipts'
    | 'second_prior_year_receipts'
    | 'first_year_pledges'
  >,
) {
  return grossReceiptsTest({
    taxYear: v.tax_year,
    firstTaxYear: v.first_tax_year,
    receiptsCents: v.gross_receipts ?? 0,
    priorYearCents: v.prior_year_receipts,
    secondPriorYearCents: v.second_prior_year_receipts,
    pledgedCents: v.first_year_pledges,
  });
}

/** `GET /api/account/supervision?tax_year=&account_id=`: the tax year (default: the latest one ended). */
export const supervisionQuery = z.object({
  tax_year: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    requiredInt('tax year', FIRST_990N_TAX_YEAR, 9999).optional(),
  ),
});

type TextValueKey = Exclude<keyof SupervisionReportInput, 'purpose_confirmed'>;

/** The form's values as text, as the page fills its inputs (money in dollars). */
const supervisionFormValuesSchema = z.object({
  ...(Object.fromEntries(
    Object.keys(supervisionReportSchema.shape)
      .filter((k) => k !== 'purpose_confirmed')
      .map((k) => [k, z.string()]),
  ) as Record<TextValueKey, z.ZodString>),
  purpose_confirmed: z.boolean(),
});
export type SupervisionFormValues = z.input<typeof supervisionFormValuesSchema>;

/** The gross receipts test of a saved report (shared/rules/gross-receipts.ts `GrossReceiptsResult`; cents). */
const grossReceiptsResultSchema = z.object({
  passes: z.boolean(),
  basis: z.enum(['first_year', 'two_year_average', 'three_year_average']),
  years: z.array(z.number().int()),
  amountCents: z.number().int(),
  limitCents: z.number().int(),
  message: z.string(),
}) satisfies z.ZodType<GrossReceiptsResult>;

/** `GET /api/account/supervision`: the form of one tax year with what the product knows. */
export const supervisionFormViewSchema = z.object({
  account: z.object({
    id: z.number().int(),
    name: z.string(),
    legal_name: z.string(),
    ein: z.string().nullable(),
    /** The fiscal year end month (1-12) the product knows, and where it comes from. */
    fiscal_year_end_month: z.number().int().nullable(),
    fiscal_year_end_source: z.enum(['irs', 'account']).nullable(),
    /** The GEN's central organization and its uniform purpose statement ('' when none on file). */
    central_name: z.string(),
    gen: z.string().nullable(),
    uniform_purpose_statement: z.string(),
  }),
  tax_year: z.number().int(),
  /** Tax years the form may be opened for, newest first (only years already ended). */
  tax_years: z.array(z.number().int()),
  /** The last day of the fiscal year and the Form 990-N due date of `tax_year` ('YYYY-MM-DD'; null when the fiscal year end is unknown). */
  period_end: z.string().nullable(),
  due_date: z.string().nullable(),
  values: supervisionFormValuesSchema,
  report: z
    .object({
      submitted_at: z.string(),
      submitted_by: z.string().nullable(),
      gross_receipts_cents: z.number().int(),
      expenses_cents: z.number().int(),
    })
    .nullable(),
  receipts_test: grossReceiptsResultSchema.nullable(),
  /** The 990-N seen in the IRS data for this EIN and tax year. */
  filed: z.object({ released_on: z.string(), period_end: z.string(), terminated: z.boolean() }).nullable(),
  /** The e-Postcard summary to copy (null until a report is saved). */
  summary: z.string().nullable(),
});
export type SupervisionFormView = z.input<typeof supervisionFormViewSchema>;

/** Report status filters of the staff list. */
export const SUPERVISION_STATUSES = ['missing', 'submitted', 'filed', 'not_filed'] as const;
export type SupervisionStatus = (typeof SUPERVISION_STATUSES)[number];
export const SUPERVISION_STATUS_LABELS: Record<SupervisionStatus, string> = {
  missing: 'Report missing',
  submitted: 'Report submitted',
  filed: '990-N seen in IRS data',
  not_filed: '990-N not seen',
};
export const SUPERVISION_PER_PAGE = 25;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** `GET /api/admin/supervision`: one GEN group's members for a tax year, filtered, 25 a page. */
export const adminSupervisionQuery = z.object({
  group_id: z.preprocess(emptyToUndefined, requiredInt('group', 1, 2_147_483_647).optional()),
  tax_year: z.preprocess(emptyToUndefined, requiredInt('tax year', FIRST_990N_TAX_YEAR, 9999).optional()),
  status: z.preprocess(
    emptyToUndefined,
    z.enum(SUPERVISION_STATUSES, { error: 'The selected status is invalid.' }).optional(),
  ),
  search: listSearch,
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type AdminSupervisionQuery = z.output<typeof adminSupervisionQuery>;

/** The workspace's list of its own member groups (docs/roles.md "Central organizations"): the group is the path's. */
export const groupSupervisionQuery = adminSupervisionQuery.omit({ group_id: true });

/** One member group of the staff list (money in integer cents, dates ISO 8601). */
const supervisionStatusRowSchema = z.object({
  account_id: z.number().int(),
  name: z.string(),
  ein: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  users: z.number().int(),
  report: z
    .object({ submitted_at: z.string(), gross_receipts_cents: z.number().int(), expenses_cents: z.number().int() })
    .nullable(),
  filed: z.object({ released_on: z.string() }).nullable(),
});
export type SupervisionStatusRow = z.input<typeof supervisionStatusRowSchema>;

/** `GET /api/admin/supervision`: a page object of member groups, with the group and tax year shown. */
export const supervisionStatusPageSchema = pageObjectSchema(supervisionStatusRowSchema).extend({
  group_id: z.number().int().nullable(),
  tax_year: z.number().int(),
});
export type SupervisionStatusPage = z.input<typeof supervisionStatusPageSchema>;

/** `GET /api/admin/supervision/overview`: the GEN groups, with this year's compliance education notice of each. */
export const supervisionOverviewSchema = z.object({
  year: z.number().int(),
  default_tax_year: z.number().int(),
  groups: z.array(
    z.object({
      id: z.number().int(),
      label: z.string(),
      gen: z.string().nullable(),
      central_name: z.string(),
      members: z.number().int(),
      recipients: z.number().int(),
      education: z
        .object({ sent_at: z.string(), sent_by: z.string().nullable(), recipients: z.number().int() })
        .nullable(),
    }),
  ),
});
export type SupervisionOverview = z.input<typeof supervisionOverviewSchema>;

/** `POST /api/admin/supervision/education`: send this year's notice to one GEN group's members. */
export const educationSendSchema = z.object({
  group_id: requiredInt('group', 1, 2_147_483_647),
  year: requiredInt('year', 2000, 9999),
});
export type EducationSendInput = z.output<typeof educationSendSchema>;

/** The workspace's sending of its own group's notice: the group is the path's. */
export const groupEducationSendSchema = educationSendSchema.pick({ year: true });
