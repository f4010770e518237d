/**
 * The only addresses outside PUBLIC_URL that a mail may link (docs/security.md "Mail carries only
 * our links"): the IRS's own pages for the rules the compliance mails state, cited by
 * docs/requirements/tax-rules.md. They are fixed here, never built from a request or from
 * anything a person typed.
 */
export const IRS_PAGES = {
  /** IRS Publication 557, Tax-Exempt Status for Your Organization: the compliance education notice (Rev. Proc. 2026-8). */
  publication557: 'https://www.irs.gov/publications/p557',
  /** Form 990-N (e-Postcard): the Form 990 reminders. */
  form990N:
    'https://www.irs.gov/charities-non-profits/annual-electronic-filing-requirement-for-small-exempt-organizations-form-990-n-e-postcard',
  /** Automatic revocation of exemption: the Form 990 reminders. */
  revocation: 'https://www.irs.gov/charities-non-profits/automatic-revocation-of-exemption',
} as const;
