// Longer than 400 lines: the daily reminder job with the texts of its two mails, whose sentences depend on the
// same standing figures (docs/irs-standing.md).
import { and, asc, eq, gt, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import {
  daysBetween,
  deadlinesFor,
  longDate,
  dueReminders,
  fiscalYearEnd,
  form990DueDate,
  form990Label,
  overdueReminderTier,
  parseIsoDate,
  reminderKey,
  stateFilingOf,
  type Deadline,
} from '../../../shared/rules/compliance-calendar.ts';
import {
  lateCostText,
  RETURN_FORM_LABELS,
  type LatePenaltyFigures,
  type Obligation,
  type Standing,
} from '../../../shared/rules/standing.ts';
import { accounts, complianceReminders, filings, stateRequirements, users } from '../../db/schema.ts';
import { standingColumns, standingOfAccounts } from '../irs-data/get-standing.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { IRS_PAGES } from '../mail/irs-pages.ts';
import { typed } from '../mail/mail-words.ts';
import { penaltyFiguresByYear } from './penalty-figures.ts';
import { stateFilingColumns } from './state-filings.ts';
import type { Db } from '../../db/client.ts';

/** Accounts read per query: PGlite runs one query at a time, so the job never holds it long. */
const BATCH = 200;

function inDays(daysLeft: number): string {
  return daysLeft === 0 ? 'today' : daysLeft === 1 ? 'tomorrow' : `in ${daysLeft} days`;
}

/** The forms a reminder names: the one owed when the IRS data tells it, else the three a group may owe. */
function formsText(obligation: Obligation | null | undefined): string {
  return obligation?.kind === 'return' ? `Form ${obligation.form}` : 'Form 990-N, 990-EZ or 990';
}

/**
 * What a late return costs, as a reminder says it (docs/irs-standing.md "Late returns"): the form
 * owed's rule, or both rules when the form is not known.
 */
function lateLines(
  obligation: Obligation | null | undefined,
  dueYear: number,
  figures: LatePenaltyFigures | null,
): string[] {
  if (obligation?.kind === 'return') return [lateCostText(obligation, dueYear, figures)];
  return [
    'A late Form 990-N carries no penalty, and a late return still counts; a late Form 990-EZ or 990 is',
    'penalised for each day it is late (IRC §6652(c)(1)(A)).',
  ];
}

/** The rules every Form 990 reminder states, with their sources (the IRS's pages, docs/irs-standing.md). */
const RULES_LINES = [
  'The IRS writes to an organization that has not filed for two years in a row. One that files nothing',
  'for three years in a row loses its exemption automatically on the third due date, and only a new',
  'application to the IRS can restore it.',
  `Form 990-N: ${IRS_PAGES.form990N}`,
  `Automatic revocation: ${IRS_PAGES.revocation}`,
];

/** The links of a Form 990 reminder (docs/security.md "Mail carries only our links"). */
const form990Links = (publicUrl: string) => [
  IRS_PAGES.form990N,
  IRS_PAGES.revocation,
  `${publicUrl}/account`,
  `${publicUrl}/contact`,
];

/** What a reminder's text reads besides the group: the site, the company, staff's §6652(c) figures by due year. */
interface MailOptions {
  publicUrl: string;
  companyName: string;
  penaltyFigures: Map<number, LatePenaltyFigures>;
}

/** The end of every Form 990 reminder: the rules, the calendar's address, how to report a filing, the signature. */
function form990MailEnd(opts: MailOptions, obligation: Obligation | null | undefined, dueYear: number): string[] {
  return [
    ...lateLines(obligation, dueYear, opts.penaltyFigures.get(dueYear) ?? null),
    ...RULES_LINES,
    '',
    `Your compliance calendar: ${opts.publicUrl}/account`,
    '',
    `Already filed? Tell us at ${opts.publicUrl}/contact and we will record it.`,
    '',
    opts.companyName,
    '',
  ];
}

interface ReminderMail {
  subject: string;
  text: string;
  /** Its own links: from PUBLIC_URL, and the IRS's pages (MailToQueue.links). */
  links: string[];
}

/** The group as a reminder names it: its name as its users typed it (docs/security.md "Mail carries only our links"). */
const theGroup = (accountName: string) => `the group named ${typed(accountName)}`;

/**
 * The reminder mail of one deadline: subject like "Form 990-N, 990-EZ or 990 due May 15, 2026 (in
 * 30 days)", a text with the due date, what to file and a link to /account.
 */
function reminderMail(
  deadline: Deadline,
  accountName: string,
  opts: MailOptions,
  obligation?: Obligation | null,
): ReminderMail {
  const when = `${longDate(deadline.due)} (${inDays(deadline.daysLeft)})`;
  const link = `${opts.publicUrl}/account`;
  if (deadline.kind === 'form_990') {
    return {
      subject: `${formsText(obligation)} due ${when}`,
      links: form990Links(opts.publicUrl),
      text: [
        'Hello,',
        '',
        `The annual IRS return of ${theGroup(accountName)} is due ${when}:`,
        `${deadline.label}.`,
        '',
        ...(obligation?.kind === 'return'
          ? [`What to file, per the IRS data: ${RETURN_FORM_LABELS[obligation.form]}.`]
          : [
              'What to file: Form 990-N (the e-Postcard) when gross receipts are normally $50,000 or less;',
              'Form 990-EZ when gross receipts are under $200,000 and total assets under $500,000; Form 990 otherwise.',
            ]),
        ...form990MailEnd(opts, obligation, Number(deadline.due.slice(0, 4))),
      ].join('\n'),
    };
  }
  if (deadline.kind === 'renewal') {
    const what = `${opts.companyName} renewal`;
    return {
      subject: `${what} due ${when}`,
      links: [link],
      text: [
        'Hello,',
        '',
        `The ${what} of ${theGroup(accountName)} is due ${when}.`,
        '',
        `Renewal is open now. Renew on your account page: ${link}`,
        'If you already renewed and paid, thank you: there is nothing more to do.',
        '',
        opts.companyName,
        '',
      ].join('\n'),
    };
  }
  const what = deadline.label;
  return {
    subject: `${what} due ${when}`,
    links: [link],
    text: [
      'Hello,',
      '',
      `The ${what} of ${theGroup(accountName)} is due ${when}.`,
      '',
      `Your compliance calendar: ${link}`,
      '',
      opts.companyName,
      '',
    ].join('\n'),
  };
}

/**
 * The mail of a missed Form 990-series due date (docs/irs-standing.md): which year is missing and
 * since when, how many are missing in a row, the revocation date and what it means, the rules with
 * their sources, and how to tell us it was filed.
 * @param standing the account's standing on `today` (its oldest unfiled year is the one named)
 */
function overdueMail(
  accountName: string,
  standing: Standing,
  fiscalYearEndMonth: number,
  today: string,
  opts: MailOptions,
): ReminderMail {
  const unfiled = unfiledTaxYears(standing);
  const year = unfiled[0];
  const due = form990DueDate(fiscalYearEndMonth, year);
  const revocation = must(standing.revocationDate, 'the revocation date');
  const daysToRevocation = daysBetween(today, revocation);
  return {
    subject: `${formsText(standing.obligation)} overdue since ${longDate(due)}`,
    links: form990Links(opts.publicUrl),
    text: [
      'Hello,',
      '',
      `We have not seen the annual IRS return of ${theGroup(accountName)} for the fiscal year ending ${longDate(fiscalYearEnd(fiscalYearEndMonth, year))},`,
      `which was due ${longDate(due)}${unfiled.length > 1 ? `, nor the ${unfiled.length - 1} after it` : ''}.`,
      '',
      daysToRevocation >= 0
        ? `If nothing is filed by ${longDate(revocation)} (${inDays(daysToRevocation)}), the exemption is revoked automatically that day.`
        : `The revocation date, ${longDate(revocation)}, has passed: unless a return was filed by then, the exemption was revoked that day and filing now does not undo it.`,
      '',
      ...form990MailEnd(opts, standing.obligation, Number(due.slice(0, 4))),
    ].join('\n'),
  };
}

/** The tax years whose return is not seen after its due date, oldest first: missed, missed unless extended, or due since the data. */
function unfiledTaxYears(standing: Standing): number[] {
  return [...standing.missedTaxYears, ...standing.unlessExtendedTaxYears, ...standing.awaitingDataTaxYears].sort(
    (a, b) => a - b,
  );
}

/** The mail kind of each deadline's reminder. */
const REMINDER_MAIL_KINDS: Record<Deadline['kind'], string> = {
  form_990: 'compliance.reminder.form_990',
  renewal: 'compliance.reminder.renewal',
  state: 'compliance.reminder.state',
};

export interface ReminderCounts {
  /** Customer accounts with a primary user and a deadline looked at. */
  accounts: number;
  /** Reminder mails written to the outbox this run. */
  enqueued: number;
  /** Reminders due but already written by an earlier run. */
  alreadySent: number;
  /** Form 990 reminders not sent because a filing for that tax year is recorded. */
  skippedFiled: number;
  /** Of `enqueued`, reminders of a missed due date. */
  overdue: number;
}

/**
 * The daily compliance reminder run (docs/requirements/product.md "Compliance calendar"): for every customer account (not an IRS subordinate,
 * `source <> 'irs-bmf'`) whose primary user (accounts.primary_user_id, a user of the account) has an
 * e-mail, the deadlines of deadlinesFor on `today` (the next Form 990 from the fiscal year end, the
 * renewal date, the annual filing of the account's state when staff keep a date for it) and the tier dueReminders gives (30 or 7 days before, and for
 * the renewal 60, 30 or 7, docs/renewals.md "Reminders"; none once past);
 * and, when the account's standing (docs/irs-standing.md) shows a Form 990-series return not filed
 * after its due date, a reminder of the oldest one the day after and every 30 days
 * (overdueReminderTier, overdueMail) until the return is seen or the group is on the revocation
 * list. Each
 * reminder is a compliance_reminders row under reminderKey, inserted with ON CONFLICT (key) DO
 * NOTHING; only a new row writes its mail to the outbox, in the same transaction, so a reminder is
 * mailed once however often or late the job runs. A Form 990 reminder is skipped when a filing for
 * its tax year is recorded. Reminders are service mail: sent whatever the user's mail
 * subscriptions. Reads accounts in batches of 200.
 * Writes: compliance_reminders, mail_outbox.
 */
export async function sendDueReminders(
  db: Db,
  opts: { today: string; publicUrl: string; companyName: string },
): Promise<ReminderCounts> {
  const { today } = opts;
  parseIsoDate(today);
  const mailOpts: MailOptions = { ...opts, penaltyFigures: await penaltyFiguresByYear(db) };
  const counts: ReminderCounts = { accounts: 0, enqueued: 0, alreadySent: 0, skippedFiled: 0, overdue: 0 };
  let afterId = 0;
  for (;;) {
    const batch = await db
      .select({
        id: accounts.id,
        name: accounts.name,
        fye: accounts.fiscalYearEndMonth,
        renewalDueAt: accounts.renewalDueAt,
        email: users.email,
        state: stateFilingColumns,
        irs: standingColumns,
      })
      .from(accounts)
      .innerJoin(users, and(eq(users.id, accounts.primaryUserId), eq(users.accountId, accounts.id)))
      .leftJoin(stateRequirements, eq(stateRequirements.code, sql`upper(trim(${accounts.state}))`))
      .where(
        and(
          gt(accounts.id, afterId),
          ne(accounts.source, 'irs-bmf'),
          or(
            isNotNull(accounts.fiscalYearEndMonth),
            isNotNull(accounts.renewalDueAt),
            isNotNull(stateRequirements.filingDueMonth),
          ),
        ),
      )
      .orderBy(asc(accounts.id))
      .limit(BATCH);
    if (!batch.length) break;
    afterId = batch[batch.length - 1].id;

    type Due = {
      accountId: number;
      name: string;
      email: string;
      deadline: Deadline;
      tier: number;
      key: string;
      mail?: ReminderMail;
      obligation?: Obligation | null;
    };
    const due: Due[] = [];
    const standings = await standingOfAccounts(
      db,
      batch.map((a) => a.irs),
      today,
    );
    for (const a of batch) {
      counts.accounts++;
      const stateFiling = a.state ? stateFilingOf(a.state) : null;
      const stateFilings = stateFiling ? [stateFiling] : [];
      const standing = standings.get(a.id)?.standing;
      for (const deadline of deadlinesFor(
        { fiscalYearEndMonth: a.fye, renewalDueAt: a.renewalDueAt, stateFilings, returnOwed: standing?.obligation },
        today,
      )) {
        for (const tier of dueReminders(deadline, today)) {
          due.push({
            accountId: a.id,
            name: a.name,
            email: a.email,
            deadline,
            tier,
            key: reminderKey(a.id, deadline, tier),
            obligation: standing?.obligation,
          });
        }
      }
      // A missed due date: reminded until the return is seen, the group is on the revocation list,
      // or it owes none (docs/irs-standing.md "Rules").
      const unfiled = standing ? unfiledTaxYears(standing) : [];
      if (standing && a.fye && unfiled.length && standing.state !== 'revoked' && standing.revocationDate) {
        const deadline: Deadline = {
          kind: 'form_990',
          label: form990Label(
            a.fye,
            unfiled[0],
            standing.obligation?.kind === 'return' ? standing.obligation.form : undefined,
          ),
          due: form990DueDate(a.fye, unfiled[0]),
          daysLeft: 0,
          taxYear: unfiled[0],
        };
        deadline.daysLeft = daysBetween(today, deadline.due);
        const tier = overdueReminderTier(deadline.due, today);
        if (tier !== null) {
          due.push({
            accountId: a.id,
            name: a.name,
            email: a.email,
            deadline,
            tier,
            key: reminderKey(a.id, deadline, tier),
            mail: overdueMail(a.name, standing, a.fye, today, mailOpts),
          });
        }
      }
    }
    if (!due.length) continue;

    // What earlier runs wrote and what is filed, for the whole batch in two reads.
    const known = new Set(
      (
        await db
          .select({ key: complianceReminders.key })
          .from(complianceReminders)
          .where(
            inArray(
              complianceReminders.key,
              due.map((d) => d.key),
            ),
          )
      ).map((r) => r.key),
    );
    const form990 = due.filter((d) => d.deadline.kind === 'form_990');
    const filed = new Set(
      form990.length
        ? (
            await db
              .select({ accountId: filings.accountId, taxYear: filings.taxYear })
              .from(filings)
              .where(inArray(filings.accountId, [...new Set(form990.map((d) => d.accountId))]))
          ).map((f) => `${f.accountId}:${f.taxYear}`)
        : [],
    );

    for (const d of due) {
      if (known.has(d.key)) {
        counts.alreadySent++;
        continue;
      }
      if (d.deadline.kind === 'form_990' && filed.has(`${d.accountId}:${d.deadline.taxYear}`)) {
        counts.skippedFiled++;
        continue;
      }
      const mail = d.mail ?? reminderMail(d.deadline, d.name, mailOpts, d.obligation);
      const wrote = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(complianceReminders)
          .values({ key: d.key, accountId: d.accountId, kind: d.deadline.kind, due: d.deadline.due, tier: d.tier })
          .onConflictDoNothing({ target: complianceReminders.key })
          .returning({ id: complianceReminders.id });
        if (!row) return false; // another process wrote it since the read above
        const [mailId] = await enqueueMail(tx, [{ kind: REMINDER_MAIL_KINDS[d.deadline.kind], to: d.email, ...mail }]);
        await tx.update(complianceReminders).set({ mailId }).where(eq(complianceReminders.id, row.id));
        return true;
      });
      if (wrote) {
        counts.enqueued++;
        if (d.tier < 0) counts.overdue++;
      } else counts.alreadySent++;
    }
  }
  return counts;
}
