import { z } from 'zod';
import {
  adminLevelSchema, adminStateRequirementSchema, levelFormSchema, stateRequirementFormSchema,
} from '../schemas/admin-levels.ts';
import { defineContract } from './contract.ts';
import { recordIdParams, validationFailedSchema } from './common.ts';

/** Admin → Levels and Admin → States (docs/requirements/product.md "Staff console"): staff only, audited changes. */
export const adminConsoleContracts = {
  levels: defineContract({
    method: 'GET', url: '/api/admin/levels', access: 'staff', summary: 'Every level with its prices (cents), upgrade and renewal features',
    response: { 200: z.object({ levels: z.array(adminLevelSchema) }) },
  }),
  saveLevel: defineContract({
    method: 'PUT', url: '/api/admin/levels/:id', access: 'staff', summary: "Change a level's prices, upgrade and renewal features (audited)",
    params: recordIdParams, body: levelFormSchema,
    response: { 200: adminLevelSchema, 422: validationFailedSchema },
  }),
  states: defineContract({
    method: 'GET', url: '/api/admin/states', access: 'staff', summary: "Every state's estimates and annual filing",
    response: { 200: z.object({ states: z.array(adminStateRequirementSchema) }) },
  }),
  saveState: defineContract({
    method: 'PUT', url: '/api/admin/states/:code', access: 'staff', summary: "Change a state's estimates, notes and annual filing (audited)",
    params: z.object({ code: z.string() }), body: stateRequirementFormSchema,
    response: { 200: adminStateRequirementSchema, 422: validationFailedSchema },
  }),
};
