/** Where a multi-chapter organization has its chapters (docs/requirements/product.md tool 8). */
export const REGION_OPTIONS = ['nationwide', 'regional'] as const;
