/**
 * Staff's form for one due year's late-filing penalty figures (POST /api/admin/penalty-figures,
 * docs/irs-standing.md "What being late costs"), filled with sample amounts made up for tests and
 * labelled so: the IRS's own figures are copied by staff from its instructions.
 */
export const SAMPLE_PENALTY_FIGURES = {
  due_year: '2026',
  daily: '30',
  maximum: '15,000',
  large_receipts_over: '1,500,000',
  large_daily: '150',
  large_maximum: '75,000',
  source: 'Sample figures for this test, not the IRS figures',
  source_url: 'https://www.irs.gov/instructions/i990',
};
