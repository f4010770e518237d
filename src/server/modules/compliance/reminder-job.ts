import type { FastifyInstance } from 'fastify';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { getCompany } from '../content/get-company.ts';
import { sendDueReminders } from './send-reminders.ts';

const DAY_MS = 24 * 3_600_000;

/**
 * Runs sendDueReminders once a minute after start and then once a day (today = the UTC calendar
 * date, like GET /api/account/calendar), unless `config.reminders.enabled` is false
 * (REMINDERS_ENABLED=0). Runs never overlap; both timers stop with the app.
 */
export function startComplianceReminders(app: FastifyInstance, firstRunMs = 60_000): void {
  if (!app.config.reminders.enabled) return;
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const company = await getCompany(app.db);
      const counts = await sendDueReminders(app.db, { today: calendarDate(new Date()), publicUrl: app.config.publicUrl, companyName: company.name });
      app.log.info(counts, 'compliance reminders');
    } catch (err) {
      app.log.warn({ err }, 'compliance reminders failed');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(run, firstRunMs);
  const daily = setInterval(run, DAY_MS);
  first.unref();
  daily.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(daily);
  });
}
