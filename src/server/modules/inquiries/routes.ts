import { inquiryContracts } from '../../../shared/contracts/public-forms.ts';
import { fromContract } from '../../contracts.ts';
import { requireCaptcha } from '../../plugins/captcha.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { getCompany } from '../content/get-company.ts';
import { takeLimit } from '../limits/take-limit.ts';
import { createInquiry, type InquiryFields } from './create-inquiry.ts';
import type { InquiryKind } from '../../../shared/lists/subjects.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const INQUIRY_RECEIVED = "Your message has been received. We'll get back with you shortly.";

/**
 * Public inquiry forms (docs/requirements/product.md tools 6-9): each POSTs to its own page path
 * and answers 201 `{ id, message }`. Anyone may send one; the captcha is checked before the payload,
 * then the public forms' limit per client address (docs/security.md "Limits on mail and payments").
 */
export async function inquiryRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** A form route's options: its contract, the forms' rate limit, the captcha before the payload. */
  const formRoute = <R extends { config: object }>(route: R) => ({
    ...route,
    config: { ...route.config, rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
    preValidation: requireCaptcha,
  });
  const store = async (kind: InquiryKind, fields: InquiryFields, ip: string) => {
    // Each form mails the address typed (a fixed acknowledgement): limited per client address.
    await takeLimit(app.db, app.config.limits, 'public_forms_per_ip', ip, { userId: null, ip });
    const company = await getCompany(app.db);
    const id = await createInquiry(app.db, kind, fields, ip, {
      staffEmail: app.config.mail.staffEmail,
      companyName: company.name,
      publicUrl: app.config.publicUrl,
    });
    return { id, message: INQUIRY_RECEIVED };
  };

  api.route({
    ...formRoute(fromContract(inquiryContracts.contact)),
    handler: async ({ body: i, ip }, reply) =>
      reply.status(201).send(
        await store(
          'contact',
          {
            name: i.name,
            email: i.email,
            organization: i.organization,
            details: { subject: i.subject, message: i.message },
          },
          ip,
        ),
      ),
  });
  api.route({
    ...formRoute(fromContract(inquiryContracts.complianceCheck)),
    handler: async ({ body: i, ip }, reply) =>
      reply.status(201).send(
        await store(
          'compliance_check',
          {
            name: i.name,
            email: i.email,
            phone: i.phone,
            organization: i.organization,
            details: { ein: i.ein, group_id: i.group_id },
          },
          ip,
        ),
      ),
  });
  api.route({
    ...formRoute(fromContract(inquiryContracts.multiChapter)),
    handler: async ({ body: i, ip }, reply) =>
      reply.status(201).send(
        await store(
          'multi_chapter',
          {
            name: i.name,
            email: i.email,
            phone: i.phone,
            organization: i.organization,
            details: { affiliates: i.affiliates, regions: i.regions, concerns: i.concerns },
          },
          ip,
        ),
      ),
  });
  api.route({
    ...formRoute(fromContract(inquiryContracts.campusReport)),
    handler: async ({ body: i, ip }, reply) =>
      reply.status(201).send(
        await store(
          'campus_report',
          {
            email: i.email,
            organization: i.organization,
            details: {},
          },
          ip,
        ),
      ),
  });
}
