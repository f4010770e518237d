import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { getCompany } from '../content/get-company.ts';
import { sendGenReminders, type GenReminderCounts } from './send-gen-reminders.ts';
import type { FastifyInstance } from 'fastify';

/**
 * One run of the GEN update reminders with today's UTC date; the job `gen-update-reminders` runs
 * it daily (docs/jobs.md), unless REMINDERS_ENABLED=0. @returns sendGenReminders' counts
 */
export async function runGenReminders(app: FastifyInstance): Promise<GenReminderCounts> {
  const company = await getCompany(app.db);
  return sendGenReminders(app.db, {
    today: calendarDate(new Date()),
    publicUrl: app.config.publicUrl,
    companyName: company.name,
  });
}
