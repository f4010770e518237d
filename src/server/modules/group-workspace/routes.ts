import { groupWorkspaceContracts } from '../../../shared/contracts/group-workspace.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { sendDownload } from '../../send-download.ts';
import { noticeSenderOf } from '../account-users/account-user-notices.ts';
import { CHECK, receiveEinList } from '../irs-data/bulk-check-routes.ts';
import { bulkCheckResult, getBulkCheck, listBulkChecks, startBulkCheck } from '../irs-data/bulk-check-runs.ts';
import { takeLimits } from '../limits/take-limit.ts';
import { listSupervisionStatus } from '../supervision/list-supervision-status.ts';
import { sendEducationNotice } from '../supervision/send-compliance-education.ts';
import { supervisionOverview } from '../supervision/supervision-overview.ts';
import { latestEndedTaxYear } from '../supervision/tax-years.ts';
import { listGroupUsers, listWorkspaces, workspaceSummary } from './group-users.ts';
import { inviteGroupUser, assertManager } from './invite-group-user.ts';
import { removeGroupUser } from './remove-group-user.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The checks a route may reach: the group's own. */
const scopeOf = (req: FastifyRequest) => ({ groupId: req.group.groupId });

/**
 * The central organization's workspace (docs/roles.md "Central organizations"). `GET
 * /api/app/groups` lists the signed-in user's groups; every other route is `group-user`: a user of
 * the group in the path, or staff (404 for anyone else, 401 for visitors). Inviting and removing
 * users is for managers and staff (403 for viewers); an invitation first takes its daily limits
 * (docs/security.md "Limits on mail and payments"). A group's checks of a list of EINs are the
 * staff's service (irs-data/bulk-check-runs.ts) kept to the group: another group's check is 404.
 * The supervision of the group's member groups is staff's too (docs/supervision.md): the list of
 * reports and 990-N status, and this year's compliance education notice, which only managers and
 * staff send (403 for viewers, 409 once sent this year).
 */
export async function groupWorkspaceRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const c = groupWorkspaceContracts;
  api.route({ ...fromContract(c.list), handler: async (req) => listWorkspaces(app.db, req.currentUser.id) });
  api.route({ ...fromContract(c.show), handler: async (req) => workspaceSummary(req.group) });
  api.route({ ...fromContract(c.users), handler: async (req) => listGroupUsers(app.db, req.group.groupId) });
  api.route({
    ...fromContract(c.invite),
    handler: async (req, reply) => {
      const actor = req.actor;
      const group = req.group;
      if (group.role === 'manager' || group.role === 'staff') {
        await takeLimits(
          app.db,
          app.config.limits,
          [
            ['address_checks_per_ip', group.role === 'staff' ? null : req.ip],
            ['users_added_per_group', group.groupId],
            ['invitations_per_address', req.body.email],
          ],
          { userId: actor.userId, ip: actor.ip },
        );
      }
      const done = await inviteGroupUser(
        app.db,
        group,
        req.body,
        actor,
        await noticeSenderOf(app.db, app.config.publicUrl),
      );
      return reply.status(201).send(done);
    },
  });
  api.route({
    ...fromContract(c.remove),
    handler: async (req) => removeGroupUser(app.db, req.group, recordIdOf(req.params.userId, 'The user'), req.actor),
  });
  api.route({
    ...fromContract(c.bulkChecks),
    handler: async (req) => listBulkChecks(app.db, app.config.retention.bulkCheckDays, scopeOf(req)),
  });
  api.route({
    ...fromContract(c.uploadBulkCheck),
    handler: async (req, reply) => {
      const list = await receiveEinList(app, req);
      // Counted once a file has arrived; staff's own checks are not counted.
      if (req.group.role !== 'staff')
        await takeLimits(app.db, app.config.limits, [['bulk_checks_per_group', req.group.groupId]], req.actor);
      const check = await startBulkCheck(
        app.db,
        list,
        { userId: req.currentUser.id, ip: req.ip, log: req.log, groupId: req.group.groupId },
        (work) => app.jobs.runApart(work),
      );
      return reply.status(201).send(check);
    },
  });
  api.route({
    ...fromContract(c.bulkCheck),
    handler: async (req) => getBulkCheck(app.db, recordIdOf(req.params.id, CHECK), scopeOf(req)),
  });
  api.route({
    ...fromContract(c.bulkCheckResult),
    handler: async (req, reply) => {
      const { csv, fileName } = await bulkCheckResult(app.db, recordIdOf(req.params.id, CHECK), scopeOf(req));
      return sendDownload(reply, csv, fileName, 'text/csv; charset=utf-8');
    },
  });
  const today = () => calendarDate(new Date());
  api.route({
    ...fromContract(c.supervisionOverview),
    handler: async (req) =>
      supervisionOverview(app.db, Number(today().slice(0, 4)), latestEndedTaxYear(12, today()), req.group.groupId),
  });
  api.route({
    ...fromContract(c.supervision),
    handler: async (req) =>
      listSupervisionStatus(
        app.db,
        { ...req.query, group_id: req.group.groupId },
        latestEndedTaxYear(12, today()),
        `/api/app/groups/${req.group.groupId}/supervision`,
      ),
  });
  api.route({
    ...fromContract(c.sendEducation),
    handler: async (req, reply) => {
      assertManager(req.group);
      const answer = await sendEducationNotice(app.db, {
        groupId: req.group.groupId,
        year: req.body.year,
        today: today(),
        publicUrl: app.config.publicUrl,
        actor: req.actor,
      });
      return reply.code(201).send(answer);
    },
  });
}
