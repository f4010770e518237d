import { and, eq, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { longDate, calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { complianceEducation, groups } from '../../db/schema.ts';
import { HttpError, notFound, ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { getCompany } from '../content/get-company.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { educationMail } from './education-mail.ts';
import type { Db } from '../../db/client.ts';

/** Mails written per statement. */
const BATCH = 500;

export interface SendEducationResult {
  groupLabel: string;
  year: number;
  recipients: number;
}

/** What the page shows once a notice was sent: the year, the group and how many it was queued for. */
const educationSentMessage = (sent: SendEducationResult) =>
  `The ${sent.year} compliance education notice of ${sent.groupLabel} was queued for ${sent.recipients} users.`;

/**
 * POST /api/admin/supervision/education and its workspace twin (docs/supervision.md "Compliance
 * education"): sendComplianceEducation in the company's name, answered as the page shows it.
 * Reads the company's settings; writes and throws what sendComplianceEducation does.
 * @returns the message to show and how many users the notice was queued for
 */
export async function sendEducationNotice(
  db: Db,
  opts: Omit<Parameters<typeof sendComplianceEducation>[1], 'companyName'>,
): Promise<{ message: string; recipients: number }> {
  const sent = await sendComplianceEducation(db, { ...opts, companyName: (await getCompany(db)).name });
  return { message: educationSentMessage(sent), recipients: sent.recipients };
}

/**
 * Sends a GEN group's compliance education notice for `year` (Rev. Proc. 2026-8; docs/supervision.md
 * "Compliance education"): one mail (educationMail, linking Publication 557) to every distinct
 * e-mail address of the users of every member group (accounts.group_id), through the outbox. Once
 * per group and year: the compliance_education row (unique per group and year) is written first in
 * the same transaction as the mails and the audit_log row ('supervision.education_sent'), so two
 * staff sending at once queue the mails once; the second is refused.
 * @param opts.year must be this calendar year (`today`'s): last year's notice is not sent late by a stale page
 * @param opts.today 'YYYY-MM-DD'
 * @throws HttpError 404 when the group does not exist; HttpError 409 when this year's notice was already
 *   sent (with when and to how many); ValidationError (year) for another year, (group_id) when no member has a user
 */
export async function sendComplianceEducation(
  db: Db,
  opts: {
    groupId: number;
    year: number;
    today: string;
    /** config.publicUrl: the report link's origin (never the request's: docs/security.md "Mail carries only our links"). */
    publicUrl: string;
    companyName: string;
    actor: { userId: number; ip: string };
  },
): Promise<SendEducationResult> {
  const thisYear = Number(opts.today.slice(0, 4));
  if (opts.year !== thisYear) throw ValidationError.field('year', `Only this year's notice (${thisYear}) can be sent.`);
  return db.transaction(async (tx) => {
    const [group] = await tx.select().from(groups).where(eq(groups.id, opts.groupId)).for('update');
    if (!group) throw notFound('The group');
    const already = async () => {
      const [sent] = await tx
        .select()
        .from(complianceEducation)
        .where(and(eq(complianceEducation.groupId, group.id), eq(complianceEducation.year, opts.year)));
      return sent;
    };
    const refuse = (sent: typeof complianceEducation.$inferSelect) =>
      new HttpError(
        409,
        `The ${opts.year} compliance education notice of ${group.label} was already sent on ${longDate(calendarDate(new Date(sent.sentAt)))} to ${sent.recipients} users. It is sent once a year.`,
      );
    const sent = await already();
    if (sent) throw refuse(sent);
    const emails = (
      await rowsOf<{ email: string }>(
        tx,
        sql`
      SELECT DISTINCT lower(u.email) AS email FROM users u JOIN accounts a ON a.id = u.account_id
      WHERE a.group_id = ${group.id} ORDER BY 1`,
      )
    ).map((r) => r.email);
    if (!emails.length)
      throw ValidationError.field('group_id', `No member group of ${group.label} has a user to send the notice to.`);
    const [row] = await tx
      .insert(complianceEducation)
      .values({
        groupId: group.id,
        year: opts.year,
        sentAt: new Date(),
        sentBy: opts.actor.userId,
        recipients: emails.length,
      })
      .onConflictDoNothing()
      .returning({ id: complianceEducation.id });
    if (!row) throw refuse(must(await already(), 'the education already sent that blocked this one'));
    const mail = educationMail({
      year: opts.year,
      gen: group.gen,
      centralName: group.centralName,
      groupLabel: group.label,
      publicUrl: opts.publicUrl,
      companyName: opts.companyName,
    });
    for (let i = 0; i < emails.length; i += BATCH) {
      await enqueueMail(
        tx,
        emails.slice(i, i + BATCH).map((to) => ({ kind: 'supervision.education', to, ...mail })),
      );
    }
    await recordAudit(tx, {
      actorUserId: opts.actor.userId,
      action: 'supervision.education_sent',
      ip: opts.actor.ip,
      details: { groupId: group.id, gen: group.gen, year: opts.year, recipients: emails.length },
    });
    return { groupLabel: group.label, year: opts.year, recipients: emails.length };
  });
}
