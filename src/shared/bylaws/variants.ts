// Without zod, so that the bylaws pages can show their form before loading the schemas.

/**
 * The three bylaws generator variants (docs/requirements/product.md tool 3, docs/requirements/entities.md Bylaw standard / short / school). A form
 * sends its variant as `version`; the page path decides the variant and the two must agree.
 */
export const BYLAW_VARIANTS = ['standard', 'school', 'short'] as const;
export type BylawVariant = (typeof BYLAW_VARIANTS)[number];

/** The ten school-cooperation clauses of the school variant (docs/requirements/entities.md), in document order. */
export const SCHOOL_CLAUSES = [
  'is_organization_approval_required',
  'is_bylaws_approval_required',
  'is_officers_required',
  'is_incorporation_required',
  'is_501c3_required',
  'is_principal_nonvoting_board_member_required',
  'is_monthly_financial_reports_required',
  'is_officers_registered_volunteers_required',
  'is_no_compensation_of_school_employees',
  'is_no_handling_of_funds_by_school_employees',
] as const;
export type SchoolClause = (typeof SCHOOL_CLAUSES)[number];

/** The page path of each variant (docs/requirements/screens.md): the form POSTs to it first. */
export const BYLAW_PAGE_PATHS: Record<BylawVariant, string> = {
  standard: '/bylaws-generator',
  school: '/bylaws-generator/school',
  short: '/bylaws-generator/short',
};
