import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { accountSettingsSchema, adminAccountsQuery } from '../../../shared/schemas/admin-accounts.ts';
import { notFound } from '../../errors.ts';
import { sendDownload } from '../../send-download.ts';
import { parseInput } from '../../validate.ts';
import { sendLetter, standingLetter } from '../irs-data/standing-letter.ts';
import { getAdminAccount } from './get-account.ts';
import { exportAdminAccountsCsv, listAdminAccounts } from './list-accounts.ts';
import { updateAccountSettings } from './update-settings.ts';
import type { FastifyInstance } from 'fastify';

/** The account id of an address: a positive integer, or 404 like an unknown account (never 422). */
function accountIdOf(params: unknown): number {
  const raw = String((params as { id?: unknown }).id ?? '');
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(id <= 2_147_483_647)) throw notFound('The account');
  return id;
}

/**
 * The admin's accounts (docs/requirements/screens.md /admin/accounts/show/{id}, docs/requirements/permissions.md): `GET /api/admin/accounts`
 * (the customer accounts, searched, filtered and sorted, docs/requirements/entities.md page object),
 * `GET /api/admin/accounts/export.csv` (the same filtered list as CSV, docs/staff-lists.md) and `GET /api/admin/accounts/:id`
 * (one account and what belongs to it, with the groups for its settings form),
 * `GET /api/admin/accounts/:id/standing-letter` (its good-standing letter, PDF) and
 * `PUT /api/admin/accounts/:id/settings` (its renewal flags, audited). Admins only: 401 for visitors, 403 for everyone else.
 * Acting on an account goes through the account-scoped routes with `account_id`
 * (plugins/resolve-account.ts), which audit it.
 */
export async function adminAccountRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    admin.get('/api/admin/accounts', { config: { access: 'staff' } }, async (req) =>
      listAdminAccounts(app.db, parseInput(adminAccountsQuery, req.query)),
    );
    admin.get('/api/admin/accounts/export.csv', { config: { access: 'staff' } }, async (req, reply) => {
      const csv = await exportAdminAccountsCsv(app.db, parseInput(adminAccountsQuery, req.query));
      return sendDownload(reply, csv, `accounts-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
    });
    admin.get('/api/admin/accounts/:id', { config: { access: 'staff' } }, async (req) =>
      getAdminAccount(app.db, accountIdOf(req.params)),
    );
    admin.get('/api/admin/accounts/:id/standing-letter', { config: { access: 'staff' } }, async (req, reply) => {
      const letter = await standingLetter(
        app.db,
        accountIdOf(req.params),
        calendarDate(new Date()),
        app.config.publicUrl,
      );
      return sendLetter(reply, letter);
    });
    admin.put('/api/admin/accounts/:id/settings', { config: { access: 'staff' } }, async (req) => {
      const id = accountIdOf(req.params);
      return updateAccountSettings(app.db, id, parseInput(accountSettingsSchema, req.body), req.currentUser.id, req.ip);
    });
  });
}
