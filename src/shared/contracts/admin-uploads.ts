import {
  GENERIC_UPLOAD_ACTION,
  genericUploadOptionsSchema,
  genericUploadResultSchema,
} from '../schemas/generic-upload.ts';
import { validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/** Admin → Uploads, the generic drag-and-drop uploader (docs/requirements/product.md tool 5): staff only. */
export const adminUploadsContracts = {
  options: defineContract({
    method: 'GET',
    url: '/api/admin/uploads/options',
    access: 'staff',
    summary: 'The groups new accounts can join and the size and count limits of an upload',
    response: { 200: genericUploadOptionsSchema },
  }),
  /**
   * Multipart: `create_new_accounts`, `profile_id`, `params` and `uploads[]`, read from the stream
   * by the handler (generic-upload.ts `genericUploadFields`), so the contract declares no body.
   */
  upload: defineContract({
    method: 'POST',
    url: GENERIC_UPLOAD_ACTION,
    access: 'staff',
    summary:
      'Store files (multipart: create_new_accounts, profile_id, params, uploads[]); rosters create accounts, IRS files stage an import',
    response: { 201: genericUploadResultSchema, 422: validationFailedSchema },
  }),
};
