import { IRS_PAGES } from '../mail/irs-pages.ts';

/**
 * The yearly compliance education notice of a GEN (Rev. Proc. 2026-8: annual compliance education,
 * electronic delivery acceptable, e.g. a link to Publication 557; docs/supervision.md "Compliance
 * education"). Every rule it states is from /work/shared/docs/requirements/tax-rules.md "Annual filing". Pure.
 * @param opts the GEN and its central organization, config.publicUrl (for the report link: never the
 *   request's origin, docs/security.md "Mail carries only our links"), the company signing it
 * @returns the subject, the plain text and the mail's own links (the report form and Publication 557)
 */
export function educationMail(opts: {
  year: number;
  gen: string | null;
  centralName: string;
  groupLabel: string;
  publicUrl: string;
  companyName: string;
}): { subject: string; text: string; links: string[] } {
  const central = opts.centralName || opts.groupLabel;
  const reportForm = `${opts.publicUrl}/app/supervision`;
  return {
    links: [reportForm, IRS_PAGES.publication557],
    subject: `${opts.year} compliance education: keeping your group's tax exemption`,
    text: [
      'Hello,',
      '',
      `Your organization is covered by the group exemption of ${central}${opts.gen ? ` (group exemption number ${opts.gen})` : ''}. ` +
        'Each year the central organization reminds every subordinate what keeps its tax exemption:',
      '',
      '1. File your annual return with the IRS every year, by the 15th day of the 5th month after your fiscal year ends ' +
        '(May 15 for a year ending December 31; the next business day when that day is a Saturday, Sunday or legal holiday):',
      '   - Form 990-N (e-Postcard) when your gross receipts are normally $50,000 or less;',
      '   - Form 990-EZ or Form 990 otherwise. Private foundations and supporting organizations may not file the 990-N.',
      '2. There is no penalty for a late Form 990-N, and a late one still counts: if you missed a year, file it now.',
      '3. Not filing for three consecutive years revokes the exemption automatically, on the due date of the third return, by law. ' +
        'The IRS first sends a notice after two missed years. A revoked organization must apply again to be reinstated.',
      `4. Send us your yearly supervision report: your officers, receipts and expenses, activities, and confirmation of the uniform purpose statement. ` +
        'A Form 990-N alone does not give the central organization this information. The form also prepares your e-Postcard:',
      `   ${reportForm}`,
      '5. Keep your activities within the purposes of the uniform purpose statement, and tell us when your name, address or officers change.',
      '',
      `IRS Publication 557, Tax-Exempt Status for Your Organization: ${IRS_PAGES.publication557}`,
      '',
      opts.companyName,
    ].join('\n'),
  };
}
