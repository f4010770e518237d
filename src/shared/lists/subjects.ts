/** Contact form subject options, exactly as docs/requirements/entities.md "Contact". */
export const CONTACT_SUBJECTS = [
  'General question',
  'Membership',
  'State registration',
  '990 help',
  'Renewals',
] as const;

/** Inquiry kinds stored for the admin inbox; one per public form. */
export const INQUIRY_KINDS = ['contact', 'compliance_check', 'multi_chapter', 'campus_report'] as const;
export type InquiryKind = (typeof INQUIRY_KINDS)[number];

export const INQUIRY_KIND_LABELS: Record<InquiryKind, string> = {
  contact: 'Contact',
  compliance_check: 'Compliance check',
  multi_chapter: 'Multi-chapter',
  campus_report: 'Campus report',
};
