import { expect } from 'vitest';
import { sampleAnswers, type WizardLevelSlug } from '../../../src/server/db/seed/wizard-schemas.ts';
import type { Page } from 'playwright-core';

/**
 * A new account holder of a test's own, signed in in `page`: starts an application for `level`
 * and submits it with the level's sample answers (plus `answers`), as the wizard would. The
 * start-up level needs no EIN, so nothing clashes with other tests' accounts.
 * @returns the new account's id and its first invoice's id
 * @throws when the application is not accepted
 */
export async function newAccountHolder(
  page: Page,
  opts: { email: string; name: string; level?: WizardLevelSlug; password?: string; answers?: Record<string, unknown> },
): Promise<{ accountId: number; invoiceId: number }> {
  const level = opts.level ?? 'start-up';
  await page.goto('/pricing');
  const answers = sampleAnswers(level, { account___name: opts.name, ...opts.answers });
  const result = await page.evaluate(
    async ({ answers, email, password, level }) => {
      const headers = (token: string) => ({
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRF-TOKEN': token,
      });
      const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const { levels } = (await (await fetch('/api/pricing')).json()) as { levels: { id: number; slug: string }[] };
      const levelId = levels.find((l) => l.slug === level)!.id;
      const started = await fetch('/application/start', {
        method: 'POST',
        headers: headers(meta),
        body: JSON.stringify({ email, password, level_id: levelId }),
      });
      const { token, csrfToken } = (await started.json()) as { token: string; csrfToken: string };
      const done = await fetch(`/application/create/${token}`, {
        method: 'PUT',
        headers: headers(csrfToken),
        body: JSON.stringify({ submit: 1, ...answers }),
      });
      const body = (await done.json()) as { invoice_id: number; account_id: number };
      return { status: done.status, accountId: body.account_id, invoiceId: body.invoice_id };
    },
    { answers, email: opts.email, password: opts.password ?? 'Holder#E2e-2026', level },
  );
  if (result.status !== 200) throw new Error(`the application for ${opts.email} was not accepted: ${result.status}`);
  return { accountId: result.accountId, invoiceId: result.invoiceId };
}

/**
 * The admin signed in in `adminPage` opens the newest password-reset mail for `email` in the
 * outbox and reads the link in it. @returns the link's path and query
 */
export async function resetLinkFromOutbox(adminPage: Page, email: string): Promise<string> {
  await adminPage.goto('/admin/outbox');
  const row = adminPage
    .getByRole('row')
    .filter({ hasText: email })
    .filter({ hasText: 'Reset your GoodStanding password' })
    .first();
  await row.getByRole('link').click();
  const body = await adminPage.locator('pre, code').first().innerText();
  const match = body.match(/https?:\/\/\S+\/password\/reset\/\S+/);
  if (!match) throw new Error(`no reset link in the mail:\n${body}`);
  const url = new URL(match[0]);
  return url.pathname + url.search;
}

/**
 * The admin signed in in `adminPage` opens the newest invitation mailed to `email` in the outbox
 * (docs/roles.md "Invitations"; shown whole when the server has no SMTP server) and reads its
 * set-password link, or its "This was not me" link. @returns the link's path and query
 */
export async function invitationLinkFromOutbox(
  adminPage: Page,
  email: string,
  which: 'set-password' | 'not-me' = 'set-password',
): Promise<string> {
  await adminPage.goto('/admin/outbox');
  const row = adminPage.getByRole('row').filter({ hasText: email }).filter({ hasText: 'You are invited to' }).first();
  await row.getByRole('link').click();
  const body = await adminPage.locator('pre, code').first().innerText();
  const match = body.match(
    which === 'not-me' ? /https?:\/\/\S+\/invitation\/not-me\/\S+/ : /https?:\/\/\S+\/password\/reset\/\S+/,
  );
  if (!match) throw new Error(`no ${which} link in the invitation:\n${body}`);
  const url = new URL(match[0]);
  return url.pathname + url.search;
}

/**
 * The person invited as `email` opens the set-password link of their invitation (read by the admin
 * signed in in `adminPage`, invitationLinkFromOutbox) in `page`, chooses `password` as a person
 * would, by the fields' labels, and is signed in.
 */
export async function acceptInvitation(adminPage: Page, page: Page, email: string, password: string) {
  await page.goto(await invitationLinkFromOutbox(adminPage, email));
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/password'));
}

/**
 * Settles the invoice with a zero payment and the demo code WELCOME100 (100 % off new-account
 * lines), as the billing screen sends it: a paid payment without touching the demo holder's
 * invoices. Run on a page of the site, signed in as the invoice's holder.
 * @returns the payment's id
 */
export async function payWithWelcomeCode(page: Page, invoiceId: number): Promise<number> {
  // The page's CSRF token must be the signed-in session's.
  await page.reload();
  const result = await page.evaluate(async (invoiceId) => {
    const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
    const headers = { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-TOKEN': token };
    const unpaid = (await (await fetch('/api/invoices/unpaid', { headers })).json()) as {
      invoices: { id: number; balance_cents: number }[];
    };
    const balance = unpaid.invoices.find((i) => i.id === invoiceId)!.balance_cents;
    const reserved = (await (
      await fetch('/app/discount/reserve', { method: 'POST', headers, body: JSON.stringify({ code: 'WELCOME100' }) })
    ).json()) as { discount: { id: number } };
    const paid = await fetch('/app/payments/zero-payment', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        value: '0.00',
        invoices: [invoiceId],
        discount_id: reserved.discount.id,
        discount_total: (balance / 100).toFixed(2),
        idempotency_key: crypto.randomUUID(),
        type: 'zero_payment',
      }),
    });
    const finances = (await (await fetch('/api/finances', { headers })).json()) as {
      payments: { data: { id: number }[] };
    };
    return { status: paid.status, paymentId: finances.payments.data[0]?.id };
  }, invoiceId);
  expect(result.status).toBe(200);
  expect(result.paymentId).toBeGreaterThan(0);
  return result.paymentId!;
}

/** 'YYYY-MM-DD' (UTC) `days` days from now. */
export const isoDateInDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The admin signed in in `adminPage` sets account `accountId`'s renewal due date ('YYYY-MM-DD') in
 * its Account settings, as staff do on /admin/accounts/show/{id}.
 */
export async function setRenewalDueDate(adminPage: Page, accountId: number, dueOn: string) {
  await adminPage.goto(`/admin/accounts/show/${accountId}`);
  const settings = adminPage.getByRole('region', { name: 'Account settings' });
  await settings.getByLabel('Renewal due date').fill(dueOn);
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await adminPage.getByText('The account settings were saved.').waitFor();
  expect(
    await adminPage.getByRole('region', { name: 'Account settings' }).getByLabel('Renewal due date').inputValue(),
  ).toBe(dueOn);
}

/**
 * Staff, signed in in `staffPage`, give an account imported from the IRS data its first user: they
 * find the account on the GEN's public search by `keyword` and `name`, check its EIN on its public
 * profile, and add `user` as its primary user (POST /app/account/users/store), which mails them an
 * invitation. @returns the account's id
 * @throws when the account is not found, has another EIN, or the user is refused
 */
export async function giveImportedAccountAUser(
  staffPage: Page,
  opts: { keyword: string; name: string; ein: string; email: string; firstName: string; lastName: string },
): Promise<number> {
  return staffPage.evaluate(async ({ keyword, name, ein, email, firstName, lastName }) => {
    const headers = {
      'Content-Type': 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
    };
    const found = (await (
      await fetch(`/search?search=verify-501c3&keyword=${encodeURIComponent(keyword)}`, { headers })
    ).json()) as { data: { id: number; name: string }[] };
    const id = found.data.find((r) => r.name === name)?.id;
    if (!id) throw new Error(`no account named ${name} found by "${keyword}"`);
    const profile = (await (await fetch(`/api/accounts/${id}/public`, { headers })).json()) as { ein: string };
    if (profile.ein.replace('-', '') !== ein) throw new Error(`account ${id} has EIN ${profile.ein}`);
    const added = await fetch('/app/account/users/store', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        account_id: id,
        email,
        first_name: firstName,
        last_name: lastName,
        phone: '',
        sms_phone: '',
        is_primary: 1,
      }),
    });
    if (added.status !== 201) throw new Error(`adding the user: ${added.status} ${await added.text()}`);
    return id;
  }, opts);
}
