import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { adminConsoleContracts } from '../../src/shared/contracts/admin-console.ts';
import { calendarDate, nextForm990Deadline, nextStateFilingDate } from '../../src/shared/rules/compliance-calendar.ts';
import { Agent, createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';

/** GET /api/account/calendar (docs/requirements/product.md "Compliance calendar"): the account's next deadlines. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/account/calendar', () => {
  it('lists the next Form 990 due date from the fiscal year end and the renewal date, soonest first; other holders 404', async () => {
    const db = t.database.db;
    const account = await createAccount(db, { name: 'Calendar Boosters' });
    const renewalDueAt = new Date(Date.now() + 10 * 86_400_000);
    await db.update(accounts).set({ fiscalYearEndMonth: 6, renewalDueAt }).where(eq(accounts.id, account.id));
    await createUser(db, { email: 'calendar.holder@example.com', password: 'Calendar-pass-1', accountId: account.id });
    const holder = await signedIn(t.app, { email: 'calendar.holder@example.com', password: 'Calendar-pass-1' });

    const res = await holder.call(accountOverviewContracts.calendar);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const today = calendarDate(new Date());
    expect(body.today).toBe(today);
    const form990 = nextForm990Deadline(6, today);
    expect(body.deadlines).toContainEqual(
      expect.objectContaining({
        kind: 'form_990',
        due: form990.due,
        taxYear: form990.taxYear,
        label: expect.stringMatching(/^Form 990-N, 990-EZ or 990 for the fiscal year ending June 30, \d{4}$/),
      }),
    );
    expect(body.deadlines).toContainEqual(
      expect.objectContaining({ kind: 'renewal', due: calendarDate(renewalDueAt), daysLeft: 10 }),
    );
    const dues = body.deadlines.map((d: { due: string }) => d.due);
    expect([...dues].sort()).toEqual(dues);

    const other = await createAccount(db, { name: 'Other Calendar Boosters' });
    await createUser(db, { email: 'calendar.other@example.com', password: 'Calendar-pass-2', accountId: other.id });
    const stranger = await signedIn(t.app, { email: 'calendar.other@example.com', password: 'Calendar-pass-2' });
    expect(
      (await stranger.call(accountOverviewContracts.calendar, { query: { account_id: account.id } })).statusCode,
    ).toBe(404);
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(accountOverviewContracts.calendar)).statusCode).toBe(401);
  });
});

describe('state filing dates in the calendar', () => {
  it("shows the next annual filing of the account's state once an admin sets its date; none without a date", async () => {
    const db = t.database.db;
    await createUser(db, { email: 'calendar.admin@example.com', password: 'Calendar-admin-1', isAdmin: true });
    const admin = await signedIn(t.app, { email: 'calendar.admin@example.com', password: 'Calendar-admin-1' });
    const account = await createAccount(db, { name: 'Hoosier Boosters', state: 'IN' });
    await createUser(db, { email: 'calendar.indiana@example.com', password: 'Calendar-pass-3', accountId: account.id });
    const holder = await signedIn(t.app, { email: 'calendar.indiana@example.com', password: 'Calendar-pass-3' });
    const stateDeadlines = async () =>
      (await holder.call(accountOverviewContracts.calendar))
        .json()
        .deadlines.filter((d: { kind: string }) => d.kind === 'state');

    expect(await stateDeadlines()).toEqual([]);

    const base = { state_name: 'Indiana', maintain_estimate: '50', aoi_estimate: '50', notes: '' };
    // A date a few days ahead and one already past this year (due next year).
    const today = calendarDate(new Date());
    for (const offset of [3, -3]) {
      const d = new Date(Date.now() + offset * 86_400_000);
      const month = d.getUTCMonth() + 1;
      const day = d.getUTCDate();
      const put = await admin.call(adminConsoleContracts.saveState, {
        params: { code: 'IN' },
        body: {
          ...base,
          filing_label: 'Annual report',
          filing_due_month: String(month),
          filing_due_day: String(day),
        },
      });
      expect(put.statusCode).toBe(200);
      const due = nextStateFilingDate({ dueMonth: month, dueDay: day }, calendarDate(new Date()));
      expect(due >= today).toBe(true);
      expect(await stateDeadlines()).toEqual([
        { kind: 'state', label: 'Indiana annual report', due, daysLeft: expect.any(Number) },
      ]);
      if (offset === 3) expect(due).toBe(calendarDate(d));
      else expect(due.slice(0, 4)).toBe(String(d.getUTCFullYear() + 1));
    }

    // An admin looking at the account sees it too; another state's date does not show.
    expect(
      (await admin.call(accountOverviewContracts.calendar, { query: { account_id: account.id } })).json().deadlines,
    ).toContainEqual(expect.objectContaining({ kind: 'state', label: 'Indiana annual report' }));
    await admin.call(adminConsoleContracts.saveState, {
      params: { code: 'OH' },
      body: {
        state_name: 'Ohio',
        maintain_estimate: '50',
        aoi_estimate: '50',
        notes: '',
        filing_label: 'Statement of continued existence',
        filing_due_month: '1',
        filing_due_day: '15',
      },
    });
    expect(await stateDeadlines()).toHaveLength(1);

    await admin.call(adminConsoleContracts.saveState, {
      params: { code: 'IN' },
      body: { ...base, filing_label: '', filing_due_month: '', filing_due_day: '' },
    });
    expect(await stateDeadlines()).toEqual([]);
  });
});
