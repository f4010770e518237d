import { and, asc, desc, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import {
  ADMIN_ACCOUNT_LIST_LIMIT,
  type AccountStatus,
  type AdminAccountDetail,
} from '../../../shared/schemas/admin-accounts.ts';
import { UNLISTED_PAYMENT_STATUSES } from '../../../shared/schemas/finances.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { accounts, applications, bylaws, files, groups, invoices, levels, payments, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { standingColumns, standingOfAccount, standingView } from '../irs-data/get-standing.ts';
import type { Db } from '../../db/client.ts';

/** An account's status (see ACCOUNT_STATUSES) at `now`. */
function accountStatus(
  a: { isSuspendedFromBasicRenewal: boolean; renewalDueAt: Date | null },
  now: Date,
): AccountStatus {
  if (a.isSuspendedFromBasicRenewal) return 'suspended';
  if (a.renewalDueAt && a.renewalDueAt.getTime() < now.getTime()) return 'past_due';
  return 'active';
}

const iso = (d: Date) => d.toISOString();
const LIMIT = ADMIN_ACCOUNT_LIST_LIMIT;

/**
 * GET /api/admin/accounts/:id (docs/requirements/screens.md /admin/accounts/show/{id}, docs/requirements/entities.md "Account", docs/requirements/permissions.md): one
 * account's summary (name, EIN, level, renewal date, status, bonus balance, group) and, newest
 * first and at most 20 each, its users, applications (completed into it, or started by its
 * users), bylaws (saved by its users), uploads (files), invoices with their balances, and
 * payments (every status but unfinished PayPal sessions, like the finances page), with the count
 * of each and the open balance, and every group (for the settings form). Any account, customer or not. Reads only: no audit row (only
 * acting on behalf of an account is audited).
 * @throws HttpError 404 'The account could not be found.'
 */
export async function getAdminAccount(db: Db, id: number, now = new Date()): Promise<AdminAccountDetail> {
  const [a] = await db
    .select({
      id: accounts.id,
      name: accounts.name,
      ein: accounts.ein,
      email: accounts.email,
      city: accounts.city,
      state: accounts.state,
      source: accounts.source,
      levelId: accounts.levelId,
      levelName: levels.name,
      renewalDueAt: accounts.renewalDueAt,
      isSuspendedFromBasicRenewal: accounts.isSuspendedFromBasicRenewal,
      bonusBalanceCents: accounts.bonusBalanceCents,
      groupId: groups.id,
      groupLabel: groups.label,
      isBilledAsGroup: groups.isBilledAsGroup,
      primaryUserId: accounts.primaryUserId,
      createdAt: accounts.createdAt,
      irs: standingColumns,
    })
    .from(accounts)
    .leftJoin(levels, eq(levels.id, accounts.levelId))
    .leftJoin(groups, eq(groups.id, accounts.groupId))
    .where(eq(accounts.id, id))
    .limit(1);
  if (!a) throw notFound('The account');

  const accountUserIds = db.select({ id: users.id }).from(users).where(eq(users.accountId, id));
  const ofApplications = or(eq(applications.accountId, id), inArray(applications.userId, accountUserIds));
  const ofBylaws = inArray(bylaws.userId, accountUserIds);
  const ofPayments = and(eq(payments.accountId, id), notInArray(payments.status, [...UNLISTED_PAYMENT_STATUSES]));

  const [counts] = await rowsOf<
    Record<'users' | 'applications' | 'bylaws' | 'files' | 'invoices' | 'payments' | 'open_balance', number | string>
  >(
    db,
    sql`SELECT
    (SELECT count(*)::int FROM ${users} WHERE ${eq(users.accountId, id)}) AS users,
    (SELECT count(*)::int FROM ${applications} WHERE ${ofApplications}) AS applications,
    (SELECT count(*)::int FROM ${bylaws} WHERE ${ofBylaws}) AS bylaws,
    (SELECT count(*)::int FROM ${files} WHERE ${eq(files.accountId, id)}) AS files,
    (SELECT count(*)::int FROM ${invoices} WHERE ${eq(invoices.accountId, id)}) AS invoices,
    (SELECT count(*)::int FROM ${payments} WHERE ${ofPayments}) AS payments,
    (SELECT coalesce(sum(${invoices.balanceCents}), 0)::int FROM ${invoices} WHERE ${eq(invoices.accountId, id)}) AS open_balance`,
  );

  const userRows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isPrimary: users.isPrimary,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.accountId, id))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(LIMIT);
  const applicationRows = await db
    .select({
      id: applications.id,
      email: users.email,
      level: levels.name,
      type: applications.type,
      status: applications.status,
      updatedAt: applications.updatedAt,
    })
    .from(applications)
    .innerJoin(users, eq(users.id, applications.userId))
    .innerJoin(levels, eq(levels.id, applications.levelId))
    .where(ofApplications)
    .orderBy(desc(applications.updatedAt), desc(applications.id))
    .limit(LIMIT);
  const bylawRows = await db
    .select({
      id: bylaws.id,
      hash: bylaws.hash,
      variant: bylaws.variant,
      email: users.email,
      updatedAt: bylaws.updatedAt,
    })
    .from(bylaws)
    .innerJoin(users, eq(users.id, bylaws.userId))
    .where(ofBylaws)
    .orderBy(desc(bylaws.updatedAt), desc(bylaws.id))
    .limit(LIMIT);
  const fileRows = await db
    .select({
      id: files.id,
      fileName: files.fileName,
      mimeType: files.mimeType,
      sizeBytes: files.sizeBytes,
      purpose: files.purpose,
      createdAt: files.createdAt,
    })
    .from(files)
    .where(eq(files.accountId, id))
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(LIMIT);
  const invoiceRows = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      documentAt: invoices.documentAt,
      valueCents: invoices.valueCents,
      balanceCents: invoices.balanceCents,
      publicNotes: invoices.publicNotes,
    })
    .from(invoices)
    .where(eq(invoices.accountId, id))
    .orderBy(desc(invoices.documentAt), desc(invoices.id))
    .limit(LIMIT);
  const paymentRows = await db
    .select({
      id: payments.id,
      method: payments.method,
      status: payments.status,
      amountCents: payments.amountCents,
      discountCents: payments.discountCents,
      accountLast4: payments.accountLast4,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .where(ofPayments)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(LIMIT);
  const standing = standingView(a.irs, await standingOfAccount(db, a.irs, calendarDate(now)));
  const groupRows = await db
    .select({ id: groups.id, label: groups.label, isBilledAsGroup: groups.isBilledAsGroup })
    .from(groups)
    .orderBy(asc(groups.label), asc(groups.id));

  return {
    account: {
      id: a.id,
      name: a.name,
      ein: a.ein,
      email: a.email,
      city: a.city,
      state: a.state,
      source: a.source,
      level: a.levelId === null ? null : { id: a.levelId, name: a.levelName ?? '' },
      renewal_due_at: a.renewalDueAt ? iso(a.renewalDueAt) : null,
      status: accountStatus(a, now),
      is_suspended_from_basic_renewal: a.isSuspendedFromBasicRenewal,
      bonus_balance_cents: a.bonusBalanceCents,
      group:
        a.groupId === null
          ? null
          : { id: a.groupId, label: a.groupLabel ?? '', is_billed_as_group: a.isBilledAsGroup ?? false },
      primary_user_id: a.primaryUserId,
      created_at: iso(a.createdAt),
    },
    standing,
    users: userRows.map((u) => ({
      id: u.id,
      email: u.email,
      first_name: u.firstName,
      last_name: u.lastName,
      is_primary: u.isPrimary,
      created_at: iso(u.createdAt),
    })),
    applications: applicationRows.map((r) => ({
      id: r.id,
      email: r.email,
      level: r.level,
      type: r.type,
      status: r.status,
      updated_at: iso(r.updatedAt),
    })),
    bylaws: bylawRows.map((b) => ({
      id: b.id,
      hash: b.hash,
      variant: b.variant,
      email: b.email,
      updated_at: iso(b.updatedAt),
    })),
    files: fileRows.map((f) => ({
      id: f.id,
      file_name: f.fileName,
      mime_type: f.mimeType,
      size_bytes: f.sizeBytes,
      purpose: f.purpose,
      created_at: iso(f.createdAt),
    })),
    invoices: invoiceRows.map((i) => ({
      id: i.id,
      number: i.number,
      document_at: iso(i.documentAt),
      value_cents: i.valueCents,
      balance_cents: i.balanceCents,
      public_notes: i.publicNotes,
    })),
    payments: paymentRows.map((p) => ({
      id: p.id,
      method: p.method,
      status: p.status,
      amount_cents: p.amountCents,
      discount_cents: p.discountCents,
      account_last4: p.accountLast4,
      created_at: iso(p.createdAt),
    })),
    counts: {
      users: Number(counts.users),
      applications: Number(counts.applications),
      bylaws: Number(counts.bylaws),
      files: Number(counts.files),
      invoices: Number(counts.invoices),
      payments: Number(counts.payments),
    },
    open_balance_cents: Number(counts.open_balance),
    groups: groupRows.map((g) => ({ id: g.id, label: g.label, is_billed_as_group: g.isBilledAsGroup })),
  };
}
