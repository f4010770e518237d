import { z } from 'zod';
import { pageQuery } from '../schemas/admin.ts';
import { filingRowSchema, filingSchema, riskRowSchema } from '../schemas/compliance.ts';
import { penaltyFiguresRowSchema, penaltyFiguresSchema, penaltyYearParams } from '../schemas/penalty-figures.ts';
import { recordIdParams, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

/** Admin → Revocation risk and recorded filings (docs/irs-standing.md, docs/requirements/product.md "Compliance calendar"): staff only. */
export const adminComplianceContracts = {
  risk: defineContract({
    method: 'GET',
    url: '/api/admin/compliance/risk',
    access: 'staff',
    summary: 'Member groups and GEN subordinates that missed an annual return or were revoked, most urgent first',
    querystring: pageQuery,
    response: { 200: pageObjectSchema(riskRowSchema) },
  }),
  recordFiling: defineContract({
    method: 'POST',
    url: '/api/admin/accounts/:id/filings',
    access: 'staff',
    summary: "Record an account's annual IRS return for a tax year (audited)",
    params: recordIdParams,
    body: filingSchema,
    response: {
      201: z.object({ filing: filingRowSchema, message: z.string() }),
      422: validationFailedSchema,
    },
  }),
  penaltyFigures: defineContract({
    method: 'GET',
    url: '/api/admin/penalty-figures',
    access: 'staff',
    summary: 'The IRC §6652(c) late-filing penalty figures entered for each due year, newest first',
    response: { 200: z.object({ data: z.array(penaltyFiguresRowSchema) }) },
  }),
  savePenaltyFigures: defineContract({
    method: 'POST',
    url: '/api/admin/penalty-figures',
    access: 'staff',
    summary: "Enter or correct a due year's late-filing penalty figures from the IRS instructions (audited)",
    body: penaltyFiguresSchema,
    response: {
      200: z.object({ figures: penaltyFiguresRowSchema, message: z.string() }),
      422: validationFailedSchema,
    },
  }),
  deletePenaltyFigures: defineContract({
    method: 'DELETE',
    url: '/api/admin/penalty-figures/:year',
    access: 'staff',
    summary: "Remove a year's late-filing penalty figures (audited)",
    params: penaltyYearParams,
    response: { 200: z.object({ message: z.string() }), 422: validationFailedSchema },
  }),
};
