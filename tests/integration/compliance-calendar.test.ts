import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Agent, createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { accounts } from '../../src/server/db/schema.ts';
import { calendarDate, nextForm990Deadline } from '../../src/shared/rules/compliance-calendar.ts';

/** GET /api/account/calendar (issue 7 "Compliance calendar"): the account's next deadlines. */

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('GET /api/account/calendar', () => {
  it('lists the next Form 990 due date from the fiscal year end and the renewal date, soonest first; other holders 404', async () => {
    const db = t.database.db;
    const account = await createAccount(db, { name: 'Calendar Boosters' });
    const renewalDueAt = new Date(Date.now() + 10 * 86_400_000);
    await db.update(accounts).set({ fiscalYearEndMonth: 6, renewalDueAt }).where(eq(accounts.id, account.id));
    await createUser(db, { email: 'calendar.holder@example.com', password: 'Calendar-pass-1', accountId: account.id });
    const holder = await signedIn(t.app, { email: 'calendar.holder@example.com', password: 'Calendar-pass-1' });

    const res = await holder.get('/api/account/calendar');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const today = calendarDate(new Date());
    expect(body.today).toBe(today);
    const form990 = nextForm990Deadline(6, today);
    expect(body.deadlines).toContainEqual(expect.objectContaining({ kind: 'form_990', due: form990.due, taxYear: form990.taxYear, label: expect.stringMatching(/^Form 990-N, 990-EZ or 990 for the fiscal year ending June 30, \d{4}$/) }));
    expect(body.deadlines).toContainEqual(expect.objectContaining({ kind: 'renewal', due: calendarDate(renewalDueAt), daysLeft: 10 }));
    const dues = body.deadlines.map((d: { due: string }) => d.due);
    expect([...dues].sort()).toEqual(dues);

    const other = await createAccount(db, { name: 'Other Calendar Boosters' });
    await createUser(db, { email: 'calendar.other@example.com', password: 'Calendar-pass-2', accountId: other.id });
    const stranger = await signedIn(t.app, { email: 'calendar.other@example.com', password: 'Calendar-pass-2' });
    expect((await stranger.get(`/api/account/calendar?account_id=${account.id}`)).statusCode).toBe(404);
    const visitor = await new Agent(t.app).start();
    expect((await visitor.get('/api/account/calendar')).statusCode).toBe(401);
  });
});
