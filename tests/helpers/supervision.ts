/** A complete, valid report as the form sends it (text fields, dollars). */
export const VALID_REPORT = {
  tax_year: '2025', fiscal_year_end_month: '12', ein: '12-3456789',
  mailing_address_line1: '100 Main St', mailing_address_line2: '', mailing_city: 'Springfield', mailing_state: 'IL', mailing_zip: '62701',
  other_name_1: 'Springfield Band Boosters', other_name_2: '', other_name_3: '',
  officer_name: 'Jane Doe', officer_address_line1: '12 Oak Ave', officer_address_line2: '', officer_city: 'Springfield', officer_state: 'IL', officer_zip: '627011234',
  website: 'www.example.org', organization_type: 'other', first_tax_year: '2015',
  gross_receipts: '42,000.50', prior_year_receipts: '$38000', second_prior_year_receipts: '41000', first_year_pledges: '',
  terminated: 'no', officers: 'Jane Doe, President\nJohn Roe, Treasurer', total_expenses: '39500', activities: 'Concessions at games; band camp scholarships.',
  purpose_confirmed: 1,
};
