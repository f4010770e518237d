import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { readLevelWizard } from '../../../shared/forms/field-definition.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { ADMIN_PER_PAGE } from '../../../shared/schemas/admin.ts';
import { applications, levels, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Db } from '../../db/client.ts';

/** A page of applications for admins, newest first, optionally by status. */
export async function listApplications(db: Db, status: string | undefined, page: number) {
  const conds: SQL[] = [];
  if (status) conds.push(eq(applications.status, status));
  const where = conds.length ? and(...conds) : undefined;
  const [{ total }] = await db.select({ total: count() }).from(applications).where(where);
  const rows = await db
    .select({
      id: applications.id,
      email: users.email,
      level: levels.name,
      type: applications.type,
      status: applications.status,
      page: applications.page,
      account_id: applications.accountId,
      created_at: applications.createdAt,
      updated_at: applications.updatedAt,
    })
    .from(applications)
    .innerJoin(users, eq(users.id, applications.userId))
    .innerJoin(levels, eq(levels.id, applications.levelId))
    .where(where)
    .orderBy(desc(applications.updatedAt), desc(applications.id))
    .limit(ADMIN_PER_PAGE)
    .offset((page - 1) * ADMIN_PER_PAGE);
  return buildPage(rows, page, ADMIN_PER_PAGE, total, (p) => `?page=${p}`);
}

/** One application with its answers and the labels of its level's questions. @throws HttpError 404 */
export async function getApplicationForAdmin(db: Db, id: number) {
  const [row] = await db
    .select({
      id: applications.id,
      email: users.email,
      level: levels.name,
      schema: levels.schema,
      type: applications.type,
      status: applications.status,
      page: applications.page,
      fields: applications.fields,
      account_id: applications.accountId,
      created_at: applications.createdAt,
      updated_at: applications.updatedAt,
      completed_at: applications.completedAt,
    })
    .from(applications)
    .innerJoin(users, eq(users.id, applications.userId))
    .innerJoin(levels, eq(levels.id, applications.levelId))
    .where(eq(applications.id, id));
  if (!row) throw notFound('The application');
  const { pages } = readLevelWizard(row.schema);
  const labels = Object.fromEntries(pages.flatMap((p) => p.schema.map((f) => [f.name, f.label ?? f.name])));
  const { schema: _schema, ...rest } = row;
  return { ...rest, labels };
}
