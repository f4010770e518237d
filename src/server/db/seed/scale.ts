// Longer than 400 lines: one statement per table of the synthetic data set at scale, in the order the foreign
// keys need (docs/benchmarks.md).
import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { INQUIRY_KINDS } from '../../../shared/lists/subjects.ts';
import { must } from '../../../shared/must.ts';
import { hashPassword } from '../../passwords.ts';
import { rowsOf } from '../rows-of.ts';
import { seedReference } from './seed.ts';
import type { Database, Db } from '../client.ts';

/**
 * Synthetic but realistic data at scale, for the staff lists' benchmark (docs/benchmarks.md
 * "Staff lists at scale"): customer accounts with their users, invoices, payments, audit rows,
 * outbox mail and inquiries, written server-side with INSERT … SELECT … FROM generate_series in
 * bounded batches (one transaction per batch), so a million rows never cross the wire.
 */

/** Rows per INSERT statement (and per transaction). */
const SCALE_BATCH_ROWS = 50_000;
/** More accounts than this mean the database already holds real or seeded data. */
const SCALE_REFUSE_ABOVE_ACCOUNTS = 1_000;

export interface ScaleOptions {
  /** Customer accounts to add (everything else scales with it). */
  accounts: number;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Run even when the database already has more than SCALE_REFUSE_ABOVE_ACCOUNTS accounts. */
  force?: boolean;
}

/** Rows written per table, and the wall time in seconds. */
export interface ScaleReport {
  accounts: number;
  groups: number;
  users: number;
  invoices: number;
  invoiceLines: number;
  payments: number;
  paymentInvoices: number;
  paymentRefunds: number;
  auditRows: number;
  outbox: number;
  inquiries: number;
  seconds: number;
}

/** Thrown when the database already holds data and `force` was not given. */
export class ScaleRefusedError extends Error {}

// Word lists the names are made of: the kinds of groups the product serves (booster clubs, PTOs,
// chapters, leagues) in the towns they are in.
const PLACES: [string, string][] = [
  ['Springfield', 'IL'],
  ['Riverside', 'CA'],
  ['Franklin', 'TN'],
  ['Greenville', 'SC'],
  ['Bristol', 'CT'],
  ['Clinton', 'IA'],
  ['Fairview', 'OR'],
  ['Salem', 'MA'],
  ['Madison', 'WI'],
  ['Georgetown', 'TX'],
  ['Arlington', 'VA'],
  ['Ashland', 'OH'],
  ['Burlington', 'VT'],
  ['Dover', 'DE'],
  ['Jackson', 'MS'],
  ['Milton', 'GA'],
  ['Newport', 'RI'],
  ['Oxford', 'MS'],
  ['Auburn', 'AL'],
  ['Dayton', 'OH'],
  ['Lexington', 'KY'],
  ['Marion', 'IN'],
  ['Plymouth', 'MN'],
  ['Hudson', 'NY'],
  ['Kingston', 'NY'],
  ['Lebanon', 'PA'],
  ['Monroe', 'LA'],
  ['Troy', 'MI'],
  ['Winchester', 'VA'],
  ['Columbia', 'MO'],
  ['Boulder', 'CO'],
  ['Tempe', 'AZ'],
  ['Boise', 'ID'],
  ['Billings', 'MT'],
  ['Fargo', 'ND'],
  ['Sioux Falls', 'SD'],
  ['Lincoln', 'NE'],
  ['Topeka', 'KS'],
  ['Tulsa', 'OK'],
  ['Santa Fe', 'NM'],
  ['Reno', 'NV'],
  ['Provo', 'UT'],
  ['Olympia', 'WA'],
  ['Anchorage', 'AK'],
  ['Hilo', 'HI'],
  ['Concord', 'NH'],
  ['Augusta', 'ME'],
  ['Annapolis', 'MD'],
  ['Charleston', 'WV'],
  ['Raleigh', 'NC'],
  ['Tallahassee', 'FL'],
  ['Little Rock', 'AR'],
  ['Cheyenne', 'WY'],
  ['Trenton', 'NJ'],
];
const MASCOTS = [
  'Eagles',
  'Tigers',
  'Bulldogs',
  'Wildcats',
  'Panthers',
  'Lions',
  'Bears',
  'Hawks',
  'Falcons',
  'Mustangs',
  'Knights',
  'Warriors',
  'Cougars',
  'Rams',
  'Trojans',
  'Spartans',
  'Pirates',
  'Vikings',
  'Titans',
  'Huskies',
  'Wolverines',
  'Cardinals',
  'Raiders',
  'Rockets',
  'Patriots',
  'Hornets',
  'Comets',
  'Chargers',
  'Stallions',
  'Jaguars',
];
const KINDS = [
  'Booster Club',
  'Band Boosters',
  'PTO',
  'PTA',
  'Athletic Association',
  'Football Boosters',
  'Wrestling Club',
  'Soccer League',
  'Swim Team Parents',
  'Robotics Club',
  'Choir Boosters',
  'Theatre Guild',
  'Alumni Association',
  'Youth Baseball',
  'Hockey Association',
  'Education Foundation',
];
const FIRST = [
  'Mary',
  'James',
  'Patricia',
  'John',
  'Jennifer',
  'Robert',
  'Linda',
  'Michael',
  'Elizabeth',
  'David',
  'Barbara',
  'William',
  'Susan',
  'Richard',
  'Jessica',
  'Joseph',
  'Sarah',
  'Thomas',
  'Karen',
  'Carlos',
  'Maria',
  'Daniel',
  'Nancy',
  'Anthony',
  'Lisa',
  'Mark',
  'Angela',
  'Kevin',
  'Ashley',
  'Brian',
  'Emily',
  'Jose',
  'Michelle',
  'Wei',
  'Priya',
  'Aisha',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'Nguyen',
  'Patel',
];
const STREETS = [
  'Main St',
  'Oak Ave',
  'Maple Dr',
  'Park Rd',
  'Cedar Ln',
  'Elm St',
  'Washington Ave',
  'Lake Dr',
  'Hill Rd',
  'School St',
];
/** Audit actions the product writes, weighted by how often they happen (sign-ins dominate). */
const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login',
  'auth.login',
  'auth.login',
  'auth.login',
  'account.data_saved',
  'account.data_saved',
  'application.started',
  'application.completed',
  'account_users.created',
  'account_users.updated',
  'discount.reserved',
  'payment.submitted_on_behalf',
  'payment.approved',
  'payment.refunded',
  'compliance.filing_recorded',
  'account.settings_updated',
  'auth.password_reset',
  'account.profile_image.set',
  'uploads.stored',
];
/** Outbox mail kinds with their subjects. */
const MAILS: [string, string][] = [
  ['payment.receipt', 'Your payment receipt'],
  ['compliance.reminder', 'Your Form 990-N is due soon'],
  ['renewal.reminder', 'Your annual renewal is coming up'],
  ['inquiry.ack', 'We received your message'],
  ['application.started', 'Continue your application'],
  ['password.reset', 'Reset your password'],
  ['account_users.email_changed', 'Your e-mail address was changed'],
  ['payment.declined', 'Your payment was declined'],
];

/** A SQL text[] literal of `values`, indexed 1-based in SQL. */
const textArray = (values: readonly string[]) =>
  sql`ARRAY[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
/** `arr[1 + (expr mod len)]` — a pick from a word list by a (non-negative) number. */
const pick = (values: readonly string[], expr: SQL) =>
  sql`(${textArray(values)})[(1 + ((${expr}) % ${lit(values.length)}))::int]`;
/** An integer of our own as a SQL literal (a bare parameter in a CASE would be typed text). */
const lit = (n: number) => sql.raw(String(Math.trunc(n)));
/** A well-mixed non-negative number from an integer expression (Knuth's multiplicative hash, 31 bits). */
const mix = (expr: SQL, salt = 0) => sql`((((${expr})::bigint + ${lit(salt)}) * 2654435761) % 2147483647)`;

/**
 * Reserves `n` consecutive ids of `table`'s id sequence and returns the first, so rows of related
 * tables can name each other by arithmetic (account n's first user is users0 + 3n).
 * Assumes no other writer takes ids of the same table meanwhile (a seed runs on a quiet database).
 */
async function reserveIds(db: Db, table: string, n: number): Promise<number> {
  const seq = `pg_get_serial_sequence('${table}', 'id')`;
  const rows = await rowsOf<{ first: string | number }>(
    db,
    sql.raw(`SELECT setval(${seq}, nextval(${seq}) + ${n} - 1) - ${n} + 1 AS first`),
  );
  return Number(must(rows[0], `ids reserved in ${table}`).first);
}

/**
 * Runs `insert(from, to)` for [0, total) in batches of `batch`, each in its own transaction.
 * @returns rows written (the statements' rowCount summed)
 */
async function inBatches(
  db: Db,
  label: string,
  total: number,
  batch: number,
  log: (s: string) => void,
  insert: (from: number, to: number) => SQL,
): Promise<number> {
  let written = 0;
  const started = performance.now();
  for (let from = 0; from < total; from += batch) {
    const to = Math.min(total, from + batch);
    await db.transaction(async (tx) => {
      const r = (await tx.execute(insert(from, to))) as unknown as { rowCount?: number | null; affectedRows?: number };
      written += Number(r.rowCount ?? r.affectedRows ?? 0);
    });
    if (to < total) log(`  ${label}: ${to.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
  }
  log(`${label}: ${written.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return written;
}

/**
 * `npm run seed:scale` (docs/benchmarks.md "Staff lists at scale"): adds `accounts` customer
 * accounts (source 'app', not listed in the public search) and, in proportion, 2.4 users per
 * account, 10 invoices per account (one order line each, amounts from the levels' prices in
 * integer cents), about 9.5 payments per account (one per invoice, 5 % of invoices never paid) in
 * their final states — paid 86 %, declined 4 %, failed 2 %, refunded 1 %, voided 1 %, held and
 * pending 0.5 % each, holding their invoice through invoices.held_by_payment_id — 20 audit rows,
 * 4 outbox mails (sent 90 %, pending 7 %, failed 3 %) and 0.2 inquiries per account. Payments are
 * inserted in their final states (the status triggers check updates only; nothing is disabled).
 * Users get one shared unusable password hash (no one can sign in as them).
 * Writes: groups, accounts, users, payments, invoices, invoice_lines, payment_invoices,
 * payment_refunds, audit_log, mail_outbox, inquiries (and the reference data if missing). The
 * database must be migrated first.
 * @throws ScaleRefusedError when the database has more than SCALE_REFUSE_ABOVE_ACCOUNTS accounts and `force` is not set
 */
export async function seedScale(database: Database, opts: ScaleOptions): Promise<ScaleReport> {
  const db = database.db;
  const log = opts.log ?? (() => {});
  const N = Math.floor(opts.accounts);
  if (!(N >= 1 && N <= 2_000_000)) throw new RangeError('accounts must be between 1 and 2,000,000');
  const started = performance.now();
  const [{ n: existing }] = await rowsOf<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM accounts`);
  if (existing > SCALE_REFUSE_ABOVE_ACCOUNTS && !opts.force) {
    throw new ScaleRefusedError(
      `The database already has ${existing.toLocaleString('en-US')} accounts (more than ${SCALE_REFUSE_ABOVE_ACCOUNTS.toLocaleString('en-US')}): seed:scale adds synthetic data only to an empty or small database. Pass --force to add more anyway.`,
    );
  }
  await seedReference(db);
  const levelRows = await rowsOf<{ id: number; slug: string; price_cents: number; price_discount_cents: number }>(
    db,
    sql`SELECT id, slug, price_cents, price_discount_cents FROM levels WHERE slug IN ('start-up', 'maintain', 'full-service', 'greek-chapter') ORDER BY sort_order, id`,
  );
  if (levelRows.length < 4)
    throw new Error('The reference levels are missing: run the migrations and the first start first.');
  const bySlug = new Map(levelRows.map((l) => [l.slug, l]));
  const [startUp, maintain, full, greek] = ['start-up', 'maintain', 'full-service', 'greek-chapter'].map((s) =>
    must(bySlug.get(s), `the ${s} level`),
  );
  // Level of account number n (0-based): 35 % start-up, 40 % maintain, 10 % full service, 15 % Greek chapters.
  const levelOf = (n: SQL) =>
    sql`(CASE WHEN ${mix(n, 11)} % 100 < 35 THEN ${lit(startUp.id)} WHEN ${mix(n, 11)} % 100 < 75 THEN ${lit(maintain.id)} WHEN ${mix(n, 11)} % 100 < 85 THEN ${lit(full.id)} ELSE ${lit(greek.id)} END)`;
  const priceOf = (n: SQL, col: 'price_cents' | 'price_discount_cents') =>
    sql`(CASE WHEN ${mix(n, 11)} % 100 < 35 THEN ${lit(startUp[col])} WHEN ${mix(n, 11)} % 100 < 75 THEN ${lit(maintain[col])} WHEN ${mix(n, 11)} % 100 < 85 THEN ${lit(full[col])} ELSE ${lit(greek[col])} END)`;

  const batch = SCALE_BATCH_ROWS;
  const tag = randomBytes(3).toString('hex');
  const nUsersSlots = 3 * N;
  const nInvoices = 10 * N;
  const nGroups = Math.max(2, Math.floor(N / 1000));

  // Ids, reserved up front so rows refer to each other by arithmetic.
  const g0 = await reserveIds(db, 'groups', nGroups);
  const a0 = await reserveIds(db, 'accounts', N);
  const u0 = await reserveIds(db, 'users', nUsersSlots);
  const i0 = await reserveIds(db, 'invoices', nInvoices);
  const p0 = await reserveIds(db, 'payments', nInvoices);
  log(
    `Seeding ${N.toLocaleString('en-US')} accounts (batches of ${batch.toLocaleString('en-US')} rows; ids from accounts ${a0}, users ${u0}, invoices ${i0}, payments ${p0})`,
  );

  const groups = await inBatches(
    db,
    'groups',
    nGroups,
    batch,
    log,
    (from, to) => sql`
    INSERT INTO "groups" (id, label, gen, is_billed_as_group, created_at)
    SELECT ${lit(g0)} + g, ${pick(
      PLACES.map((p) => p[0]),
      sql`g`,
    )} || ' Area ' || ${pick(KINDS, mix(sql`g`, 3))} || 's ' || (g + 1), NULL, g % 4 = 0,
      now() - make_interval(days => 400 + (g % 900))
    FROM generate_series(${from}::int, ${to - 1}::int) g`,
  );

  const cities = PLACES.map((p) => p[0]);
  const states = PLACES.map((p) => p[1]);
  // Account n: name "<Town> <Mascot> <Kind>", its town and state, an EIN with the unassigned prefix 07 (never a real one).
  const accountCount = await inBatches(
    db,
    'accounts',
    N,
    batch,
    log,
    (from, to) => sql`
    INSERT INTO accounts (id, name, legal_name, ein, email, group_id, level_id, street, city, state, zip, fiscal_year_end_month,
      is_listed, search_text, source, renewal_due_at, bonus_balance_cents, primary_user_id, is_suspended_from_basic_renewal, data, created_at, updated_at)
    SELECT id, name, name || ', Inc.', '07' || lpad(id::text, 7, '0'),
      lower(regexp_replace(name, '[^A-Za-z]+', '', 'g')) || '.' || id || '@example.org',
      CASE WHEN ${mix(sql`n`, 5)} % 5 = 0 THEN ${lit(g0)} + (n % ${lit(nGroups)}) END,
      ${levelOf(sql`n`)}, (100 + n % 9800) || ' ' || ${pick(STREETS, sql`n`)}, city, state, lpad(((n * 37) % 99999)::text, 5, '0'),
      CASE WHEN n % 3 = 0 THEN 6 ELSE 12 END, false, lower(name || ' ' || city), 'app',
      now() - interval '180 days' + make_interval(days => (${mix(sql`n`, 7)} % 545)::int),
      CASE WHEN n % 10 = 0 THEN 2500 ELSE 0 END, ${lit(u0)} + 3 * n, ${mix(sql`n`, 9)} % 50 = 0, '{}'::jsonb,
      now() - make_interval(days => 30 + (n % 1500)), now() - make_interval(days => n % 30)
    FROM (
      SELECT n, ${lit(a0)} + n AS id, ${pick(cities, mix(sql`n`, 1))} AS city, ${pick(states, mix(sql`n`, 1))} AS state,
        ${pick(cities, mix(sql`n`, 1))} || ' ' || ${pick(MASCOTS, mix(sql`n`, 2))} || ' ' || ${pick(KINDS, mix(sql`n`, 4))} AS name
      FROM generate_series(${from}::int, ${to - 1}::int) n
    ) s`,
  );

  // Users: 2 per account plus a third for 2 accounts in 5 (2.4 per account); slot 0 is the primary user.
  const passwordHash = await hashPassword(randomBytes(24).toString('base64'));
  const userCount = await inBatches(
    db,
    'users',
    N,
    Math.floor(batch / 3),
    log,
    (from, to) => sql`
    INSERT INTO users (id, email, first_name, last_name, password_hash, phone, account_id, is_primary, created_at, updated_at)
    SELECT ${lit(u0)} + 3 * n + k, lower(f || '.' || l) || '.' || (${lit(u0)} + 3 * n + k) || '.' || ${sql.raw(`'${tag}'`)} || '@example.net', f, l, ${passwordHash},
      '(' || (200 + n % 700) || ') 555-' || lpad(((n * 7 + k) % 10000)::text, 4, '0'), ${lit(a0)} + n, k = 0,
      now() - make_interval(days => 30 + (n % 1500)) + make_interval(days => k * 40), now() - make_interval(days => n % 30)
    FROM generate_series(${from}::int, ${to - 1}::int) n
    CROSS JOIN generate_series(0, 2) k
    CROSS JOIN LATERAL (SELECT ${pick(FIRST, mix(sql`3 * n + k`, 13))} AS f, ${pick(LAST, mix(sql`3 * n + k`, 17))} AS l) names
    WHERE k < 2 OR n % 5 < 2`,
  );

  // Invoice j of account n has id i0 + 10n + j; its payment (if any) p0 + 10n + j. Outcome by a hash of the invoice number:
  // < 860 paid, < 900 declined, < 920 failed, < 930 refunded, < 940 voided, < 945 held, < 950 pending, else never paid.
  const outcome = (k: SQL) => sql`(${mix(k, 23)} % 1000)`;
  const status = (
    k: SQL,
  ) => sql`(CASE WHEN ${outcome(k)} < 860 THEN 'paid' WHEN ${outcome(k)} < 900 THEN 'declined' WHEN ${outcome(k)} < 920 THEN 'failed'
    WHEN ${outcome(k)} < 930 THEN 'refunded' WHEN ${outcome(k)} < 940 THEN 'voided' WHEN ${outcome(k)} < 945 THEN 'held' WHEN ${outcome(k)} < 950 THEN 'pending' END)`;
  // The first invoice bills the level (new account), later ones the renewal at the discounted price, every fifth a service fee.
  const value = (n: SQL, j: SQL) =>
    sql`(CASE WHEN ${j} = 0 THEN ${priceOf(n, 'price_cents')} WHEN ${j} % 5 = 4 THEN 5000 ELSE ${priceOf(n, 'price_discount_cents')} END)`;
  const lineType = (j: SQL) =>
    sql`(CASE WHEN ${j} = 0 THEN 'new_account' WHEN ${j} % 5 = 4 THEN 'service_fee' ELSE 'renewal' END)`;
  const lineLabel = (j: SQL) =>
    sql`(CASE WHEN ${j} = 0 THEN 'New account' WHEN ${j} % 5 = 4 THEN 'Service fee' ELSE 'Annual renewal' END)`;
  const documentAt = (n: SQL, j: SQL) =>
    sql`(now() - make_interval(days => (9 - ${j}) * 150 + (${n} % 120), hours => (${n} % 24)))`;
  const series = (from: number, to: number) =>
    sql`(SELECT k, k / 10 AS n, k % 10 AS j FROM generate_series(${from}::int, ${to - 1}::int) k) s`;

  const paymentCount = await inBatches(
    db,
    'payments',
    nInvoices,
    batch,
    log,
    (from, to) => sql`
    INSERT INTO payments (id, account_id, user_id, method, status, amount_cents, discount_cents, invoice_ids, idempotency_key,
      gateway_trans_id, auth_code, account_last4, account_type, gateway_code, gateway_message, refunded_cents, created_at, settled_at)
    SELECT ${lit(p0)} + k, ${lit(a0)} + n, ${lit(u0)} + 3 * n, method, st, ${value(sql`n`, sql`j`)}, 0, ARRAY[${lit(i0)} + k], 'scale-' || ${sql.raw(`'${tag}'`)} || '-' || k,
      CASE WHEN st IN ('paid', 'refunded', 'voided', 'held', 'declined') AND method <> 'paypal' THEN (60000000000 + ${lit(p0)} + k)::text
           WHEN st IN ('paid', 'refunded', 'voided') THEN 'PAYID-' || upper(to_hex(${lit(p0)} + k)) END,
      CASE WHEN st IN ('paid', 'refunded', 'voided', 'held') AND method = 'card' THEN upper(to_hex(100000 + (k % 900000))) END,
      CASE WHEN method = 'card' THEN 'XXXX' || (ARRAY['1111', '4242', '0002', '5100', '8888'])[1 + k % 5] WHEN method = 'bank' THEN 'XXXX' || lpad((k % 10000)::text, 4, '0') END,
      CASE method WHEN 'card' THEN (ARRAY['Visa', 'MasterCard', 'AmericanExpress', 'Discover'])[1 + k % 4] WHEN 'bank' THEN 'eCheck' END,
      CASE st WHEN 'declined' THEN '2' WHEN 'failed' THEN 'E00027' WHEN 'pending' THEN NULL ELSE '1' END,
      CASE st WHEN 'declined' THEN 'This transaction has been declined.' WHEN 'failed' THEN 'The transaction was unsuccessful.'
        WHEN 'pending' THEN NULL WHEN 'held' THEN 'This transaction is being held for review.' ELSE 'This transaction has been approved.' END,
      CASE WHEN st = 'refunded' THEN ${value(sql`n`, sql`j`)} ELSE 0 END,
      ${documentAt(sql`n`, sql`j`)} + make_interval(hours => 1 + j * 3),
      CASE WHEN st IN ('paid', 'refunded', 'voided', 'declined', 'failed') THEN ${documentAt(sql`n`, sql`j`)} + make_interval(hours => 1 + j * 3, secs => 2) END
    FROM (SELECT k, n, j, ${status(sql`k`)} AS st,
      CASE WHEN ${mix(sql`k`, 29)} % 10 < 7 THEN 'card' WHEN ${mix(sql`k`, 29)} % 10 < 9 THEN 'bank' ELSE 'paypal' END AS method
      FROM ${series(from, to)}) p
    WHERE st IS NOT NULL`,
  );

  // Invoices: paid and refunded ones have nothing left; held and pending ones are held by their payment; the rest are open.
  const invoiceCount = await inBatches(
    db,
    'invoices',
    nInvoices,
    batch,
    log,
    (from, to) => sql`
    INSERT INTO invoices (id, account_id, number, document_at, public_notes, value_cents, balance_cents, held_by_payment_id, created_at)
    SELECT ${lit(i0)} + k, ${lit(a0)} + n, 'GS-' || lpad((${lit(i0)} + k)::text, 6, '0'), ${documentAt(sql`n`, sql`j`)}, '',
      ${value(sql`n`, sql`j`)}, CASE WHEN st IN ('paid', 'refunded') THEN 0 ELSE ${value(sql`n`, sql`j`)} END,
      CASE WHEN st IN ('held', 'pending') THEN ${lit(p0)} + k END, ${documentAt(sql`n`, sql`j`)}
    FROM (SELECT k, n, j, ${status(sql`k`)} AS st FROM ${series(from, to)}) i`,
  );

  const lineCount = await inBatches(
    db,
    'invoice lines',
    nInvoices,
    batch,
    log,
    (from, to) => sql`
    INSERT INTO invoice_lines (invoice_id, label, type, value_cents)
    SELECT ${lit(i0)} + k, ${lineLabel(sql`j`)}, ${lineType(sql`j`)}, ${value(sql`n`, sql`j`)} FROM ${series(from, to)}`,
  );

  const piCount = await inBatches(
    db,
    'payment invoices',
    nInvoices,
    batch,
    log,
    (from, to) => sql`
    INSERT INTO payment_invoices (payment_id, invoice_id, amount_cents, created_at)
    SELECT ${lit(p0)} + k, ${lit(i0)} + k, ${value(sql`n`, sql`j`)}, ${documentAt(sql`n`, sql`j`)} + make_interval(hours => 1 + j * 3, secs => 2)
    FROM ${series(from, to)} WHERE ${status(sql`k`)} IN ('paid', 'refunded')`,
  );

  const refundCount = await inBatches(
    db,
    'payment refunds',
    nInvoices,
    batch,
    log,
    (from, to) => sql`
    INSERT INTO payment_refunds (payment_id, amount_cents, reason, status, gateway_trans_id, gateway_code, gateway_message, created_at, settled_at)
    SELECT ${lit(p0)} + k, ${value(sql`n`, sql`j`)}, 'Charged twice by mistake', 'refunded', (70000000000 + ${lit(p0)} + k)::text, '1',
      'This transaction has been approved.', ${documentAt(sql`n`, sql`j`)} + interval '3 days', ${documentAt(sql`n`, sql`j`)} + interval '3 days'
    FROM ${series(from, to)} WHERE ${status(sql`k`)} = 'refunded'`,
  );

  // Audit rows: 20 per account, spread over the last two years in id order, by one of the account's users.
  const nAudit = 20 * N;
  const auditCount = await inBatches(
    db,
    'audit rows',
    nAudit,
    batch * 2,
    log,
    (from, to) => sql`
    INSERT INTO audit_log (actor_user_id, account_id, action, details, ip, created_at)
    SELECT ${lit(u0)} + 3 * an, ${lit(a0)} + an, act,
      CASE WHEN act = 'auth.login' THEN jsonb_build_object('email', 'user' || an || '@example.net')
           WHEN act LIKE 'payment.%' THEN jsonb_build_object('paymentId', ${lit(p0)} + an * 10 + r % 10)
           ELSE jsonb_build_object('accountId', ${lit(a0)} + an) END,
      '10.' || (r % 250) || '.' || ((r / 250) % 250) || '.' || (1 + r % 200),
      now() - make_interval(secs => ((${lit(nAudit)} - r)::float8 / ${lit(nAudit)}) * 63072000)
    FROM (SELECT r, (${mix(sql`r`, 31)} % ${lit(N)})::int AS an, ${pick(AUDIT_ACTIONS, mix(sql`r`, 37))} AS act
      FROM generate_series(${from}::int, ${to - 1}::int) r) x`,
  );

  // Outbox: 4 mails per account to its primary user; 90 % sent, 7 % pending, 3 % failed after 8 attempts.
  const nMail = 4 * N;
  const mailCount = await inBatches(
    db,
    'outbox mail',
    nMail,
    batch,
    log,
    (from, to) => sql`
    INSERT INTO mail_outbox (kind, to_address, subject, text_body, status, attempts, last_error, next_attempt_at, sent_at, carries_token, created_at)
    SELECT kind, u.email, subj, 'Hello ' || u.first_name || E',\n\n' || subj || E'.\n\nGoodStanding', st,
      CASE st WHEN 'sent' THEN 1 WHEN 'failed' THEN 8 ELSE 0 END,
      CASE WHEN st = 'failed' THEN '550 5.1.1 Mailbox unavailable' ELSE '' END,
      created, CASE WHEN st = 'sent' THEN created + interval '20 seconds' END, kind IN ('password.reset', 'application.started'), created
    FROM (SELECT r, (${mix(sql`r`, 41)} % ${lit(N)})::int AS an,
        ${pick(
          MAILS.map((m) => m[0]),
          mix(sql`r`, 43),
        )} AS kind, ${pick(
          MAILS.map((m) => m[1]),
          mix(sql`r`, 43),
        )} AS subj,
        CASE WHEN ${mix(sql`r`, 47)} % 100 < 90 THEN 'sent' WHEN ${mix(sql`r`, 47)} % 100 < 97 THEN 'pending' ELSE 'failed' END AS st,
        now() - make_interval(secs => ((${lit(nMail)} - r)::float8 / ${lit(nMail)}) * 63072000) AS created
      FROM generate_series(${from}::int, ${to - 1}::int) r) m
    JOIN users u ON u.id = ${lit(u0)} + 3 * m.an`,
  );

  // Inquiries: one per five accounts, from the public forms, 80 % handled.
  const nInq = Math.max(1, Math.floor(N / 5));
  const inquiryCount = await inBatches(
    db,
    'inquiries',
    nInq,
    batch,
    log,
    (from, to) => sql`
    INSERT INTO inquiries (kind, name, email, phone, organization, details, is_handled, handled_at, ip, created_at)
    SELECT kind, f || ' ' || l, lower(f || '.' || l || r) || '@example.com', '(555) 010-' || lpad((r % 10000)::text, 4, '0'),
      ${pick(cities, mix(sql`r`, 53))} || ' ' || ${pick(MASCOTS, mix(sql`r`, 59))} || ' ' || ${pick(KINDS, mix(sql`r`, 61))},
      jsonb_build_object('subject', 'Question about our exemption', 'message', 'Could you tell us what we need to file this year?'),
      handled, CASE WHEN handled THEN created + interval '1 day' END, '192.0.2.' || (1 + r % 250), created
    FROM (SELECT r, ${pick(INQUIRY_KINDS, mix(sql`r`, 67))} AS kind, ${pick(FIRST, mix(sql`r`, 71))} AS f, ${pick(LAST, mix(sql`r`, 73))} AS l,
        ${mix(sql`r`, 79)} % 10 < 8 AS handled, now() - make_interval(secs => ((${lit(nInq)} - r)::float8 / ${lit(nInq)}) * 63072000) AS created
      FROM generate_series(${from}::int, ${to - 1}::int) r) q`,
  );

  // What autovacuum would do soon after such a load: statistics for the planner, and the visibility
  // map, without which index-only scans (the staff lists' counts and totals) read the heap.
  log('VACUUM (ANALYZE)');
  for (const t of [
    '"groups"',
    'accounts',
    'users',
    'payments',
    'invoices',
    'invoice_lines',
    'payment_invoices',
    'payment_refunds',
    'audit_log',
    'mail_outbox',
    'inquiries',
  ]) {
    await db.execute(sql.raw(`VACUUM (ANALYZE) ${t}`));
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  log(`Done in ${seconds} s`);
  return {
    accounts: accountCount,
    groups,
    users: userCount,
    invoices: invoiceCount,
    invoiceLines: lineCount,
    payments: paymentCount,
    paymentInvoices: piCount,
    paymentRefunds: refundCount,
    auditRows: auditCount,
    outbox: mailCount,
    inquiries: inquiryCount,
    seconds,
  };
}
