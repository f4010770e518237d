import { adminAccountsContracts } from '../../../shared/contracts/admin-accounts.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { sendDownload } from '../../send-download.ts';
import { sendLetter, standingLetter } from '../irs-data/standing-letter.ts';
import { getAdminAccount } from './get-account.ts';
import { exportAdminAccountsCsv, listAdminAccounts } from './list-accounts.ts';
import { updateAccountSettings } from './update-settings.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The admin's accounts (docs/requirements/screens.md /admin/accounts/show/{id}, docs/requirements/permissions.md): `GET /api/admin/accounts`
 * (the customer accounts, searched, filtered and sorted, docs/requirements/entities.md page object),
 * `GET /api/admin/accounts/export.csv` (the same filtered list as CSV, docs/staff-lists.md) and `GET /api/admin/accounts/:id`
 * (one account and what belongs to it, with the groups for its settings form),
 * `GET /api/admin/accounts/:id/standing-letter` (its good-standing letter, PDF) and
 * `PUT /api/admin/accounts/:id/settings` (its renewal flags, audited). Admins only: 401 for visitors, 403 for everyone else;
 * a malformed account id is 404 like an unknown account (never 422).
 * Acting on an account goes through the account-scoped routes with `account_id`
 * (plugins/resolve-account.ts), which audit it.
 */
export async function adminAccountRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    const api = admin.withTypeProvider<ZodTypeProvider>();
    api.route({
      ...fromContract(adminAccountsContracts.list),
      handler: async (req) => listAdminAccounts(app.db, req.query),
    });
    api.route({
      ...fromContract(adminAccountsContracts.exportCsv),
      handler: async (req, reply) => {
        const csv = await exportAdminAccountsCsv(app.db, req.query);
        return sendDownload(reply, csv, `accounts-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
      },
    });
    api.route({
      ...fromContract(adminAccountsContracts.show),
      handler: async (req) => getAdminAccount(app.db, recordIdOf(req.params.id, 'The account')),
    });
    api.route({
      ...fromContract(adminAccountsContracts.standingLetter),
      handler: async (req, reply) => {
        const letter = await standingLetter(
          app.db,
          recordIdOf(req.params.id, 'The account'),
          calendarDate(new Date()),
          app.config.publicUrl,
        );
        return sendLetter(reply, letter);
      },
    });
    api.route({
      ...fromContract(adminAccountsContracts.saveSettings),
      handler: async (req) =>
        updateAccountSettings(app.db, recordIdOf(req.params.id, 'The account'), req.body, req.currentUser.id, req.ip),
    });
  });
}
