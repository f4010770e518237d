/** Where a multi-chapter organization has its chapters (SPEC tool 8). */
export const REGION_OPTIONS = ['nationwide', 'regional'] as const;
