import { publicProfileSchema } from '../schemas/search.ts';
import { recordIdParams } from './common.ts';
import { defineContract } from './contract.ts';

/** An organization's public profile (docs/requirements/screens.md /app/account/show/{id}, docs/irs-standing.md): anyone. */
export const publicProfileContracts = {
  show: defineContract({
    method: 'GET',
    url: '/api/accounts/:id/public',
    access: 'visitor',
    summary: "An organization's public profile with its standing with the IRS (no personal names)",
    params: recordIdParams,
    response: { 200: publicProfileSchema },
  }),
};
