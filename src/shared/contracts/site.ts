import { z } from 'zod';
import { publicLevelSchema, stateRequirementSchema } from '../schemas/content.ts';
import { defineContract } from './contract.ts';

/** The signed-in user as the web client sees them, or null for a visitor. */
const sessionUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  isAdmin: z.boolean(),
  accountId: z.number().int().nullable(),
});

/**
 * Reads anyone may make: the session probe (docs/requirements/platform.md §5.1) and the data of the
 * public pricing and state registration pages, which the server also renders into those pages.
 */
export const siteContracts = {
  session: defineContract({
    method: 'GET',
    url: '/api/session',
    access: 'visitor',
    summary: "Who is signed in (null for a visitor) and the session's CSRF token",
    response: { 200: z.object({ user: sessionUserSchema.nullable(), csrfToken: z.string() }) },
  }),
  pricing: defineContract({
    method: 'GET',
    url: '/api/pricing',
    access: 'visitor',
    summary: 'The public levels with their prices in cents, in display order',
    response: { 200: z.object({ levels: z.array(publicLevelSchema) }) },
  }),
  stateRequirements: defineContract({
    method: 'GET',
    url: '/api/state-requirements',
    access: 'visitor',
    summary: 'Each state’s registration requirements with estimates in cents',
    response: { 200: z.object({ states: z.array(stateRequirementSchema) }) },
  }),
};
