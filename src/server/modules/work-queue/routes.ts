import { z } from 'zod';
import { workQueueContracts } from '../../../shared/contracts/work-queue.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import {
  letterAcceptSchema,
  letterReturnSchema,
  workItemAssignSchema,
  workItemNoteSchema,
  workItemResolveSchema,
  workQueueQuery,
} from '../../../shared/schemas/work-queue.ts';
import { fromContract } from '../../contracts.ts';
import { notFound } from '../../errors.ts';
import { auditActor } from '../../plugins/session.ts';
import { sendDownload } from '../../send-download.ts';
import { parseInput } from '../../validate.ts';
import { getCompany } from '../content/get-company.ts';
import { sendStoredFile } from '../files/stored-files.ts';
import { addWorkItemNote } from './add-work-item-note.ts';
import { assignWorkItem } from './assign-work-item.ts';
import { exportWorkItemsCsv } from './export-work-items-csv.ts';
import { getWorkItem } from './get-work-item.ts';
import { linkApplicant } from './link-applicant.ts';
import { listWorkQueueStaff } from './list-staff.ts';
import { listWorkItems } from './list-work-items.ts';
import { rebuildWorkQueue } from './rebuild-work-queue.ts';
import { reopenWorkItem } from './reopen-work-item.ts';
import { resolveWorkItem } from './resolve-work-item.ts';
import {
  acceptDeterminationLetter,
  determinationLetterFile,
  returnDeterminationLetter,
} from './review-determination-letter.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const idOf = (req: FastifyRequest) => {
  const parsed = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }).safeParse(req.params);
  if (!parsed.success) throw notFound('The work item');
  return parsed.data.id;
};

/**
 * The staff work queue (docs/work-queue.md; page /admin/work-queue). Staff only (users.is_admin):
 * 401 for visitors, 403 for everyone else; a bad filter or body is 422 with the field's message,
 * an unknown item 404, an action that does not fit the item's status 409.
 * - `GET /api/admin/work-queue?kind=&status=&assignee=&sort=&page=` a page object of items, with
 *   `counts` per kind (list-work-items.ts);
 * - `GET /api/admin/work-queue/export.csv?…` the same filtered list as CSV (export-work-items-csv.ts);
 * - `GET /api/admin/work-queue/staff` the staff users items can be assigned to;
 * - `POST /api/admin/work-queue/build` finds new items now (rebuild-work-queue.ts), audited;
 * - `GET /api/admin/work-queue/{id}` one item with its notes and history;
 * - `POST /api/admin/work-queue/{id}/assign` `{ assignee }`, `…/notes` `{ body }`,
 *   `…/resolve` `{ resolution }`, `…/reopen`: each audited (`work_item.*`), answering
 *   `{ message, item }` with the item as GET shows it;
 * - for a `determination_letter` item (docs/work-queue.md "Determination letters"):
 *   `GET …/{id}/letter` the uploaded file (inline), `POST …/{id}/accept-letter` `{ letter_date }`,
 *   `POST …/{id}/return-letter` `{ reason }` (mails the group), each audited
 *   (`account.determination_letter.*`), 409 for another kind of item or a letter already reviewed;
 * - for a `link_request` item (docs/work-queue.md "Applicants to link"): `POST …/{id}/link-applicant`
 *   (contract workQueueContracts.linkApplicant; link-applicant.ts), audited as
 *   `account.applicant_linked`, 409 when linking is no longer possible.
 */
export async function workQueueRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    admin.get('/api/admin/work-queue', { config: { access: 'staff' } }, async (req) =>
      listWorkItems(app.db, parseInput(workQueueQuery, req.query), req.currentUser.id),
    );
    admin.get('/api/admin/work-queue/export.csv', { config: { access: 'staff' } }, async (req, reply) => {
      const csv = await exportWorkItemsCsv(
        app.db,
        parseInput(workQueueQuery, req.query),
        req.currentUser.id,
        app.config.publicUrl,
      );
      return sendDownload(reply, csv, `work-queue-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
    });
    admin.get('/api/admin/work-queue/staff', { config: { access: 'staff' } }, async () => ({
      staff: await listWorkQueueStaff(app.db),
    }));
    admin.post('/api/admin/work-queue/build', { config: { access: 'staff' } }, async (req) => {
      const done = await rebuildWorkQueue(app.db, calendarDate(new Date()), auditActor(req));
      return { message: done.message, added: done.added, by_kind: done.byKind };
    });
    admin.get('/api/admin/work-queue/:id', { config: { access: 'staff' } }, async (req) =>
      getWorkItem(app.db, idOf(req)),
    );

    admin.post('/api/admin/work-queue/:id/assign', { config: { access: 'staff' } }, async (req) => {
      const id = idOf(req);
      const done = await assignWorkItem(app.db, id, parseInput(workItemAssignSchema, req.body), auditActor(req));
      return { message: done.message, item: await getWorkItem(app.db, done.id) };
    });
    admin.post('/api/admin/work-queue/:id/notes', { config: { access: 'staff' } }, async (req, reply) => {
      const id = idOf(req);
      const { body } = parseInput(workItemNoteSchema, req.body);
      const done = await addWorkItemNote(app.db, id, body, auditActor(req));
      return reply.code(201).send({ message: done.message, item: await getWorkItem(app.db, done.id) });
    });
    admin.post('/api/admin/work-queue/:id/resolve', { config: { access: 'staff' } }, async (req) => {
      const id = idOf(req);
      const { resolution } = parseInput(workItemResolveSchema, req.body);
      const done = await resolveWorkItem(app.db, id, resolution, auditActor(req));
      return { message: done.message, item: await getWorkItem(app.db, done.id) };
    });
    admin.get('/api/admin/work-queue/:id/letter', { config: { access: 'staff' } }, async (req, reply) => {
      const file = await determinationLetterFile(app.db, idOf(req));
      return sendStoredFile(reply, app.providers.storage, file, { inline: true });
    });
    admin.post('/api/admin/work-queue/:id/accept-letter', { config: { access: 'staff' } }, async (req) => {
      const id = idOf(req);
      const { letter_date } = parseInput(letterAcceptSchema(calendarDate(new Date())), req.body);
      const done = await acceptDeterminationLetter(app.db, id, letter_date, auditActor(req));
      return { message: done.message, item: await getWorkItem(app.db, done.id) };
    });
    admin.post('/api/admin/work-queue/:id/return-letter', { config: { access: 'staff' } }, async (req) => {
      const id = idOf(req);
      const { reason } = parseInput(letterReturnSchema, req.body);
      const done = await returnDeterminationLetter(app.db, id, reason, auditActor(req), `${app.config.publicUrl}/app`);
      return { message: done.message, item: await getWorkItem(app.db, done.id) };
    });
    admin.withTypeProvider<ZodTypeProvider>().route({
      ...fromContract(workQueueContracts.linkApplicant),
      handler: async (req) => {
        const company = await getCompany(app.db);
        const done = await linkApplicant(app.db, req.params.id, auditActor(req), {
          companyName: company.name,
          publicUrl: app.config.publicUrl,
        });
        return { message: done.message, item: await getWorkItem(app.db, done.id) };
      },
    });
    admin.post('/api/admin/work-queue/:id/reopen', { config: { access: 'staff' } }, async (req) => {
      const done = await reopenWorkItem(app.db, idOf(req), auditActor(req));
      return { message: done.message, item: await getWorkItem(app.db, done.id) };
    });
  });
}
