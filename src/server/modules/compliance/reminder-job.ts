import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { getCompany } from '../content/get-company.ts';
import { sendDueReminders, type ReminderCounts } from './send-reminders.ts';
import type { FastifyInstance } from 'fastify';

/**
 * One run of the compliance reminders (today = the UTC calendar date, like GET
 * /api/account/calendar); the job `compliance-reminders` runs it daily (docs/jobs.md), unless
 * REMINDERS_ENABLED=0. Writes: compliance_reminders, mail_outbox. @returns sendDueReminders' counts
 */
export async function runComplianceReminders(app: FastifyInstance): Promise<ReminderCounts> {
  const company = await getCompany(app.db);
  return sendDueReminders(app.db, {
    today: calendarDate(new Date()),
    publicUrl: app.config.publicUrl,
    companyName: company.name,
  });
}
