import { and, desc, eq, inArray } from 'drizzle-orm';
import { accountOverviewContracts } from '../../../shared/contracts/account-overview.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { LETTER_STATES } from '../../../shared/rules/standing.ts';
import { RECEIPT_STATUSES } from '../../../shared/schemas/finances.ts';
import { RECEIPTS_ON_HOME, type HomeDeadline, type HomeSummary } from '../../../shared/schemas/home.ts';
import { accounts, applications, bylaws, levels, payments, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { getMyAccount } from '../account/get-my-account.ts';
import { letterAwaitedOf } from '../applications/determination-letter.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { getCalendar, type CalendarDeadline } from '../compliance/get-calendar.ts';
import { listUnpaidInvoices } from '../invoices/list-unpaid-invoices.ts';
import type { BylawVariant } from '../../../shared/schemas/bylaws.ts';
import type { Db } from '../../db/client.ts';
import type { ActingAccount } from '../../plugins/resolve-account.ts';
import type { SessionUser } from '../../plugins/session.ts';

const iso = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString());
const nameOf = (u: { first_name: string; last_name: string; email: string }) =>
  [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email;

function deadlineView(d: CalendarDeadline): HomeDeadline {
  return {
    kind: d.kind,
    label: d.label,
    due: d.due,
    days_left: d.daysLeft,
    ...(d.filed === undefined ? {} : { filed: d.filed }),
  };
}

/**
 * The group's home (docs/app-home.md, `GET /api/app/home`): the account's standing with the IRS
 * (irs-data/get-standing.ts) and, for a group that applied and awaits its IRS letter, that letter
 * (docs/wizard.md "A group waiting for its IRS letter"), its compliance calendar and the first deadline not yet met, its
 * unpaid invoices (invoices/list-unpaid-invoices.ts, integer cents), the drafts its users have in
 * progress, its documents (bylaws made by its users, the newest receipts, the good-standing
 * letter) and its users. Without an account (`acting` null: a holder whose application is not
 * submitted yet) only the viewer's own drafts and bylaws are listed.
 * Writes one audit_log row 'home.viewed_on_behalf' when staff act for the account, so the
 * account's audit log shows who looked at its home (docs/roles.md).
 * @param acting the account from resolveAccount, or null
 * @param today 'YYYY-MM-DD' (UTC calendar date)
 * @throws HttpError 404 when the account no longer exists
 */
export async function getHome(
  db: Db,
  opts: { user: SessionUser; acting: ActingAccount | null; today: string; ip: string },
): Promise<HomeSummary> {
  const { user, acting, today } = opts;
  const accountId = acting?.accountId ?? null;
  // Whose drafts and bylaws count: the account's users, or the viewer alone before there is an account.
  const owners = accountId === null ? eq(users.id, user.id) : eq(users.accountId, accountId);

  const drafts = await db
    .select({
      id: applications.id,
      level: levels.name,
      updated_at: applications.updatedAt,
      user_id: users.id,
      first_name: users.firstName,
      last_name: users.lastName,
      email: users.email,
    })
    .from(applications)
    .innerJoin(users, eq(users.id, applications.userId))
    .innerJoin(levels, eq(levels.id, applications.levelId))
    .where(and(owners, eq(applications.status, 'draft')))
    .orderBy(desc(applications.updatedAt), desc(applications.id));
  const bylawRows = await db
    .select({ hash: bylaws.hash, variant: bylaws.variant, updated_at: bylaws.updatedAt })
    .from(bylaws)
    .innerJoin(users, eq(users.id, bylaws.userId))
    .where(owners)
    .orderBy(desc(bylaws.updatedAt), desc(bylaws.id));
  const shared = {
    on_behalf: acting?.onBehalf ?? false,
    applications: drafts.map((d) => ({
      id: d.id,
      level: d.level,
      updated_at: iso(d.updated_at),
      started_by: nameOf(d),
      is_mine: d.user_id === user.id,
    })),
  };
  const bylawList = bylawRows.map((b) => ({
    hash: b.hash,
    variant: b.variant as BylawVariant,
    updated_at: iso(b.updated_at),
  }));

  if (accountId === null) {
    return {
      ...shared,
      account: null,
      standing: null,
      letter_awaited: null,
      deadlines: [],
      next_deadline: null,
      invoices: [],
      payable_cents: 0,
      users: [],
      documents: { bylaws: bylawList, receipts: [], standing_letter: { available: false, url: '' } },
    };
  }

  const account = await getMyAccount(db, accountId, today);
  // Deleted between resolveAccount and here.
  if (!account) throw notFound('The account');
  const calendar = await getCalendar(db, accountId, today);
  const unpaid = await listUnpaidInvoices(db, accountId);
  const receipts = await db
    .select({
      id: payments.id,
      created_at: payments.createdAt,
      amount_cents: payments.amountCents,
      status: payments.status,
    })
    .from(payments)
    .where(and(eq(payments.accountId, accountId), inArray(payments.status, [...RECEIPT_STATUSES])))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(RECEIPTS_ON_HOME);
  const people = await db
    .select({
      id: users.id,
      first_name: users.firstName,
      last_name: users.lastName,
      email: users.email,
      is_primary: users.isPrimary,
    })
    .from(users)
    .where(eq(users.accountId, accountId))
    .orderBy(desc(users.isPrimary), users.lastName, users.firstName, users.id);

  if (acting?.onBehalf) {
    await recordAudit(db, { actorUserId: user.id, accountId, action: 'home.viewed_on_behalf', ip: opts.ip });
  }

  const [accountData] = await db.select({ data: accounts.data }).from(accounts).where(eq(accounts.id, accountId));
  const deadlines = calendar.deadlines.map(deadlineView);
  const standing = account.standing;
  return {
    ...shared,
    account: {
      id: account.id,
      name: account.name,
      ein: formatEin(account.ein),
      city: account.city,
      state: account.state,
      level: account.level,
      renewal_due_at: account.renewal_due_at ? iso(account.renewal_due_at) : null,
    },
    standing: {
      state: standing.state,
      label: standing.label,
      missed_tax_years: standing.irs.missed_tax_years,
      days_to_revocation: standing.irs.days_to_revocation,
      revocation_date: standing.irs.revocation_date,
    },
    letter_awaited: await letterAwaitedOf(db, accountId, accountData?.data ?? {}),
    deadlines,
    next_deadline: deadlines.find((d) => !d.filed) ?? null,
    invoices: unpaid.map((i) => ({
      id: i.id,
      number: i.number,
      document_at: iso(i.document_at),
      value_cents: i.value_cents,
      balance_cents: i.balance_cents,
      is_processing: i.is_processing,
    })),
    payable_cents: unpaid.filter((i) => !i.is_processing).reduce((sum, i) => sum + i.balance_cents, 0),
    documents: {
      bylaws: bylawList,
      receipts: receipts.map((r) => ({ ...r, created_at: iso(r.created_at) })),
      standing_letter: {
        available: LETTER_STATES.includes(standing.state),
        url: acting?.onBehalf
          ? `/api/admin/accounts/${accountId}/standing-letter`
          : accountOverviewContracts.standingLetter.url,
      },
    },
    users: people.map((p) => ({ id: p.id, name: nameOf(p), email: p.email, is_primary: p.is_primary })),
  };
}
