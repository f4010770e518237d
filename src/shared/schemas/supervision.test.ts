import { describe, expect, it } from 'vitest';
import { VALID_REPORT } from '../../../tests/helpers/supervision.ts';
import { toFieldErrors } from '../field-errors.ts';
import { centsToDollarsText, supervisionReportSchema } from './supervision.ts';

const errorsOf = (input: Record<string, unknown>) => {
  const r = supervisionReportSchema.safeParse(input);
  return r.success ? {} : toFieldErrors(r.error);
};

describe('supervisionReportSchema (docs/supervision.md)', () => {
  it("turns the form's text into a report: cents, EIN digits, ZIP+4", () => {
    const r = supervisionReportSchema.parse(VALID_REPORT);
    expect(r).toMatchObject({
      tax_year: 2025,
      fiscal_year_end_month: 12,
      ein: '123456789',
      officer_zip: '62701-1234',
      gross_receipts: 4_200_050,
      prior_year_receipts: 3_800_000,
      second_prior_year_receipts: 4_100_000,
      first_year_pledges: null,
      total_expenses: 3_950_000,
      purpose_confirmed: true,
    });
  });

  it('money: cents from the digits, never floating point; at most 2 decimals', () => {
    expect(supervisionReportSchema.parse({ ...VALID_REPORT, total_expenses: '0.29' }).total_expenses).toBe(29);
    expect(errorsOf({ ...VALID_REPORT, total_expenses: '12.345' }).total_expenses).toEqual([
      'The total expenses field format is invalid.',
    ]);
    expect(errorsOf({ ...VALID_REPORT, total_expenses: '' }).total_expenses).toEqual([
      'The total expenses field is required.',
    ]);
    expect(errorsOf({ ...VALID_REPORT, total_expenses: '-5' }).total_expenses).toEqual([
      'The total expenses field format is invalid.',
    ]);
  });

  it('e-Postcard text fields: at most 35 characters (IRS Publication 5248)', () => {
    expect(errorsOf({ ...VALID_REPORT, mailing_address_line1: 'A'.repeat(35) }).mailing_address_line1).toBeUndefined();
    expect(errorsOf({ ...VALID_REPORT, mailing_address_line1: 'A'.repeat(36) }).mailing_address_line1).toEqual([
      'The mailing address line 1 field must not be greater than 35 characters.',
    ]);
    expect(errorsOf({ ...VALID_REPORT, officer_name: 'B'.repeat(36) }).officer_name).toEqual([
      'The principal officer name field must not be greater than 35 characters.',
    ]);
    expect(errorsOf({ ...VALID_REPORT, other_name_3: 'C'.repeat(36) }).other_name_3).toHaveLength(1);
    expect(errorsOf({ ...VALID_REPORT, website: `www.${'d'.repeat(28)}.org` }).website).toEqual([
      'The website field must not be greater than 35 characters.',
    ]);
  });

  it('e-Postcard text fields: letters, numbers, spaces and hyphens only', () => {
    expect(errorsOf({ ...VALID_REPORT, officer_name: "Jane O'Brien" }).officer_name).toEqual([
      'The principal officer name field may only contain letters, numbers, spaces and hyphens (the IRS e-Postcard accepts no other characters).',
    ]);
    expect(errorsOf({ ...VALID_REPORT, mailing_address_line1: 'PO Box 12-A' }).mailing_address_line1).toBeUndefined();
  });

  it('required items, EIN, ZIP and state', () => {
    const errors = errorsOf({
      ...VALID_REPORT,
      mailing_city: ' ',
      ein: '12345',
      officer_zip: '1234',
      mailing_state: 'XX',
    });
    expect(errors.mailing_city).toEqual(['The mailing city field is required.']);
    expect(errors.ein).toEqual(['The EIN field must be the 9-digit Employer Identification Number, as 12-3456789.']);
    expect(errors.officer_zip).toEqual([
      'The principal officer ZIP code field must be a ZIP code: 5 digits, or 9 as 12345-6789.',
    ]);
    expect(errors.mailing_state).toEqual(['The selected mailing state is invalid.']);
  });

  it('the supervision part: officers and activities required and limited, purpose confirmed', () => {
    const errors = errorsOf({ ...VALID_REPORT, officers: '', activities: 'x'.repeat(4001), purpose_confirmed: 0 });
    expect(errors.officers).toEqual(['The officers and directors field is required.']);
    expect(errors.activities).toEqual(['The activities field must not be greater than 4000 characters.']);
    expect(errors.purpose_confirmed).toEqual([
      'Confirm that the organization operated for the purposes of the uniform purpose statement.',
    ]);
  });

  it('the gross receipts test fails on the gross receipts field, pointing to Form 990-EZ or 990', () => {
    const errors = errorsOf({
      ...VALID_REPORT,
      gross_receipts: '80000',
      prior_year_receipts: '60000',
      second_prior_year_receipts: '50000',
    });
    expect(errors.gross_receipts).toEqual([
      'The average of tax years 2023 to 2025 ($63,333.34) is more than $50,000, so gross receipts are not normally $50,000 or less. It may not file the e-Postcard (Form 990-N): it files Form 990-EZ or Form 990 for this year instead.',
    ]);
  });

  it('asks for the prior years the test needs, on their own fields', () => {
    expect(
      errorsOf({ ...VALID_REPORT, prior_year_receipts: '', second_prior_year_receipts: '' }).prior_year_receipts,
    ).toEqual(['Enter the gross receipts of tax year 2024: the test averages it with 2025.']);
    // A first-year organization needs neither.
    expect(
      errorsOf({ ...VALID_REPORT, first_tax_year: '2025', prior_year_receipts: '', second_prior_year_receipts: '' }),
    ).toEqual({});
  });

  it('private foundations and supporting organizations may not file the 990-N', () => {
    expect(errorsOf({ ...VALID_REPORT, organization_type: 'private_foundation' }).organization_type).toEqual([
      'A private foundation may not file the e-Postcard (Form 990-N): it files Form 990-PF.',
    ]);
    expect(
      errorsOf({ ...VALID_REPORT, organization_type: 'supporting_organization' }).organization_type?.[0],
    ).toContain('Form 990-EZ or Form 990');
  });

  it('centsToDollarsText gives the form its dollars back', () => {
    expect(centsToDollarsText(4_200_050)).toBe('42000.50');
    expect(centsToDollarsText(3_800_000)).toBe('38000');
    expect(centsToDollarsText(null)).toBe('');
  });
});
