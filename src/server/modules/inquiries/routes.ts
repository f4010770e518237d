import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  campusReportSchema, complianceCheckSchema, contactSchema, multiChapterSchema,
} from '../../../shared/schemas/public-forms.ts';
import type { InquiryKind } from '../../../shared/lists/subjects.ts';
import { parseInput } from '../../validate.ts';
import { requireCaptcha } from '../../plugins/captcha.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { getCompany } from '../content/get-company.ts';
import { createInquiry, type InquiryFields } from './create-inquiry.ts';

export const INQUIRY_RECEIVED = "Your message has been received. We'll get back with you shortly.";

interface FormRoute<S extends z.ZodType> {
  path: string;
  kind: InquiryKind;
  schema: S;
  toFields(input: z.output<S>): InquiryFields;
}

const forms = [
  {
    path: '/contact', kind: 'contact', schema: contactSchema,
    toFields: (i) => ({ name: i.name, email: i.email, organization: i.organization, details: { subject: i.subject, message: i.message } }),
  } satisfies FormRoute<typeof contactSchema>,
  {
    path: '/compliance-check', kind: 'compliance_check', schema: complianceCheckSchema,
    toFields: (i) => ({ name: i.name, email: i.email, phone: i.phone, organization: i.organization, details: { ein: i.ein, group_id: i.group_id } }),
  } satisfies FormRoute<typeof complianceCheckSchema>,
  {
    path: '/multi-chapter', kind: 'multi_chapter', schema: multiChapterSchema,
    toFields: (i) => ({
      name: i.name, email: i.email, phone: i.phone, organization: i.organization,
      details: { affiliates: i.affiliates, regions: i.regions, concerns: i.concerns },
    }),
  } satisfies FormRoute<typeof multiChapterSchema>,
  {
    path: '/campus-report', kind: 'campus_report', schema: campusReportSchema,
    toFields: (i) => ({ email: i.email, organization: i.organization, details: {} }),
  } satisfies FormRoute<typeof campusReportSchema>,
] as FormRoute<z.ZodType>[];

/** Public inquiry forms (docs/requirements/product.md tools 6-9): each POSTs to its own page path. */
export async function inquiryRoutes(app: FastifyInstance) {
  for (const form of forms) {
    app.post(form.path, {
      config: { access: 'visitor', rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
      preHandler: requireCaptcha,
    }, async (req, reply) => {
      const input = parseInput(form.schema, req.body);
      const company = await getCompany(app.db);
      const id = await createInquiry(app.db, form.kind, form.toFields(input), req.ip, {
        staffEmail: app.config.mail.staffEmail,
        companyName: company.name,
        publicUrl: app.config.publicUrl,
      });
      return reply.status(201).send({ id, message: INQUIRY_RECEIVED });
    });
  }
}
