import { z } from 'zod';
import { auditQuery, auditRowSchema } from '../schemas/admin-audit.ts';
import { adminDiscountSchema, discountFormSchema } from '../schemas/admin-discounts.ts';
import {
  adminLevelSchema,
  adminStateRequirementSchema,
  levelFormSchema,
  stateRequirementFormSchema,
} from '../schemas/admin-levels.ts';
import { adminBannerSchema, bannerSchema, pageQuery } from '../schemas/admin.ts';
import { fileAnswer, recordIdParams, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

/**
 * Admin → Banners, Discount codes, Levels, States and the audit log (docs/requirements/product.md
 * "Staff console", docs/audit.md): staff only, audited changes.
 */
export const adminConsoleContracts = {
  banners: defineContract({
    method: 'GET',
    url: '/api/admin/banners',
    access: 'staff',
    summary: 'Every banner, active or not',
    response: { 200: z.object({ banners: z.array(adminBannerSchema) }) },
  }),
  createBanner: defineContract({
    method: 'POST',
    url: '/api/admin/banners',
    access: 'staff',
    summary: 'Create a holiday-alert or urgent-alert banner (audited)',
    body: bannerSchema,
    response: { 201: adminBannerSchema, 422: validationFailedSchema },
  }),
  saveBanner: defineContract({
    method: 'PUT',
    url: '/api/admin/banners/:id',
    access: 'staff',
    summary: 'Change a banner (audited)',
    params: recordIdParams,
    body: bannerSchema,
    response: { 200: adminBannerSchema, 422: validationFailedSchema },
  }),
  deleteBanner: defineContract({
    method: 'DELETE',
    url: '/api/admin/banners/:id',
    access: 'staff',
    summary: 'Delete a banner (audited)',
    params: recordIdParams,
    response: { 200: z.object({ message: z.string() }) },
  }),
  discounts: defineContract({
    method: 'GET',
    url: '/api/admin/discounts',
    access: 'staff',
    summary: 'Discount codes, newest first, with how often each was used',
    querystring: pageQuery,
    response: { 200: pageObjectSchema(adminDiscountSchema) },
  }),
  createDiscount: defineContract({
    method: 'POST',
    url: '/api/admin/discounts',
    access: 'staff',
    summary: 'Create a discount code (audited)',
    body: discountFormSchema,
    response: { 201: adminDiscountSchema, 422: validationFailedSchema },
  }),
  saveDiscount: defineContract({
    method: 'PUT',
    url: '/api/admin/discounts/:id',
    access: 'staff',
    summary: 'Change a discount code; codes are switched off, never deleted (audited)',
    params: recordIdParams,
    body: discountFormSchema,
    response: { 200: adminDiscountSchema, 422: validationFailedSchema },
  }),
  levels: defineContract({
    method: 'GET',
    url: '/api/admin/levels',
    access: 'staff',
    summary: 'Every level with its prices (cents), upgrade and renewal features',
    response: { 200: z.object({ levels: z.array(adminLevelSchema) }) },
  }),
  saveLevel: defineContract({
    method: 'PUT',
    url: '/api/admin/levels/:id',
    access: 'staff',
    summary: "Change a level's prices, upgrade and renewal features (audited)",
    params: recordIdParams,
    body: levelFormSchema,
    response: { 200: adminLevelSchema, 422: validationFailedSchema },
  }),
  states: defineContract({
    method: 'GET',
    url: '/api/admin/states',
    access: 'staff',
    summary: "Every state's estimates and annual filing",
    response: { 200: z.object({ states: z.array(adminStateRequirementSchema) }) },
  }),
  saveState: defineContract({
    method: 'PUT',
    url: '/api/admin/states/:code',
    access: 'staff',
    summary: "Change a state's estimates, notes and annual filing (audited)",
    params: z.object({ code: z.string() }),
    body: stateRequirementFormSchema,
    response: { 200: adminStateRequirementSchema, 422: validationFailedSchema },
  }),
  audit: defineContract({
    method: 'GET',
    url: '/api/admin/audit',
    access: 'staff',
    summary: 'Audit rows filtered by account and action, searched by actor or account, sorted by a column',
    querystring: auditQuery,
    response: { 200: pageObjectSchema(auditRowSchema) },
  }),
  auditCsv: defineContract({
    method: 'GET',
    url: '/api/admin/audit/export.csv',
    access: 'staff',
    summary: 'Every audit row the log shows with the same filters and sort, in words, as CSV',
    querystring: auditQuery,
    response: { 200: fileAnswer('The audit rows as CSV, one row per action') },
    produces: ['text/csv'],
  }),
};
