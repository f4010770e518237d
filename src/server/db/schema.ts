// Longer than 400 lines: every table of the database with its indexes and CHECK constraints, in the one file
// drizzle.config.ts gives drizzle-kit; the tables name each other in foreign keys, so one file reads as the
// data model whole (docs/ARCHITECTURE.md).
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { cleanFileName } from '../../shared/rules/uploads.ts';
import type { InquiryKind } from '../../shared/lists/subjects.ts';

/** Drizzle schema (docs/requirements/platform.md §4). Money columns are integer cents named *_cents. */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * A `text` column holding the name a browser gave an uploaded file: written and read through
 * cleanFileName (src/shared/rules/uploads.ts), so no name, even one kept before the rule, reaches a
 * page, a download or an export with a control character, a bidirectional control or a direction
 * mark (docs/security.md "Control characters in text"). The SQL type is plain text.
 */
const uploadedFileName = customType<{ data: string; driverData: string }>({
  dataType: () => 'text',
  toDriver: (name) => cleanFileName(name),
  fromDriver: (name) => cleanFileName(name),
});

/** Key/value settings the app keeps for itself, such as the generated CSRF HMAC key. */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  phone: text('phone').notNull(),
  email: text('email').notNull().default(''),
});

/** Groups of accounts, e.g. the subordinates of one IRS group exemption (GEN). */
export const groups = pgTable(
  'groups',
  {
    id: serial('id').primaryKey(),
    label: text('label').notNull(),
    gen: text('gen'),
    isBilledAsGroup: boolean('is_billed_as_group').notNull().default(false),
    /** The central organization holding the GEN (docs/irs-gen-duties.md): its legal name and EIN. */
    centralName: text('central_name').notNull().default(''),
    centralEin: text('central_ein'),
    /** Month (1-12) the central organization's annual accounting period ends; the GEN update is due 90 to 30 days before. */
    accountingPeriodEndMonth: smallint('accounting_period_end_month'),
    /** The 501(c) paragraph every subordinate is described in, as the BMF SUBSECTION ('03', '07', ...). */
    subsection: text('subsection'),
    /** The uniform purpose statement on file for every subordinate; '' while none is on file. */
    uniformPurposeStatement: text('uniform_purpose_statement').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('groups_gen_unique').on(t.gen)],
);

/**
 * The users of a central organization (docs/roles.md "Central organizations"): who may open the
 * workspace of group `group_id` and in which role. A `manager` invites and removes the group's users
 * and acts for the group; a `viewer` reads. Staff reach every group without a row here.
 */
export const groupUsers = pgTable(
  'group_users',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<'manager' | 'viewer'>().notNull(),
    /** Who added them: a manager of the group or staff; null once that user is gone. */
    invitedBy: integer('invited_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('group_users_group_user_unique').on(t.groupId, t.userId),
    index('group_users_user').on(t.userId),
    check('group_users_role_known', sql`${t.role} IN ('manager', 'viewer')`),
  ],
);

export const levels = pgTable(
  'levels',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    priceCents: integer('price_cents').notNull(),
    priceDiscountCents: integer('price_discount_cents').notNull(),
    renewalFeatures: jsonb('renewal_features').$type<string[]>().notNull().default([]),
    upgradeToId: integer('upgrade_to_id'),
    upgradeCents: integer('upgrade_cents').notNull().default(0),
    upgradeDiscountCents: integer('upgrade_discount_cents').notNull().default(0),
    incPackageCents: integer('inc_package_cents').notNull().default(0),
    incPackageDiscountCents: integer('inc_package_discount_cents').notNull().default(0),
    schema: jsonb('schema').$type<unknown>(),
    sortOrder: integer('sort_order').notNull().default(0),
    isPublic: boolean('is_public').notNull().default(true),
  },
  (t) => [uniqueIndex('levels_slug_unique').on(t.slug)],
);

/**
 * Organizations: customers and the subordinates imported from the IRS EO BMF. IRS columns keep
 * the extract's codes as text (EIN with leading zeros, RULING YYYYMM, ...).
 */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    legalName: text('legal_name').notNull().default(''),
    careOf: text('care_of').notNull().default(''),
    ein: text('ein'),
    /** The organization's contact e-mail, lower case; unique, so a roster upload skips repeats (docs/requirements/product.md tool 5). */
    email: text('email'),
    gen: text('gen'),
    groupId: integer('group_id').references(() => groups.id),
    levelId: integer('level_id').references(() => levels.id),
    street: text('street').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    subsection: text('subsection'),
    affiliation: text('affiliation'),
    ruling: text('ruling'),
    deductibility: text('deductibility'),
    irsStatus: text('irs_status'),
    taxPeriod: text('tax_period'),
    filingRequirement: text('filing_requirement'),
    /** BMF PF_FILING_REQ_CD: '1' a Form 990-PF every year, '0' none (docs/irs-standing.md "Returns owed"). */
    pfFilingRequirement: text('pf_filing_requirement'),
    fiscalYearEndMonth: smallint('fiscal_year_end_month'),
    nteeCode: text('ntee_code'),
    /** BMF FOUNDATION code ('00' not 501(c)(3), '02'-'04' private foundation, '10'-'24' public charity classes); docs/irs-gen-duties.md. */
    foundation: text('foundation'),
    /** The IRS BMF release (irs_releases) the IRS columns above were last read from; null when never. */
    bmfReleaseId: integer('bmf_release_id').references((): AnyPgColumn => irsReleases.id),
    /** Listed in the public subordinate search (docs/requirements/product.md tool 16). */
    isListed: boolean('is_listed').notNull().default(false),
    /** Lower-cased name, secondary name and city: what the keyword search matches (see searchTextParts). */
    searchText: text('search_text').notNull().default(''),
    source: text('source').notNull().default('app'),
    renewalDueAt: timestamp('renewal_due_at', { withTimezone: true }),
    bonusBalanceCents: integer('bonus_balance_cents').notNull().default(0),
    publicProfileImage: text('public_profile_image').notNull().default(''),
    primaryUserId: integer('primary_user_id'),
    isSuspendedFromBasicRenewal: boolean('is_suspended_from_basic_renewal').notNull().default(false),
    /** Answers of the application and editable account data, by field name (docs/requirements/entities.md "fields"). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_ein_unique').on(t.ein),
    // A small GIN pending list: PGlite has no autovacuum to merge it into the index, and every
    // search reads the whole list (4 MB by default: ~10 ms a query). 256 kB keeps imports fast.
    index('accounts_search_trgm')
      .using('gin', sql`${t.searchText} gin_trgm_ops`)
      .with({ gin_pending_list_limit: 256 }),
    // The search's name-order walk reads only this index (an index-only scan once VACUUM has set the
    // visibility map): name order, then the columns it tests and shows.
    index('accounts_listed_name').on(t.isListed, t.name, t.id, t.searchText, t.city, t.state),
    index('accounts_gen').on(t.gen),
    // Every account by name (imported or not): the audit log's Account sort walks it, each account's
    // rows then along audit_log_account (docs/staff-lists.md "Audit log sorts"); with the search text,
    // a search of many accounts tests each walked account on the index alone.
    index('accounts_name').on(t.name, t.id, t.searchText),
    uniqueIndex('accounts_email_unique').on(sql`lower(${t.email})`),
    // Staff's accounts list (docs/benchmarks.md "Staff lists at scale"): the product's own accounts in
    // each sort order, so a page walks 20 index entries instead of sorting every customer, and the
    // e-mail substring search.
    index('accounts_customer_name')
      .on(t.name, t.id)
      .where(sql`${t.isListed} = false AND ${t.source} <> 'irs-bmf'`),
    index('accounts_customer_created')
      .on(t.createdAt, t.id)
      .where(sql`${t.isListed} = false AND ${t.source} <> 'irs-bmf'`),
    index('accounts_customer_renewal')
      .on(t.renewalDueAt, t.id)
      .where(sql`${t.isListed} = false AND ${t.source} <> 'irs-bmf'`),
    index('accounts_customer_ein')
      .on(t.ein, t.id)
      .where(sql`${t.isListed} = false AND ${t.source} <> 'irs-bmf'`),
    index('accounts_customer_level')
      .on(t.levelId, t.id)
      .where(sql`${t.isListed} = false AND ${t.source} <> 'irs-bmf'`),
    // Imported accounts are customers only when they have users: the list's second half starts here.
    index('accounts_imported')
      .on(t.id)
      .where(sql`NOT (${t.isListed} = false AND ${t.source} <> 'irs-bmf')`),
    index('accounts_email_trgm')
      .using('gin', sql`lower(${t.email}) gin_trgm_ops`)
      .with({ gin_pending_list_limit: 256 }),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    phone: text('phone').notNull().default(''),
    smsPhone: text('sms_phone').notNull().default(''),
    isAdmin: boolean('is_admin').notNull().default(false),
    accountId: integer('account_id').references(() => accounts.id),
    isPrimary: boolean('is_primary').notNull().default(false),
    isSubscribedBulkEmails: boolean('is_subscribed_bulk_emails').notNull().default(true),
    isSubscribedEventEmails: boolean('is_subscribed_event_emails').notNull().default(true),
    isSubscribedSms: boolean('is_subscribed_sms').notNull().default(false),
    /**
     * When this user was last sent an invitation to choose their password (docs/roles.md
     * "Invitations"): set while they have not chosen one yet (their password hash is of a random
     * secret nobody knows, so they cannot sign in), null once they have, and for everyone else.
     */
    invitedAt: timestamp('invited_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_account').on(t.accountId),
    // Staff's accounts and audit searches by part of a user's e-mail.
    index('users_email_trgm')
      .using('gin', sql`lower(${t.email}) gin_trgm_ops`)
      .with({ gin_pending_list_limit: 256 }),
  ],
);

/**
 * Each user's e-mail in lower case and nothing else, kept by a trigger on `users` (migration
 * 0034_user_email_search.sql: written with the user, changed with the e-mail, removed with the user).
 * The audit log's search by part of an actor's e-mail reads this narrow copy: a trigram match is
 * checked against the row it finds, and here a page of the table holds six times the e-mails of a
 * page of `users` (docs/staff-lists.md "Audit log sorts").
 */
export const userEmailSearch = pgTable(
  'user_email_search',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
  },
  (t) => [index('user_email_search_trgm').using('gin', sql`${t.email} gin_trgm_ops`)],
);

/** Server-side sessions; the cookie holds a random id and only its sha256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [index('sessions_user').on(t.userId), index('sessions_expires').on(t.expiresAt)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('password_resets_token_unique').on(t.tokenHash),
    index('password_resets_user').on(t.userId),
    index('password_resets_expires').on(t.expiresAt),
  ],
);

/** Submissions of the public forms (docs/requirements/product.md tools 6-9), the admin inbox. */
export const inquiries = pgTable(
  'inquiries',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<InquiryKind>().notNull(),
    name: text('name').notNull().default(''),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    organization: text('organization').notNull().default(''),
    /** The form's other fields (subject, message, ein, group_id, affiliates, regions, concerns). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    isHandled: boolean('is_handled').notNull().default(false),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledBy: integer('handled_by').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('inquiries_kind_created').on(t.kind, t.createdAt),
    index('inquiries_created').on(t.createdAt),
    // The inbox's column sorts (docs/staff-lists.md), ties by id.
    index('inquiries_name_id').on(t.name, t.id),
    index('inquiries_kind_id').on(t.kind, t.id),
    index('inquiries_organization_id').on(t.organization, t.id),
    index('inquiries_handled_id').on(t.isHandled, t.id),
    // The inbox search (modules/admin/inbox.ts inquirySearchText): the same expression.
    index('inquiries_search_trgm')
      .using('gin', sql`lower(${t.name} || ' ' || ${t.email} || ' ' || ${t.organization}) gin_trgm_ops`)
      .with({ gin_pending_list_limit: 256 }),
  ],
);

export const ratings = pgTable(
  'ratings',
  {
    id: serial('id').primaryKey(),
    url: text('url').notNull(),
    rating: smallint('rating').notNull(),
    comments: text('comments').notNull().default(''),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('ratings_url').on(t.url), index('ratings_created').on(t.createdAt)],
);

/** Page banners (docs/requirements/behaviour.md "Banner"): kind is 'holiday-alert' or 'urgent-alert'. */
export const banners = pgTable('banners', {
  id: serial('id').primaryKey(),
  kind: text('kind').notNull(),
  text: text('text').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Per-state requirements (docs/requirements/entities.md "State requirement"); estimates in integer cents. */
export const stateRequirements = pgTable(
  'state_requirements',
  {
    code: text('code').primaryKey(),
    stateName: text('state_name').notNull(),
    maintainEstimateCents: integer('maintain_estimate_cents').notNull(),
    aoiEstimateCents: integer('aoi_estimate_cents').notNull(),
    notes: text('notes').notNull().default(''),
    /** The state's annual filing for nonprofits (docs/requirements/product.md "Compliance calendar"), e.g. 'Annual report'; set by staff, null when not verified. */
    filingLabel: text('filing_label'),
    /** Its due date every year: month 1-12 and day 1-31 (clamped to the month's length), both null or both set. */
    filingDueMonth: smallint('filing_due_month'),
    filingDueDay: smallint('filing_due_day'),
  },
  (t) => [
    check(
      'state_requirements_filing_date',
      sql`(${t.filingDueMonth} IS NULL AND ${t.filingDueDay} IS NULL) OR (${t.filingDueMonth} BETWEEN 1 AND 12 AND ${t.filingDueDay} BETWEEN 1 AND 31 AND ${t.filingLabel} IS NOT NULL AND ${t.filingLabel} <> '')`,
    ),
  ],
);

/** Every mail the product sends; kept until sent and retried with backoff (docs/requirements/platform.md §1 Mail). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    /**
     * The mail's own HTML part (docs/mail.md "Two parts"); null when it has none, and then the HTML
     * part is drawn from the text when it is sent. Cleared with the text (token mails, retention).
     */
    htmlBody: text('html_body'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error').notNull().default(''),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The body holds a secret link (a password reset, an application's resume link): replaced by a note once sent (docs/security.md). */
    carriesToken: boolean('carries_token').notNull().default(false),
    /** The id of the request that enqueued it, sent as its X-Request-Id header (docs/deploy.md "Observability"); null from jobs. */
    requestId: text('request_id'),
    /**
     * The delivery round sending this mail (a random id per round) and until when its claim holds
     * (docs/mail.md "One send per mail"): another server takes the row only once `lease_until` has
     * passed; the sender's heartbeat pushes it on while the SMTP server is still answering. Both null
     * when no round holds the mail.
     */
    leasedBy: text('leased_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_status_next').on(t.status, t.nextAttemptAt),
    index('mail_outbox_created').on(t.createdAt),
    // The outbox's column sorts (docs/staff-lists.md), ties by id.
    index('mail_outbox_to_id').on(t.toAddress, t.id),
    index('mail_outbox_subject_id').on(t.subject, t.id),
    index('mail_outbox_status_id').on(t.status, t.id),
    // Sent mails whose text is still kept: what the retention rule blanks (docs/retention.md); it
    // shrinks as they are blanked.
    index('mail_outbox_sent_with_text')
      .on(t.sentAt)
      .where(sql`${t.status} = 'sent' AND ${t.textBody} <> ''`),
    // The outbox search (modules/admin/outbox.ts outboxSearchText): the same expression.
    index('mail_outbox_search_trgm')
      .using('gin', sql`lower(${t.toAddress} || ' ' || ${t.subject}) gin_trgm_ops`)
      .with({ gin_pending_list_limit: 256 }),
  ],
);

/** Who did what, on behalf of which account (docs/requirements/platform.md §5.6). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorUserId: integer('actor_user_id'),
    accountId: integer('account_id'),
    action: text('action').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created').on(t.createdAt),
    // One account's rows in id order (the account filter, the Account sort's walk of each account)
    // and the actors' (the search by e-mail, the Actor sort): docs/staff-lists.md "Audit log sorts".
    index('audit_log_account').on(t.accountId, t.id),
    index('audit_log_actor').on(t.actorUserId, t.id),
    // A search of many actors or accounts by time walks the log newest first testing each row's actor
    // and account: with both here, the walk reads this index alone, never the rows and their details.
    index('audit_log_id_actor_account').on(t.id, t.actorUserId, t.accountId),
    // The What sort (by the action's code, then id) and the action prefix filter (LIKE 'x%'): in
    // byte order ("C"), the only one in which PostgreSQL turns a LIKE prefix into an index range
    // whatever the database's collation (action codes are lower-case ASCII: the same order).
    index('audit_log_action').on(sql`(${t.action} COLLATE "C")`, t.id),
  ],
);

/**
 * Applications to join (docs/requirements/product.md tools 1-2): a draft created by the application start form, filled
 * page by page in the wizard, completed into an account. The secret in /application/create/{token}
 * is mailed once and never stored: the `token` column holds its sha256 (hex), found with
 * hashApplicationToken (docs/security.md); only the application's owner may use it.
 */
export const applications = pgTable(
  'applications',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    levelId: integer('level_id')
      .notNull()
      .references(() => levels.id),
    /** 'start-up' (tax exemption included) or 'maintain' (an existing exemption). */
    type: text('type').notNull(),
    /** The last page saved, 1-based. */
    page: integer('page').notNull().default(1),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default({}),
    /** 'draft', 'completed' or 'deleted'. */
    status: text('status').notNull().default('draft'),
    accountId: integer('account_id').references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('applications_token_unique').on(t.tokenHash),
    index('applications_user').on(t.userId),
    index('applications_status_created').on(t.status, t.createdAt),
    // Drafts by when they were last touched: what the retention rule for abandoned drafts reads.
    index('applications_status_updated').on(t.status, t.updatedAt),
  ],
);

/** Invoices of an account (docs/requirements/entities.md "Invoice"); amounts in integer cents. */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    number: text('number').notNull(),
    documentAt: timestamp('document_at', { withTimezone: true }).notNull().defaultNow(),
    publicNotes: text('public_notes').notNull().default(''),
    valueCents: integer('value_cents').notNull(),
    balanceCents: integer('balance_cents').notNull(),
    /** The application this invoice was created for, so completing it twice bills once. */
    applicationId: integer('application_id').references(() => applications.id),
    /**
     * The payment in flight, held for review or pending that holds this invoice (docs/payments.md
     * "One charge per invoice"): set by the payment step in the transaction that inserts the payment,
     * only while it is null, and cleared by the database (trigger payments_release_invoices) as soon
     * as that payment leaves 'pending' and 'held'. While it is set, no other payment may take the
     * invoice.
     */
    heldByPaymentId: integer('held_by_payment_id').references((): AnyPgColumn => payments.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invoices_number_unique').on(t.number),
    uniqueIndex('invoices_application_unique').on(t.applicationId),
    index('invoices_account').on(t.accountId),
    index('invoices_held_by')
      .on(t.heldByPaymentId)
      .where(sql`${t.heldByPaymentId} IS NOT NULL`),
    // Staff's open-invoices list and total read only invoices with something left to pay.
    index('invoices_open')
      .on(t.documentAt, t.id)
      .where(sql`${t.balanceCents} > 0`),
    index('invoices_open_balance')
      .on(t.balanceCents, t.id)
      .where(sql`${t.balanceCents} > 0`),
  ],
);

/** Order details of an invoice (docs/requirements/entities.md: label, type, value); `type` is what discount flags match. */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: serial('id').primaryKey(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    /** 'new_account', 'renewal', 'upgrade', 'incorporation', 'service_fee', 'reinstatement'. */
    type: text('type').notNull(),
    valueCents: integer('value_cents').notNull(),
  },
  (t) => [index('invoice_lines_invoice').on(t.invoiceId)],
);

/**
 * Discount codes (docs/requirements/entities.md "Discount", docs/requirements/validation.md "Discounts and totals"). `code` is kept as
 * `normalizeDiscountCode` gives it (upper case) and limited to A-Z, 0-9, '-' and '_'. A discount
 * is either a fixed amount (`currency_value_cents`, docs/requirements/entities.md currency_value, integer cents) or a
 * `multiplier`: the fraction of the eligible amount taken off, an exact numeric(7,6) between 0
 * and 1 (0.250000 is 25 %), read as a JS number and multiplied exactly in integers by
 * src/shared/rules/billing.ts (6 decimals, halves up); never both. The four flags pick the invoice
 * line types it applies to. Usable while active, between starts_at and expires_at (each open when
 * null), and while fewer than max_redemptions (null: no cap) are redeemed or held by reservations.
 */
export const discounts = pgTable(
  'discounts',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    currencyValueCents: integer('currency_value_cents').notNull().default(0),
    multiplier: numeric('multiplier', { precision: 7, scale: 6, mode: 'number' }).notNull().default(0),
    isNewAccount: boolean('is_new_account').notNull().default(false),
    isRenewals: boolean('is_renewals').notNull().default(false),
    isUpgrades: boolean('is_upgrades').notNull().default(false),
    isServiceFees: boolean('is_service_fees').notNull().default(false),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    maxRedemptions: integer('max_redemptions'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('discounts_code_unique').on(t.code),
    check('discounts_code_format', sql`${t.code} ~ '^[A-Z0-9_-]{1,64}$'`),
    check(
      'discounts_amount',
      sql`${t.currencyValueCents} >= 0 AND ${t.multiplier} >= 0 AND ${t.multiplier} <= 1 AND (${t.currencyValueCents} = 0 OR ${t.multiplier} = 0)`,
    ),
    check('discounts_max_redemptions', sql`${t.maxRedemptions} IS NULL OR ${t.maxRedemptions} > 0`),
  ],
);

/**
 * An account's hold on a discount code (POST /app/discount/reserve, docs/requirements/calls.md), refreshed by each
 * reserve and valid until `expires_at`; the payment step redeems it (sets `redeemed_at` and
 * `payment_ref` together, once). At most one open (unredeemed) reservation per account and
 * discount, and at most one redeemed: a code is used once per account.
 */
export const discountReservations = pgTable(
  'discount_reservations',
  {
    id: serial('id').primaryKey(),
    discountId: integer('discount_id')
      .notNull()
      .references(() => discounts.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    reservedBy: integer('reserved_by').references(() => users.id, { onDelete: 'set null' }),
    reservedAt: timestamp('reserved_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    /** The payment that used it, set with redeemed_at. */
    paymentRef: text('payment_ref'),
  },
  (t) => [
    uniqueIndex('discount_reservations_open_unique')
      .on(t.accountId, t.discountId)
      .where(sql`redeemed_at IS NULL`),
    uniqueIndex('discount_reservations_redeemed_unique')
      .on(t.accountId, t.discountId)
      .where(sql`redeemed_at IS NOT NULL`),
    index('discount_reservations_discount').on(t.discountId, t.expiresAt),
    check('discount_reservations_redeemed_with_ref', sql`(${t.redeemedAt} IS NULL) = (${t.paymentRef} IS NULL)`),
  ],
);

/**
 * Stored files (docs/requirements/platform.md §4): the bytes live in the storage provider under `storage_key`; a row is
 * written only after the bytes are stored. `purpose` says which uploader took it and who may read it.
 */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    /** Random key in the storage provider; never derived from the uploaded name. */
    storageKey: text('storage_key').notNull(),
    /** The name the uploader gave, as shown back to them (cleanFileName: no control or bidirectional character). */
    fileName: uploadedFileName('file_name').notNull(),
    /** The type found from the magic bytes (or from the extension for text formats). */
    mimeType: text('mime_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** 'application_document', 'contest_photo', 'contest_video', 'roster', 'profile_image'. */
    purpose: text('purpose').notNull(),
    applicationId: integer('application_id').references(() => applications.id, { onDelete: 'set null' }),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('files_storage_key_unique').on(t.storageKey),
    index('files_application').on(t.applicationId),
    index('files_account').on(t.accountId),
    // Files whose application and account were deleted: what removeStoredFiles looks for.
    index('files_unowned')
      .on(t.id)
      .where(sql`${t.applicationId} IS NULL AND ${t.accountId} IS NULL`),
  ],
);

/**
 * Saved bylaws generator answers (docs/requirements/product.md tool 3). `hash` is the 128-bit random handle in the
 * download address; only the session (or signed-in user) that created a bylaw may change it.
 */
export const bylaws = pgTable(
  'bylaws',
  {
    id: serial('id').primaryKey(),
    hash: text('hash').notNull(),
    /** 'standard', 'school' or 'short'. */
    variant: text('variant').notNull(),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
    /** sha256 of the creating session's cookie value. */
    sessionHash: text('session_hash').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The application whose bylaws step wrote these answers (docs/wizard.md "The bylaws step"); null from the generator pages. */
    applicationId: integer('application_id').references(() => applications.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('bylaws_hash_unique').on(t.hash),
    index('bylaws_user').on(t.userId),
    uniqueIndex('bylaws_application_unique').on(t.applicationId),
  ],
);

/**
 * Photo and video contest entries (docs/requirements/product.md tool 4, docs/requirements/entities.md "Contest entry"). The first three entries per
 * contest for an organization or an e-mail count; later ones are kept with `counts = false`.
 */
export const contestEntries = pgTable(
  'contest_entries',
  {
    id: serial('id').primaryKey(),
    /** 'photo' or 'video'. */
    contest: text('contest').notNull(),
    organization: text('organization').notNull(),
    email: text('email').notNull(),
    /** 'booster_club', 'school_staff' or '' (someone else). */
    type: text('type').notNull().default(''),
    message: text('message').notNull().default(''),
    /** The "current member" self-declaration. */
    isMember: boolean('is_member').notNull().default(false),
    fileId: integer('file_id').references(() => files.id, { onDelete: 'set null' }),
    counts: boolean('counts').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('contest_entries_contest_email').on(t.contest, t.email),
    index('contest_entries_contest_org').on(t.contest, sql`lower(${t.organization})`),
    index('contest_entries_contest_created').on(t.contest, t.createdAt),
    // The staff list's column sorts (docs/staff-lists.md), ties by id.
    index('contest_entries_contest_type').on(t.contest, t.type, t.id),
    index('contest_entries_contest_counts').on(t.contest, t.counts, t.id),
  ],
);

/**
 * Card, bank, PayPal and zero payments (docs/payments.md). A card or bank row is written
 * `pending` with the attempt's idempotency key (unique) and committed, holding its invoices
 * (`invoices.held_by_payment_id`) and claiming its discount, before the gateway is called, so a
 * retry, a double click or a second attempt never charges twice. Its status then moves only along
 * the transitions the trigger payments_check_transition allows:
 * awaiting_consent → pending | cancelled | failed; pending → paid | held | declined | failed;
 * held → paid | declined; paid → voided | refunded. A payment that leaves pending and held
 * releases its invoices (trigger payments_release_invoices). No card or bank number and no opaque
 * token is ever stored: only the gateway's masked last four digits and its message.
 * `amount_cents` is what was charged; `discount_cents` what the claimed discount took off; the two
 * together are what the payment settles on `invoice_ids`. `refunded_cents` is what staff gave back.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /** Who paid (an account holder, or an admin paying on the account's behalf). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** 'card', 'bank', 'paypal' or 'zero'. */
    method: text('method').notNull(),
    /**
     * 'pending', 'paid', 'held', 'declined', 'failed', 'voided' (cancelled at the gateway before
     * settlement) or 'refunded' (all of it given back); a PayPal session is 'awaiting_consent' until
     * the payer approves (nothing charged) and 'cancelled' when given up.
     */
    status: text('status').notNull().default('pending'),
    amountCents: integer('amount_cents').notNull(),
    discountId: integer('discount_id').references(() => discounts.id, { onDelete: 'set null' }),
    /** The reservation redeemed when the payment is paid. */
    discountReservationId: integer('discount_reservation_id').references(() => discountReservations.id, {
      onDelete: 'set null',
    }),
    discountCents: integer('discount_cents').notNull().default(0),
    /** The invoices selected, as sent (the amounts applied are in payment_invoices once paid). */
    invoiceIds: integer('invoice_ids').array().notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    gatewayTransId: text('gateway_trans_id'),
    authCode: text('auth_code'),
    /** Masked by the gateway, e.g. XXXX1111. */
    accountLast4: text('account_last4'),
    /** Visa, eCheck … as the gateway reports it. */
    accountType: text('account_type'),
    /** The gateway's response reason or error code and its text (never a secret). */
    gatewayCode: text('gateway_code'),
    gatewayMessage: text('gateway_message'),
    /** Integer cents given back by refunds (payment_refunds), at most amount_cents. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /**
     * Why staff must decide about this payment (the reconciliation found something it cannot settle
     * on its own, e.g. approved at the gateway after its invoices were paid otherwise); null when
     * nothing is asked of staff.
     */
    reviewReason: text('review_reason'),
    /** When the reconciliation last asked the gateway about this payment, and how many times. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    checks: integer('checks').notNull().default(0),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_idempotency_key_unique').on(t.idempotencyKey),
    index('payments_account_created').on(t.accountId, t.createdAt),
    index('payments_status_created').on(t.status, t.createdAt),
    index('payments_gateway_trans_id').on(t.gatewayTransId),
    index('payments_review')
      .on(t.createdAt)
      .where(sql`${t.reviewReason} IS NOT NULL`),
    // Staff's payments list over every status, newest first or by amount.
    index('payments_created').on(t.createdAt, t.id),
    index('payments_amount').on(t.amountCents, t.id),
    index('payments_method_id').on(t.method, t.id),
    index('payments_status_id').on(t.status, t.id),
    check('payments_method', sql`${t.method} IN ('card', 'bank', 'paypal', 'zero')`),
    check(
      'payments_status',
      sql`${t.status} IN ('awaiting_consent', 'cancelled', 'pending', 'paid', 'held', 'declined', 'failed', 'voided', 'refunded')`,
    ),
    check('payments_amounts', sql`${t.amountCents} >= 0 AND ${t.discountCents} >= 0`),
    check('payments_refunded', sql`${t.refundedCents} >= 0 AND ${t.refundedCents} <= ${t.amountCents}`),
  ],
);

/**
 * Money given back on a paid payment by staff (docs/payments.md "Staff actions"): written
 * `pending` before the gateway's refundTransaction is called (at most one pending per payment), then
 * `refunded` with the gateway's transaction id, or `failed` with its message. Integer cents.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    amountCents: integer('amount_cents').notNull(),
    /** Why staff refunded, as typed (shown to staff and in the audit log, not to the account). */
    reason: text('reason').notNull(),
    /** 'pending', 'refunded' or 'failed'. */
    status: text('status').notNull().default('pending'),
    gatewayTransId: text('gateway_trans_id'),
    gatewayCode: text('gateway_code'),
    gatewayMessage: text('gateway_message'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('payment_refunds_payment').on(t.paymentId),
    uniqueIndex('payment_refunds_one_pending')
      .on(t.paymentId)
      .where(sql`${t.status} = 'pending'`),
    check('payment_refunds_amount', sql`${t.amountCents} > 0`),
    check('payment_refunds_status', sql`${t.status} IN ('pending', 'refunded', 'failed')`),
  ],
);

/**
 * A charge the gateway holds that no payment of ours accounts for (docs/payments.md
 * "Reconciliation"): found in getUnsettledTransactionList with this site's refId (gs-pay-…), but
 * its payment is unknown, already ended otherwise, or carries another transaction id. One row per
 * gateway transaction; staff resolve it (void or refund it at the gateway, then mark it resolved).
 */
export const gatewayDiscrepancies = pgTable(
  'gateway_discrepancies',
  {
    id: serial('id').primaryKey(),
    transId: text('trans_id').notNull(),
    /** The refId the charge was sent with (transrefId), e.g. gs-pay-42. */
    transRefId: text('trans_ref_id').notNull().default(''),
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    transactionStatus: text('transaction_status').notNull(),
    accountType: text('account_type').notNull().default(''),
    accountLast4: text('account_last4').notNull().default(''),
    invoiceNumber: text('invoice_number').notNull().default(''),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolution: text('resolution'),
  },
  (t) => [
    uniqueIndex('gateway_discrepancies_trans_unique').on(t.transId),
    index('gateway_discrepancies_open')
      .on(t.foundAt)
      .where(sql`${t.resolvedAt} IS NULL`),
  ],
);

/** What a paid payment settled on each invoice (reduced from invoices.balance_cents), integer cents. */
export const paymentInvoices = pgTable(
  'payment_invoices',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    amountCents: integer('amount_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_invoices_payment_invoice_unique').on(t.paymentId, t.invoiceId),
    index('payment_invoices_invoice').on(t.invoiceId),
    check('payment_invoices_amount', sql`${t.amountCents} > 0`),
  ],
);

/**
 * A submitted renewal (docs/requirements/product.md tool 13) and the invoice that bills it. When that invoice is paid in
 * full the account's renewal date moves one year on and it takes the new level (applied once:
 * `applied_at`). A renewal not applied yet is open; an account has at most one. The bonus balance used was taken off the account when the renewal was submitted.
 */
export const renewals = pgTable(
  'renewals',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    currentLevelId: integer('current_level_id')
      .notNull()
      .references(() => levels.id),
    newLevelId: integer('new_level_id')
      .notNull()
      .references(() => levels.id),
    isUpgradeSelected: boolean('is_upgrade_selected').notNull(),
    isIncorporationSelected: boolean('is_incorporation_selected').notNull(),
    bonusCents: integer('bonus_cents').notNull().default(0),
    /** Who submitted it (the holder, or an admin acting for the account). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('renewals_invoice_unique').on(t.invoiceId),
    // One open renewal (invoice not yet paid in full) per account, whatever the code path or server:
    // docs/renewals.md "One open renewal".
    uniqueIndex('renewals_one_open_per_account')
      .on(t.accountId)
      .where(sql`${t.appliedAt} IS NULL`),
    index('renewals_account').on(t.accountId, t.createdAt),
    check('renewals_bonus', sql`${t.bonusCents} >= 0`),
  ],
);

/**
 * An annual IRS return or notice (Form 990-N, 990-EZ or 990) recorded as filed for an account's
 * tax year (docs/requirements/product.md "Compliance calendar"): the calendar year its fiscal year ENDS in, like the BMF TAX_PERIOD (see
 * shared/rules/compliance-calendar.ts). One per account and tax year. Recorded by an admin.
 */
export const filings = pgTable(
  'filings',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    taxYear: integer('tax_year').notNull(),
    /** '990-N', '990-EZ' or '990'. */
    form: text('form').notNull(),
    /** The day it was filed, 'YYYY-MM-DD'. */
    filedOn: date('filed_on', { mode: 'string' }).notNull(),
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('filings_account_tax_year_unique').on(t.accountId, t.taxYear),
    check('filings_form', sql`${t.form} IN ('990-N', '990-EZ', '990')`),
  ],
);

/**
 * A Form 8868 extension of time recorded for one of an account's returns (docs/irs-standing.md
 * "Extensions"): the Form 990, 990-EZ or 990-PF of the period ending in `periodEnd` is then due on
 * `extendedDue`, and automatic revocation counts that date (Rev. Proc. 2014-11 §3). Recorded by a
 * user of the account or by staff, audited. One per account and period.
 */
export const filingExtensions = pgTable(
  'filing_extensions',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The end of the tax period the return covers, 'YYYY-MM' (month 1-based). */
    periodEnd: text('period_end').notNull(),
    /** The extension form: '8868'. */
    form: text('form').notNull().default('8868'),
    /** The return extended: '990', '990-EZ', '990-PF' or '990-BL'. */
    returnForm: text('return_form').notNull(),
    /** The day Form 8868 was filed, 'YYYY-MM-DD'. */
    filedOn: date('filed_on', { mode: 'string' }).notNull(),
    /** The extended due date, 'YYYY-MM-DD'. */
    extendedDue: date('extended_due', { mode: 'string' }).notNull(),
    /** Who recorded it: 'account' (a user of the account) or 'staff'. */
    recordedAs: text('recorded_as').$type<'account' | 'staff'>().notNull(),
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('filing_extensions_account_period_unique').on(t.accountId, t.periodEnd),
    check('filing_extensions_period_end', sql`${t.periodEnd} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('filing_extensions_form', sql`${t.form} IN ('8868')`),
    check('filing_extensions_return_form', sql`${t.returnForm} IN ('990', '990-EZ', '990-PF', '990-BL')`),
    check('filing_extensions_recorded_as', sql`${t.recordedAs} IN ('account', 'staff')`),
    check('filing_extensions_dates', sql`${t.extendedDue} > ${t.filedOn}`),
  ],
);

/**
 * The IRC §6652(c)(1)(A) late-filing penalty figures for returns due in one calendar year
 * (docs/irs-standing.md "What being late costs"), as staff copy them from the IRS instructions
 * that print them: the amounts are adjusted for inflation each year (§6652(c)(7)), so the product
 * keeps them as data with their source, never as constants. Amounts in integer cents. Written and
 * deleted by staff, audited.
 */
export const latePenaltyFigures = pgTable(
  'late_penalty_figures',
  {
    /** The calendar year the return is due in. */
    dueYear: integer('due_year').primaryKey(),
    /** The penalty for each day late, for an organization at or under the gross receipts threshold. */
    dailyCents: integer('daily_cents').notNull(),
    /** Its maximum for one return (the lesser of this and 5% of gross receipts). */
    maximumCents: integer('maximum_cents').notNull(),
    /** The gross receipts over which the larger figures apply. */
    largeReceiptsOverCents: bigint('large_receipts_over_cents', { mode: 'number' }).notNull(),
    /** The penalty for each day late above that threshold. */
    largeDailyCents: integer('large_daily_cents').notNull(),
    /** Its maximum for one return. */
    largeMaximumCents: integer('large_maximum_cents').notNull(),
    /** Where staff read them: the IRS instructions' title, tax year and section. */
    source: text('source').notNull(),
    /** The IRS address of that text, when given. */
    sourceUrl: text('source_url').notNull().default(''),
    enteredBy: integer('entered_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('late_penalty_figures_year', sql`${t.dueYear} BETWEEN 2000 AND 2100`),
    check(
      'late_penalty_figures_amounts',
      sql`${t.dailyCents} > 0 AND ${t.maximumCents} > ${t.dailyCents} AND ${t.largeReceiptsOverCents} > 0
        AND ${t.largeDailyCents} > ${t.dailyCents} AND ${t.largeMaximumCents} > ${t.maximumCents}`,
    ),
    check('late_penalty_figures_source', sql`length(${t.source}) > 0`),
  ],
);

/**
 * The reinstatement checklist a revoked group works through (docs/irs-standing.md
 * "Reinstatement"): one row per item ticked, for the account's revocation of `revoked_on` (the
 * Automatic Revocation List's date), so a later revocation starts a new list. Unticking deletes the
 * row; both are audited.
 */
export const reinstatementChecklist = pgTable(
  'reinstatement_checklist',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The revocation date of the list entry the item is for, 'YYYY-MM-DD'. */
    revokedOn: date('revoked_on', { mode: 'string' }).notNull(),
    /** A key of REINSTATEMENT_ITEMS (src/shared/rules/reinstatement.ts). */
    itemKey: text('item_key').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
    checkedBy: integer('checked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.revokedOn, t.itemKey] }),
    check('reinstatement_checklist_item_key', sql`${t.itemKey} ~ '^s[4-7]_[a-z0-9_]+$'`),
  ],
);

/**
 * A revoked group's order of the reinstatement application (docs/irs-standing.md "Reinstatement"):
 * at most one per account and revocation (the primary key), so a double click or two servers bill
 * once; the invoice carries the "Reinstatement application" level's price.
 */
export const reinstatementOrders = pgTable(
  'reinstatement_orders',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The revocation date of the list entry the order is for, 'YYYY-MM-DD'. */
    revokedOn: date('revoked_on', { mode: 'string' }).notNull(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    orderedBy: integer('ordered_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.revokedOn] }),
    uniqueIndex('reinstatement_orders_invoice').on(t.invoiceId),
  ],
);

/**
 * Compliance deadline reminders written to the outbox (docs/requirements/product.md "Compliance calendar"), one per `key` =
 * reminderKey(accountId, deadline, tier) = `${accountId}:${kind}:${due}:${tier}`: the daily job
 * inserts with ON CONFLICT (key) DO NOTHING and enqueues the mail only when the row is new, so a
 * reminder is mailed once however often the job runs.
 */
export const complianceReminders = pgTable(
  'compliance_reminders',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** 'form_990', 'renewal' or 'state' (DeadlineKind). */
    kind: text('kind').notNull(),
    due: date('due', { mode: 'string' }).notNull(),
    /** Days before the due date: 30 or 7 (a renewal also 60); negative: days after a missed Form 990 due date (-1, -31, …). */
    tier: integer('tier').notNull(),
    mailId: integer('mail_id').references(() => mailOutbox.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('compliance_reminders_key_unique').on(t.key),
    index('compliance_reminders_account').on(t.accountId),
  ],
);

/**
 * Rate-limit counters shared by every server process on one PostgreSQL database (docs/requirements/platform.md §5.4,
 * RATE_LIMIT_STORE=database): one row per route and client address, counting hits until
 * `reset_at`, when the next hit starts a new window. Rows past `reset_at` are swept now and then.
 * Created UNLOGGED (no write-ahead log): a counter lost in a crash only restarts a window.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** `${method} ${route}|${client address}` (plus what the route adds). */
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_at').on(t.resetAt)],
);

/**
 * Per-day counters shared by every server process on one database (docs/security.md): the
 * acknowledgements mailed to one address (`inquiry-ack:<address>`) and the contest uploads of one
 * address or client IP (`contest-upload:email:<address>`, `contest-upload:ip:<ip>`), each counted
 * with one atomic upsert on (key, day). `day` is the UTC date; rows of past days are swept.
 */
export const dailyCounters = pgTable(
  'daily_counters',
  {
    key: text('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    count: integer('count').notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.day] }), index('daily_counters_day').on(t.day)],
);

/**
 * The product's abuse limits (docs/security.md "Limits on mail and payments"), shared by every
 * server process on one database whatever RATE_LIMIT_STORE says: one row per limit and subject
 * (`<rule>:<account id | client IP | e-mail address>`), counting hits until `reset_at`, when the
 * next hit starts a new window. Written through one atomic upsert (modules/limits/take-limit.ts),
 * so hits arriving at once on several servers are all counted. A logged table, unlike
 * rate_limits: a day's payment declines must survive a crash. Rows past `reset_at` are swept.
 */
export const limitCounters = pgTable(
  'limit_counters',
  {
    key: text('key').primaryKey(),
    /** Hits counted in the window, at most the limit. */
    hits: integer('hits').notNull(),
    /** Hits refused in the window (past the limit): the first one is audited. */
    refused: integer('refused').notNull().default(0),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('limit_counters_reset_at').on(t.resetAt)],
);

/**
 * Staff alerts about payments (docs/payments.md "Card testing"): 'possible_card_testing' when an
 * account or a client address passes a payment limit. One row per limit and subject per window
 * (`window_key`, unique), shown on Admin → Payments until a staff user marks it reviewed
 * (`reviewed_at`, `reviewed_by`), and counted in /metrics while open.
 */
export const paymentAlerts = pgTable(
  'payment_alerts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    /** The limit passed (a rule name of modules/limits/limit-rules.ts). */
    rule: text('rule').notNull(),
    /** The account that passed it, when the limit counts per account (or the one paying when per address). */
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The client address the attempts came from. */
    ip: text('ip').notNull().default(''),
    /** Attempts or declines counted when the limit was passed, and the limit. */
    count: integer('count').notNull(),
    maxCount: integer('max_count').notNull(),
    /** `<limit counter key>@<window end>`: one alert per limit, subject and window. */
    windowKey: text('window_key').notNull(),
    createdAt: createdAt(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('payment_alerts_window_key').on(t.windowKey),
    index('payment_alerts_open')
      .on(t.createdAt)
      .where(sql`${t.reviewedAt} IS NULL`),
    check('payment_alerts_kind', sql`${t.kind} IN ('possible_card_testing')`),
  ],
);

/**
 * One row per recorded run of a scheduled or queued job (docs/jobs.md "Records"): when it started
 * and finished, its result (`running` until it ends, then `ok`, `failed` or `timed_out`), the
 * error of a failed run, how many items it handled, what started it (`schedule`, `staff`,
 * `startup`), on which server, and the staff user who asked for it. A frequent poll that found
 * nothing to do writes no row (the runner keeps its last-checked time instead).
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    jobName: text('job_name').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    result: text('result').$type<'running' | 'ok' | 'failed' | 'timed_out'>().notNull().default('running'),
    error: text('error'),
    itemsDone: integer('items_done').notNull().default(0),
    summary: jsonb('summary').$type<Record<string, unknown>>(),
    attempt: integer('attempt').notNull().default(1),
    trigger: text('trigger').$type<'schedule' | 'staff' | 'startup'>().notNull(),
    server: text('server').notNull(),
    staffUserId: integer('staff_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('job_runs_job_started').on(t.jobName, t.startedAt),
    check('job_runs_result', sql`${t.result} IN ('running', 'ok', 'failed', 'timed_out')`),
    check('job_runs_trigger', sql`${t.trigger} IN ('schedule', 'staff', 'startup')`),
  ],
);

/**
 * One IRS data release loaded into the product (docs/irs-data.md): which data set, the file, the
 * date the IRS released it, its rows, what was loaded, and the file's sha256. Loading the same file
 * again finds its row and changes nothing; a release older than the newest one of its data set is
 * refused. Every standing shown cites the release its facts came from.
 */
export const irsReleases = pgTable(
  'irs_releases',
  {
    id: serial('id').primaryKey(),
    /** 'bmf', 'epostcard' (Form 990-N data), 'revocations' (Automatic Revocation List), 'pub78' (Publication 78 data). */
    dataset: text('dataset').$type<'bmf' | 'epostcard' | 'revocations' | 'pub78'>().notNull(),
    /** The file's name as given (no folders), e.g. 'eo_ok.csv'. */
    fileName: text('file_name').notNull(),
    /** The IRS's release date of the file, 'YYYY-MM-DD'. */
    releasedOn: date('released_on', { mode: 'string' }).notNull(),
    /**
     * How much of `releasedOn` the IRS published: 'day', or 'month' when only the month is known
     * (the day then reads as the 1st and is never shown; docs/irs-data.md "Releases").
     */
    releasedPrecision: text('released_precision').$type<'day' | 'month'>().notNull().default('day'),
    /** Data rows in the file. */
    rowCount: integer('row_count').notNull(),
    /** Rows loaded (the others skipped: another GEN, an EIN that is not 9 digits). */
    loadedCount: integer('loaded_count').notNull(),
    /** sha256 of the file's bytes, hex. */
    sha256: text('sha256').notNull(),
    loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The IRS address the refresh job downloaded the file from (docs/irs-data.md "Refresh"); null
     * for a file of IRS_DATA_DIR or `npm run import:irs`.
     */
    sourceUrl: text('source_url'),
    /**
     * The HTTP validators of the last answer from `sourceUrl` that gave this file: its ETag and
     * Last-Modified, sent back as If-None-Match / If-Modified-Since so an unchanged file is not
     * downloaded again.
     */
    sourceEtag: text('source_etag'),
    sourceLastModified: timestamp('source_last_modified', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('irs_releases_dataset_sha256').on(t.dataset, t.sha256),
    index('irs_releases_dataset_released').on(t.dataset, t.releasedOn),
    check('irs_releases_dataset', sql`${t.dataset} IN ('bmf', 'epostcard', 'revocations', 'pub78')`),
    check('irs_releases_released_precision', sql`${t.releasedPrecision} IN ('day', 'month')`),
  ],
);

/**
 * An organization of the IRS EO Business Master File, as the newest BMF release that lists it says
 * (docs/irs-data.md "IRS facts"): kept apart from the product's accounts, one row per EIN; an
 * account links to it by its EIN. Loading a BMF release writes here and creates no account. The
 * extract's codes are kept as text (EIN with leading zeros, RULING YYYYMM...). The in-care-of name
 * (ICO) is a person's and is never kept.
 */
export const irsOrganizations = pgTable(
  'irs_organizations',
  {
    ein: text('ein').primaryKey(),
    /** NAME: the primary name line (a subordinate's is usually its central organization's). */
    name: text('name').notNull(),
    /** SORT_NAME: the secondary name (a subordinate's own name). */
    sortName: text('sort_name').notNull().default(''),
    street: text('street').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    /** GROUP, or null for 0000 (none). */
    gen: text('gen'),
    subsection: text('subsection'),
    affiliation: text('affiliation'),
    classification: text('classification'),
    ruling: text('ruling'),
    deductibility: text('deductibility'),
    foundation: text('foundation'),
    activity: text('activity'),
    organization: text('organization'),
    irsStatus: text('irs_status'),
    taxPeriod: text('tax_period'),
    assetCode: text('asset_code'),
    incomeCode: text('income_code'),
    filingRequirement: text('filing_requirement'),
    pfFilingRequirement: text('pf_filing_requirement'),
    /** ACCT_PD, 1-12, or null. */
    fiscalYearEndMonth: smallint('fiscal_year_end_month'),
    /** ASSET_AMT, INCOME_AMT, REVENUE_AMT in whole dollars as the IRS publishes them. */
    assetAmount: bigint('asset_amount', { mode: 'number' }),
    incomeAmount: bigint('income_amount', { mode: 'number' }),
    revenueAmount: bigint('revenue_amount', { mode: 'number' }),
    nteeCode: text('ntee_code'),
    /** Lower-cased shown name, other name and city: what the name lookup matches. */
    searchText: text('search_text').notNull().default(''),
    releaseId: integer('release_id')
      .notNull()
      .references(() => irsReleases.id),
  },
  (t) => [
    index('irs_organizations_gen').on(t.gen),
    index('irs_organizations_search_trgm').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/**
 * A Form 990-N (e-Postcard) seen in the IRS's 990-N data: one per EIN and tax year (the calendar
 * year the tax period ENDS in, as the BMF TAX_PERIOD; the IRS file's own "tax year" is the year it
 * begins). No personal names are kept: the principal officer stays in the IRS file.
 */
export const irsEpostcards = pgTable(
  'irs_epostcards',
  {
    ein: text('ein').notNull(),
    taxYear: integer('tax_year').notNull(),
    /** 'YYYY-MM-DD'. */
    periodBegin: date('period_begin', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    /** The organization said it has terminated. */
    terminated: boolean('terminated').notNull(),
    releaseId: integer('release_id')
      .notNull()
      .references(() => irsReleases.id),
  },
  (t) => [primaryKey({ columns: [t.ein, t.taxYear] })],
);

/**
 * An entry of the IRS Automatic Revocation List (IRC §6033(j)): one per EIN and revocation date,
 * with the posting date and, once the IRS reinstated the organization, the reinstatement date.
 */
export const irsRevocations = pgTable(
  'irs_revocations',
  {
    ein: text('ein').notNull(),
    legalName: text('legal_name').notNull(),
    /** 'YYYY-MM-DD'. */
    revokedOn: date('revoked_on', { mode: 'string' }).notNull(),
    postedOn: date('posted_on', { mode: 'string' }),
    reinstatedOn: date('reinstated_on', { mode: 'string' }),
    releaseId: integer('release_id')
      .notNull()
      .references(() => irsReleases.id),
  },
  (t) => [primaryKey({ columns: [t.ein, t.revokedOn] })],
);

/**
 * An entry of the IRS Publication 78 data (organizations eligible to receive tax-deductible
 * contributions): one per EIN, replaced whole by each release (the IRS publishes the full list).
 */
export const irsPub78 = pgTable('irs_pub78', {
  ein: text('ein').primaryKey(),
  name: text('name').notNull(),
  city: text('city').notNull().default(''),
  state: text('state').notNull().default(''),
  country: text('country').notNull().default(''),
  /** The deductibility status codes as published (e.g. 'PC', 'PF', 'POF', 'LODGE'), comma-joined. */
  deductibilityCodes: text('deductibility_codes').notNull().default(''),
  releaseId: integer('release_id')
    .notNull()
    .references(() => irsReleases.id),
});

/**
 * One upload of an IRS file (or roster) into a GEN's roster through the uploader (docs/irs-data.md
 * "Roster import"): staged as a preview, then confirmed by staff (the changes are applied and
 * listed), discarded, or undone as one batch. `counts` holds what the preview showed: rows read,
 * rows of the GEN, rows of other GENs skipped, rejected, adds, changes, removals.
 */
export const rosterImports = pgTable(
  'roster_imports',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    gen: text('gen').notNull(),
    /** The uploaded files' names, ', '-joined (cleanFileName each). */
    fileName: uploadedFileName('file_name').notNull(),
    status: text('status').$type<'preview' | 'confirmed' | 'discarded' | 'undone'>().notNull().default('preview'),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    /**
     * What the preview was built from, shown with it (docs/irs-data.md "Roster import"): the states
     * the file covers (removals are proposed only there), the stored files, and the first rejected
     * and skipped rows with their reasons.
     */
    details: jsonb('details')
      .$type<{
        covered_states?: string[];
        file_ids?: number[];
        file_names?: string[];
        rejected?: { file_name: string; row: number; reason: string }[];
        skipped?: { file_name: string; row: number; reason: string }[];
        other_gens?: { gen: string; rows: number }[];
      }>()
      .notNull()
      .default({}),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    confirmedBy: integer('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    undoneBy: integer('undone_by').references(() => users.id, { onDelete: 'set null' }),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('roster_imports_group_created').on(t.groupId, t.createdAt),
    // The staff list's column sorts (docs/staff-lists.md), ties by id.
    index('roster_imports_created_id').on(t.createdAt, t.id),
    index('roster_imports_gen_id').on(t.gen, t.id),
    index('roster_imports_file_id').on(t.fileName, t.id),
    index('roster_imports_status_id').on(t.status, t.id),
    check('roster_imports_status', sql`${t.status} IN ('preview', 'confirmed', 'discarded', 'undone')`),
  ],
);

/**
 * One change of a roster import: an add (a new subordinate), a change (an account's IRS columns,
 * `before` and `after`), or a removal (a subordinate of the GEN not in the file). `account_id` is
 * set for changes and removals, and for adds once confirmed, so that undo can reverse each.
 */
export const rosterImportRows = pgTable(
  'roster_import_rows',
  {
    id: serial('id').primaryKey(),
    importId: integer('import_id')
      .notNull()
      .references(() => rosterImports.id, { onDelete: 'cascade' }),
    action: text('action').$type<'add' | 'change' | 'remove'>().notNull(),
    ein: text('ein').notNull(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('roster_import_rows_import').on(t.importId, t.action, t.id),
    check('roster_import_rows_action', sql`${t.action} IN ('add', 'change', 'remove')`),
  ],
);

/**
 * An item of the staff work queue (docs/work-queue.md), found after an IRS data refresh: one per
 * `key` (kind, account or EIN, and what makes it new, e.g. the due date or release), so a refresh
 * that finds the same thing again adds nothing. Open until staff resolve it; assignment, notes and
 * resolution are audited.
 */
export const workItems = pgTable(
  'work_items',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    kind: text('kind')
      .$type<
        | 'left_roster'
        | 'past_due'
        | 'fiscal_year_mismatch'
        | 'name_changed'
        | 'address_changed'
        | 'paying_not_on_roster'
        | 'roster_no_membership'
        | 'revoked'
        | 'reinstated'
        | 'determination_letter'
        | 'link_request'
        | 'reinstatement_order'
      >()
      .notNull(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    ein: text('ein'),
    /** What the item is about, shown to staff: names, dates, codes (never personal names). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    releaseId: integer('release_id').references(() => irsReleases.id),
    status: text('status').$type<'open' | 'resolved'>().notNull().default('open'),
    assignedTo: integer('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolution: text('resolution').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('work_items_key_unique').on(t.key),
    index('work_items_status_created').on(t.status, t.createdAt, t.id),
    index('work_items_kind_status').on(t.kind, t.status, t.createdAt, t.id),
    index('work_items_account').on(t.accountId),
    check(
      'work_items_kind',
      sql`${t.kind} IN ('left_roster', 'past_due', 'fiscal_year_mismatch', 'name_changed', 'address_changed', 'paying_not_on_roster', 'roster_no_membership', 'revoked', 'reinstated', 'determination_letter', 'link_request', 'reinstatement_order')`,
    ),
    check('work_items_status', sql`${t.status} IN ('open', 'resolved')`),
  ],
);

/**
 * An IRS determination letter a group waiting for it uploaded from its home, and staff's review of
 * it (docs/wizard.md "A group waiting for its IRS letter", docs/work-queue.md "Determination
 * letters"): `pending` until staff accept it (with the date on the letter) or send it back (with
 * the reason). At most one pending letter per account, enforced by the partial unique index, so
 * two uploads at the same moment cannot both wait for review.
 */
export const determinationLetters = pgTable(
  'determination_letters',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    fileId: integer('file_id').references(() => files.id, { onDelete: 'set null' }),
    status: text('status').$type<'pending' | 'accepted' | 'returned'>().notNull().default('pending'),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** The date printed on the letter, entered by staff when they accept it. */
    letterDate: date('letter_date', { mode: 'string' }),
    /** Why staff sent it back, shown to the group. */
    returnReason: text('return_reason').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('determination_letters_one_pending')
      .on(t.accountId)
      .where(sql`${t.status} = 'pending'`),
    index('determination_letters_account').on(t.accountId, t.createdAt),
    check('determination_letters_status', sql`${t.status} IN ('pending', 'accepted', 'returned')`),
  ],
);

/** A note a staff user wrote on a work item. */
export const workItemNotes = pgTable(
  'work_item_notes',
  {
    id: serial('id').primaryKey(),
    itemId: integer('item_id')
      .notNull()
      .references(() => workItems.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('work_item_notes_item').on(t.itemId, t.createdAt)],
);

/**
 * A group's yearly supervision report and Form 990-N preparation (docs/supervision.md): once per
 * account and tax year (the calendar year the fiscal year ENDS in, as filings.tax_year). `answers`
 * holds the 990-N's 8 items and the supervision information (officers, activities, uniform purpose
 * confirmation); receipts and expenses are integer cents. Whether the return was filed is read
 * from irs_epostcards each time, never stored.
 */
export const supervisionReports = pgTable(
  'supervision_reports',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    taxYear: integer('tax_year').notNull(),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull().default({}),
    grossReceiptsCents: bigint('gross_receipts_cents', { mode: 'number' }).notNull(),
    expensesCents: bigint('expenses_cents', { mode: 'number' }).notNull(),
    submittedBy: integer('submitted_by').references(() => users.id, { onDelete: 'set null' }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('supervision_reports_account_year').on(t.accountId, t.taxYear),
    check('supervision_reports_cents', sql`${t.grossReceiptsCents} >= 0 AND ${t.expensesCents} >= 0`),
  ],
);

/**
 * The yearly compliance education notice of a GEN (Rev. Proc. 2026-8; docs/supervision.md): sent
 * once per group and year to every member group's users, with how many mails were queued.
 */
export const complianceEducation = pgTable(
  'compliance_education',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    sentBy: integer('sent_by').references(() => users.id, { onDelete: 'set null' }),
    recipients: integer('recipients').notNull(),
  },
  (t) => [uniqueIndex('compliance_education_group_year').on(t.groupId, t.year)],
);

/**
 * The annual GEN update of a central organization (Rev. Proc. 2026-8; docs/irs-gen-duties.md): for
 * the accounting period ending `period_end`, the additions, deletions and changes (`items`, frozen
 * when submitted), and the day it was submitted to the IRS.
 */
export const genUpdates = pgTable(
  'gen_updates',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    /** 'YYYY-MM-DD': the last day of the central organization's accounting period. */
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    status: text('status').$type<'draft' | 'submitted'>().notNull().default('draft'),
    items: jsonb('items').$type<Record<string, unknown>[]>().notNull().default([]),
    /** 'YYYY-MM-DD', set when submitted. */
    submittedOn: date('submitted_on', { mode: 'string' }),
    submittedBy: integer('submitted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('gen_updates_group_period').on(t.groupId, t.periodEnd),
    check('gen_updates_status', sql`${t.status} IN ('draft', 'submitted')`),
  ],
);

/**
 * A reminder to staff about a GEN's annual update window (docs/irs-gen-duties.md "Reminders"): one
 * per group, accounting period end and tier ('opened': the window is open; 'closing': 7 days or
 * fewer before it closes). The daily job inserts with ON CONFLICT DO NOTHING and mails only for a
 * new row, so each reminder goes out once however often the job runs.
 */
export const genUpdateReminders = pgTable(
  'gen_update_reminders',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    tier: text('tier').$type<'opened' | 'closing'>().notNull(),
    /** Staff mails written to the outbox for it. */
    mails: integer('mails').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('gen_update_reminders_group_period_tier').on(t.groupId, t.periodEnd, t.tier),
    check('gen_update_reminders_tier', sql`${t.tier} IN ('opened', 'closing')`),
  ],
);

/**
 * What a BMF release changed in an organization it had loaded before (docs/work-queue.md "Name
 * and address changes"): its name (shown and legal) or its mailing address, before and after.
 * Written by importBmf in the load's transaction, for subordinates of a GEN and accounts with
 * users only; the staff work queue's name and address items are found here.
 */
export const irsBmfChanges = pgTable(
  'irs_bmf_changes',
  {
    id: serial('id').primaryKey(),
    releaseId: integer('release_id')
      .notNull()
      .references(() => irsReleases.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    field: text('field').$type<'name' | 'address'>().notNull(),
    before: jsonb('before').$type<Record<string, string>>().notNull(),
    after: jsonb('after').$type<Record<string, string>>().notNull(),
  },
  (t) => [
    index('irs_bmf_changes_release').on(t.releaseId),
    check('irs_bmf_changes_field', sql`${t.field} IN ('name', 'address')`),
  ],
);

/**
 * Checks of a list of EINs against the IRS data (docs/irs-standing.md "Checking a list of EINs"):
 * the cleaned EINs uploaded, the progress (`done` of `total`), kept in the database so any server
 * shows it, and the result CSV once finished.
 */
export const irsBulkChecks = pgTable(
  'irs_bulk_checks',
  {
    id: serial('id').primaryKey(),
    /** The uploaded file's name (cleanFileName). */
    fileName: uploadedFileName('file_name').notNull(),
    status: text('status').$type<'running' | 'done' | 'failed'>().notNull().default('running'),
    /** The distinct EINs to check, 9 digits each, in the file's order; emptied once the result holds them. */
    eins: jsonb('eins').$type<string[]>().notNull(),
    total: integer('total').notNull(),
    done: integer('done').notNull().default(0),
    /** Organizations per standing state, and 'not_found', of the first `done` EINs. */
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    /**
     * The result CSV (docs/irs-standing.md "Checking a list of EINs"): the header and the lines of the
     * first `done` EINs, grown batch by batch; null until the first batch is written.
     */
    resultCsv: text('result_csv'),
    error: text('error'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * The run working on a 'running' check (a random id per run) and until when its claim holds
     * (docs/irs-standing.md "Checking a list of EINs"): the run pushes it on after each batch; once it
     * has passed, any server's bulk-check job takes the check over from `done`. Both null when no
     * run holds the check.
     */
    leasedBy: text('leased_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /**
     * Times in a row a run's claim passed (its server died) and another run took the check over
     * without a batch written since: a check that brings its server down is given up
     * (BULK_CHECK_MAX_TAKEOVERS). Back to 0 with each batch written.
     */
    stalledTakeovers: integer('stalled_takeovers').notNull().default(0),
    /**
     * The central organization whose users uploaded the list (docs/roles.md "Central organizations"):
     * only its users and staff see the check; null for a check uploaded by staff.
     */
    groupId: integer('group_id').references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('irs_bulk_checks_created_at_idx').on(t.createdAt),
    // A group's own checks, newest first.
    index('irs_bulk_checks_group_idx').on(t.groupId, t.createdAt),
    // The job's look for checks to take over reads only the few still running.
    index('irs_bulk_checks_running_lease_idx')
      .on(t.leaseUntil)
      .where(sql`${t.status} = 'running'`),
    // Retention takes finished checks in the order they finished.
    index('irs_bulk_checks_finished_at_idx').on(t.finishedAt),
  ],
);
