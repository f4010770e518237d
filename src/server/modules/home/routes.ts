import type { FastifyInstance } from 'fastify';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { homeQuery } from '../../../shared/schemas/home.ts';
import { msg } from '../../../shared/validation.ts';
import { ValidationError } from '../../errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { parseInput } from '../../validate.ts';
import { resolveAccount } from '../accounts/resolve-account.ts';
import { getHome } from './get-home.ts';

/**
 * The group's home (docs/app-home.md): `GET /api/app/home` → the summary of get-home.ts
 * (shared/schemas/home.ts). Any user of the account reads their own account's (an `account_id` a
 * holder sends is ignored); staff name any account with `?account_id=` (acting on its behalf,
 * audited), 422 when they name none and have no account; visitors 401; an unknown account 404.
 */
export async function homeRoutes(app: FastifyInstance) {
  app.get('/api/app/home', { preHandler: requireUser }, async (req) => {
    const user = req.user!;
    const requested = user.isAdmin ? parseInput(homeQuery, req.query).account_id : undefined;
    if (user.isAdmin && requested === undefined && user.accountId === null) throw ValidationError.field('account_id', msg.required('account id'));
    const acting = requested !== undefined || user.accountId !== null ? await resolveAccount(app.db, user, requested) : null;
    return getHome(app.db, { user, acting, today: calendarDate(new Date()), ip: req.ip });
  });
}
