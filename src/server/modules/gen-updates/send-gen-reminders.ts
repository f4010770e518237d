import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { longDate, parseIsoDate } from '../../../shared/rules/compliance-calendar.ts';
import {
  currentGenPeriodEnd,
  dueGenReminder,
  genUpdateWindow,
  genWindowStatus,
  type GenReminderTier,
} from '../../../shared/rules/gen-update.ts';
import { genUpdateReminders, genUpdates, groups, users } from '../../db/schema.ts';
import { isProviderGen } from '../irs-data/provider-gens.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import type { Db } from '../../db/client.ts';

export interface GenReminderCounts {
  /** Groups with a GEN and an accounting period end month. */
  groups: number;
  /** Reminders written this run (each mailed to every staff user). */
  reminders: number;
  /** Mails written to the outbox this run. */
  mails: number;
  /** Reminders due but written by an earlier run. */
  alreadySent: number;
  /** Reminders not sent because the period's update is already recorded as submitted. */
  skippedSubmitted: number;
}

/** The mail kind of each reminder tier. */
const GEN_REMINDER_MAIL_KINDS: Record<GenReminderTier, string> = {
  opened: 'gen_update.reminder.opened',
  closing: 'gen_update.reminder.closing',
};

const inDays = (n: number) => (n === 0 ? 'today' : n === 1 ? 'tomorrow' : `in ${n} days`);

/** The staff mail of one reminder: subject and text with the window's dates and the builder's address. */
function genReminderMail(
  gen: string,
  centralName: string,
  periodEnd: string,
  tier: GenReminderTier,
  today: string,
  publicUrl: string,
  companyName: string,
) {
  const w = genUpdateWindow(periodEnd);
  const left = genWindowStatus(w, today).daysLeft;
  const who = centralName ? `${centralName} (GEN ${gen})` : `GEN ${gen}`;
  const subject =
    tier === 'closing'
      ? `GEN ${gen} annual update: the window closes ${longDate(w.closesOn)} (${inDays(left)})`
      : `GEN ${gen} annual update: the window is open until ${longDate(w.closesOn)}`;
  const builder = `${publicUrl}/admin/gen-update`;
  return {
    subject,
    links: [builder],
    text: [
      'Hello,',
      '',
      `The annual group exemption update of ${who} for the accounting period ending ${longDate(periodEnd)}`,
      `is due between ${longDate(w.opensOn)} and ${longDate(w.closesOn)}: at least 30 and at most 90 days before the period ends (Rev. Proc. 2026-8).`,
      tier === 'closing'
        ? `Only ${left === 0 ? 'today is' : `${left} ${left === 1 ? 'day is' : 'days are'}`} left.`
        : 'The window is open now.',
      '',
      `Build, check and export it, then record the submission: ${builder}`,
      '',
      companyName,
      '',
    ].join('\n'),
  };
}

/**
 * The daily GEN update reminder run (docs/irs-gen-duties.md "Reminders"): for every group with a
 * GEN and an accounting period end month, the current period (currentGenPeriodEnd) and the tier
 * due on `today` (dueGenReminder: 'opened' in the window, 'closing' in its last 7 days). Unless the
 * period's update is already recorded as submitted, one gen_update_reminders row per group, period
 * and tier is inserted with ON CONFLICT DO NOTHING, and only a new row mails every staff user
 * (users.is_admin) through the outbox, in the same transaction: each reminder goes out once however
 * often the job runs. Writes gen_update_reminders, mail_outbox.
 */
export async function sendGenReminders(
  db: Db,
  opts: { today: string; publicUrl: string; companyName: string },
): Promise<GenReminderCounts> {
  const { today } = opts;
  parseIsoDate(today);
  const counts: GenReminderCounts = { groups: 0, reminders: 0, mails: 0, alreadySent: 0, skippedSubmitted: 0 };
  const list = await db
    .select()
    .from(groups)
    .where(and(isProviderGen, isNotNull(groups.accountingPeriodEndMonth)))
    .orderBy(asc(groups.id));
  let staff: string[] | null = null;
  for (const g of list) {
    counts.groups++;
    const periodEnd = currentGenPeriodEnd(
      must(g.accountingPeriodEndMonth, 'the period end month (the query keeps only groups with one)'),
      today,
    );
    const tier = dueGenReminder(genUpdateWindow(periodEnd), today);
    if (!tier) continue;
    const [submitted] = await db
      .select({ id: genUpdates.id })
      .from(genUpdates)
      .where(
        and(eq(genUpdates.groupId, g.id), eq(genUpdates.periodEnd, periodEnd), eq(genUpdates.status, 'submitted')),
      );
    if (submitted) {
      counts.skippedSubmitted++;
      continue;
    }
    staff ??= (
      await db.select({ email: users.email }).from(users).where(eq(users.isAdmin, true)).orderBy(asc(users.id))
    ).map((u) => u.email);
    const mail = genReminderMail(
      must(g.gen, 'the GEN (the query keeps only groups with one)'),
      g.centralName,
      periodEnd,
      tier,
      today,
      opts.publicUrl,
      opts.companyName,
    );
    const to = staff;
    const wrote = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(genUpdateReminders)
        .values({ groupId: g.id, periodEnd, tier, mails: to.length })
        .onConflictDoNothing({
          target: [genUpdateReminders.groupId, genUpdateReminders.periodEnd, genUpdateReminders.tier],
        })
        .returning({ id: genUpdateReminders.id });
      if (!row) return false;
      await enqueueMail(
        tx,
        to.map((email) => ({ kind: GEN_REMINDER_MAIL_KINDS[tier], to: email, ...mail })),
      );
      return true;
    });
    if (wrote) {
      counts.reminders++;
      counts.mails += to.length;
    } else counts.alreadySent++;
  }
  return counts;
}
