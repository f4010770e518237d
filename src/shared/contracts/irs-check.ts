import { irsCheckSchema, irsEinParams, irsLookupPageSchema, irsLookupQuery } from '../schemas/irs-check.ts';
import { validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/**
 * The instant revocation-risk check (docs/irs-standing.md "Instant check", docs/requirements/product.md
 * tool 6): anyone may look up any organization of the IRS data loaded, by EIN or name, and read its
 * standing at once. No personal names.
 */
export const irsCheckContracts = {
  lookup: defineContract({
    method: 'GET',
    url: '/api/irs/organizations',
    access: 'visitor',
    summary: 'Find organizations in the IRS data by EIN or name (10 a page)',
    querystring: irsLookupQuery,
    response: { 200: irsLookupPageSchema, 422: validationFailedSchema },
  }),
  check: defineContract({
    method: 'GET',
    url: '/api/irs/organizations/:ein',
    access: 'visitor',
    summary: "An organization's standing with the IRS, at once, each fact citing its data set and release",
    params: irsEinParams,
    response: { 200: irsCheckSchema },
  }),
};
