import { contestEntrySavedSchema } from '../schemas/contests.ts';
import { validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/**
 * An entry of the photo or video contest (docs/requirements/product.md tool 4), posted multipart to
 * its page: the fields and at most one file, read from the stream by the route, so no body schema.
 * Anyone may send one, within the daily upload quotas (docs/security.md).
 */
const entryContract = <const U extends string>(url: U, what: string) =>
  defineContract({
    method: 'POST',
    url,
    access: 'visitor',
    summary: `Enter the ${what} contest (multipart: the entrant's fields and the file)`,
    response: { 201: contestEntrySavedSchema, 422: validationFailedSchema },
  });

/** The contests' entry routes, by contest. */
export const contestEntryContracts = {
  photo: entryContract('/contests/photo', 'photo'),
  video: entryContract('/contests/video', 'video'),
};
