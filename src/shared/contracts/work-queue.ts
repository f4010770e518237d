import { z } from 'zod';
import { workItemDetailSchema } from '../schemas/work-queue.ts';
import { defineContract } from './contract.ts';

const itemId = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The staff work queue's actions declared as contracts (docs/work-queue.md): staff only. */
export const workQueueContracts = {
  linkApplicant: defineContract({
    method: 'POST',
    url: '/api/admin/work-queue/:id/link-applicant',
    access: 'staff',
    summary:
      'Link the applicant of a link request to the imported account as its primary user, completing their application (audited, mailed)',
    params: itemId,
    response: { 200: z.object({ message: z.string(), item: workItemDetailSchema }) },
  }),
};
