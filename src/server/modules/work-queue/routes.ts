import { workQueueContracts } from '../../../shared/contracts/work-queue.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { sendDownload } from '../../send-download.ts';
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
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const ITEM = 'The work item';

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
 *   (link-applicant.ts), audited as `account.applicant_linked`, 409 when linking is no longer possible.
 * Each route is registered from its contract (src/shared/contracts/work-queue.ts).
 */
export async function workQueueRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    const api = admin.withTypeProvider<ZodTypeProvider>();
    api.route({
      ...fromContract(workQueueContracts.list),
      handler: async (req) => listWorkItems(app.db, req.query, req.currentUser.id),
    });
    api.route({
      ...fromContract(workQueueContracts.exportCsv),
      handler: async (req, reply) => {
        const csv = await exportWorkItemsCsv(app.db, req.query, req.currentUser.id, app.config.publicUrl);
        return sendDownload(reply, csv, `work-queue-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
      },
    });
    api.route({
      ...fromContract(workQueueContracts.staff),
      handler: async () => ({ staff: await listWorkQueueStaff(app.db) }),
    });
    api.route({
      ...fromContract(workQueueContracts.build),
      handler: async (req) => {
        const done = await rebuildWorkQueue(app.db, calendarDate(new Date()), req.actor);
        return { message: done.message, added: done.added, by_kind: done.byKind };
      },
    });
    api.route({
      ...fromContract(workQueueContracts.show),
      handler: async (req) => getWorkItem(app.db, recordIdOf(req.params.id, ITEM)),
    });
    api.route({
      ...fromContract(workQueueContracts.assign),
      handler: async (req) => {
        const done = await assignWorkItem(app.db, recordIdOf(req.params.id, ITEM), req.body, req.actor);
        return { message: done.message, item: await getWorkItem(app.db, done.id) };
      },
    });
    api.route({
      ...fromContract(workQueueContracts.addNote),
      handler: async (req, reply) => {
        const done = await addWorkItemNote(app.db, recordIdOf(req.params.id, ITEM), req.body.body, req.actor);
        return reply.code(201).send({ message: done.message, item: await getWorkItem(app.db, done.id) });
      },
    });
    api.route({
      ...fromContract(workQueueContracts.resolve),
      handler: async (req) => {
        const id = recordIdOf(req.params.id, ITEM);
        const done = await resolveWorkItem(app.db, id, req.body.resolution, req.actor);
        return { message: done.message, item: await getWorkItem(app.db, done.id) };
      },
    });
    api.route({
      ...fromContract(workQueueContracts.letter),
      handler: async (req, reply) => {
        const file = await determinationLetterFile(app.db, recordIdOf(req.params.id, ITEM));
        return sendStoredFile(reply, app.providers.storage, file, { inline: true });
      },
    });
    api.route({
      ...fromContract(workQueueContracts.acceptLetter),
      handler: async (req) => {
        const id = recordIdOf(req.params.id, ITEM);
        const done = await acceptDeterminationLetter(app.db, id, req.body.letter_date, req.actor);
        return { message: done.message, item: await getWorkItem(app.db, done.id) };
      },
    });
    api.route({
      ...fromContract(workQueueContracts.returnLetter),
      handler: async (req) => {
        const id = recordIdOf(req.params.id, ITEM);
        const done = await returnDeterminationLetter(
          app.db,
          id,
          req.body.reason,
          req.actor,
          `${app.config.publicUrl}/app`,
        );
        return { message: done.message, item: await getWorkItem(app.db, done.id) };
      },
    });
    api.route({
      ...fromContract(workQueueContracts.linkApplicant),
      handler: async (req) => {
        const company = await getCompany(app.db);
        const done = await linkApplicant(app.db, recordIdOf(req.params.id, ITEM), req.actor, {
          companyName: company.name,
          publicUrl: app.config.publicUrl,
        });
        return { message: done.message, item: await getWorkItem(app.db, done.id) };
      },
    });
    api.route({
      ...fromContract(workQueueContracts.reopen),
      handler: async (req) => {
        const done = await reopenWorkItem(app.db, recordIdOf(req.params.id, ITEM), req.actor);
        return { message: done.message, item: await getWorkItem(app.db, done.id) };
      },
    });
  });
}
