import { z } from 'zod';
import {
  campusReportSchema,
  complianceCheckSchema,
  contactSchema,
  multiChapterSchema,
  ratingSchema,
} from '../schemas/public-forms.ts';
import { validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/** A public form's answer once stored: the new row's id and the text the success dialog shows. */
const formReceivedSchema = z.object({ id: z.number().int(), message: z.string() });

/** `POST /ratings` (docs/requirements/product.md tool 10): a page helpfulness rating. */
export const createRatingContract = defineContract({
  method: 'POST',
  url: '/ratings',
  access: 'visitor',
  summary: 'Rate how helpful a page was',
  body: ratingSchema,
  response: { 201: formReceivedSchema, 422: validationFailedSchema },
});

/** The public inquiry forms (docs/requirements/product.md tools 6-9): each posts to its own page path. */
export const inquiryContracts = {
  contact: defineContract({
    method: 'POST',
    url: '/contact',
    access: 'visitor',
    summary: 'Send the contact form',
    body: contactSchema,
    response: { 201: formReceivedSchema, 422: validationFailedSchema },
  }),
  complianceCheck: defineContract({
    method: 'POST',
    url: '/compliance-check',
    access: 'visitor',
    summary: 'Ask for a compliance and revocation-risk review',
    body: complianceCheckSchema,
    response: { 201: formReceivedSchema, 422: validationFailedSchema },
  }),
  multiChapter: defineContract({
    method: 'POST',
    url: '/multi-chapter',
    access: 'visitor',
    summary: 'Send the multi-chapter inquiry',
    body: multiChapterSchema,
    response: { 201: formReceivedSchema, 422: validationFailedSchema },
  }),
  campusReport: defineContract({
    method: 'POST',
    url: '/campus-report',
    access: 'visitor',
    summary: 'Ask for the campus report',
    body: campusReportSchema,
    response: { 201: formReceivedSchema, 422: validationFailedSchema },
  }),
};
