import type { FastifyInstance } from 'fastify';
import { startIntervalJob } from '../../interval-job.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { getCompany } from '../content/get-company.ts';
import { sendDueReminders } from './send-reminders.ts';

const DAY_MS = 24 * 3_600_000;

/**
 * Runs sendDueReminders once a minute after start and then once a day (today = the UTC calendar
 * date, like GET /api/account/calendar), unless `config.reminders.enabled` is false
 * (REMINDERS_ENABLED=0). Runs never overlap; the timers stop with the app (startIntervalJob).
 */
export function startComplianceReminders(app: FastifyInstance, firstRunMs = 60_000): void {
  if (!app.config.reminders.enabled) return;
  startIntervalJob(app, {
    name: 'compliance reminders', firstRunMs, everyMs: DAY_MS,
    run: async () => {
      const company = await getCompany(app.db);
      const counts = await sendDueReminders(app.db, { today: calendarDate(new Date()), publicUrl: app.config.publicUrl, companyName: company.name });
      app.log.info(counts, 'compliance reminders');
    },
  });
}
