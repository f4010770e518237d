import { z } from 'zod';
import { homeQuery, homeSummarySchema, letterAwaitedSchema } from '../schemas/home.ts';
import { defineContract } from './contract.ts';

/** The group's home, /app (docs/app-home.md), and the IRS letter uploaded from it (docs/wizard.md). */
export const groupHomeContracts = {
  home: defineContract({
    method: 'GET',
    url: '/api/app/home',
    access: 'account-user',
    scoped: true,
    summary:
      'Where the group stands, what is due, unpaid and in progress, its documents and users; staff name the account with account_id (audited)',
    querystring: homeQuery,
    response: { 200: homeSummarySchema },
  }),
  // A multipart upload: the handler reads the stream, so no body schema.
  uploadDeterminationLetter: defineContract({
    method: 'POST',
    url: '/api/app/determination-letter',
    access: 'signed-in',
    scoped: true,
    summary:
      "Upload the IRS determination letter the account's group was waiting for (multipart, one file), for staff to review (audited)",
    response: { 201: z.object({ letter_awaited: letterAwaitedSchema }) },
  }),
};
