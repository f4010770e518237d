import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../src/server/db/client.ts';
import type { FormAttempt, PaymentAttempt } from './load.ts';

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** What was found in the database after the load; every list is a broken rule (empty when the data is whole). */
export interface Findings {
  /** 201 answers whose inquiry is missing, doubled, or under another id. */
  acknowledgedFormsNotOnce: string[];
  /** Unanswered submissions stored more than once. */
  unansweredFormsDoubled: string[];
  /** Inquiries whose two outbox mails (staff notice, acknowledgement) are not there exactly once each. */
  inquiriesWithoutTheirMails: string[];
  /** Inquiry mails whose inquiry does not exist. */
  orphanMails: string[];
  /** Inquiries nobody sent. */
  strayInquiries: string[];
  /** 200 answers whose payment is missing, doubled, not paid, or whose invoice is not paid by it once. */
  acknowledgedPaymentsNotOnce: string[];
  /** 202 answers whose payment is missing or not pending/held, or whose invoice changed. */
  acceptedPaymentsWrong: string[];
  /** Unanswered payments stored more than once. */
  unansweredPaymentsDoubled: string[];
  /** Invoices whose balance is not their value less what payments applied, or paid more than once, or paid without a payment. */
  invoicesInconsistent: string[];
  /** Paid payments not applied in full; unpaid ones applied at all; paid ones without a settle time. */
  paymentsHalfWritten: string[];
  /** Payments nobody sent. */
  strayPayments: string[];
}

/** What the kill left that the rules allow: unanswered requests stored whole, and payments left pending. */
export interface Tally {
  inquiries: number;
  acknowledgedForms: number;
  unansweredForms: number;
  unansweredFormsStored: number;
  payments: number;
  acknowledgedPayments: number;
  unansweredPayments: number;
  unansweredPaymentsStored: number;
  pendingPayments: number;
}

/**
 * Checks the database against what the clients were told (docs/requirements/platform.md §5.10): every 2xx submission and
 * payment is stored exactly once, unanswered ones at most once, and nothing is half-written (an
 * inquiry and its two mails; a paid payment, its payment_invoices rows and the invoice balance).
 * Inquiries whose e-mail starts with `emailPrefix` must all be among `forms` (no stray rows).
 */
export async function verify(
  db: Db,
  forms: FormAttempt[],
  payments: PaymentAttempt[],
  emailPrefix: string,
): Promise<{ findings: Findings; tally: Tally }> {
  const f: Findings = {
    acknowledgedFormsNotOnce: [],
    unansweredFormsDoubled: [],
    inquiriesWithoutTheirMails: [],
    orphanMails: [],
    strayInquiries: [],
    acknowledgedPaymentsNotOnce: [],
    acceptedPaymentsWrong: [],
    unansweredPaymentsDoubled: [],
    invoicesInconsistent: [],
    paymentsHalfWritten: [],
    strayPayments: [],
  };

  // ----- public form submissions -----
  const inquiries = await rows<{ id: number; email: string }>(db, sql`SELECT id, email FROM inquiries`);
  const byEmail = new Map<string, number[]>();
  for (const i of inquiries) byEmail.set(i.email, [...(byEmail.get(i.email) ?? []), Number(i.id)]);
  const sent = new Set(forms.map((a) => a.email));
  let unansweredFormsStored = 0;
  for (const a of forms) {
    const ids = byEmail.get(a.email) ?? [];
    if (a.outcome === 201) {
      if (ids.length !== 1 || ids[0] !== a.id)
        f.acknowledgedFormsNotOnce.push(`${a.email}: answered id ${a.id}, stored ${JSON.stringify(ids)}`);
    } else if (a.outcome === 'no answer') {
      if (ids.length > 1) f.unansweredFormsDoubled.push(`${a.email}: ${JSON.stringify(ids)}`);
      if (ids.length) unansweredFormsStored++;
    }
  }
  for (const i of inquiries)
    if (i.email.startsWith(emailPrefix) && !sent.has(i.email)) f.strayInquiries.push(`${i.id} ${i.email}`);

  // The staff notice names the inquiry at the end of its subject ("New contact request #<id>"); the acknowledgement goes to the sender.
  const staff = await rows<{ inquiry_id: number | null; n: number }>(
    db,
    sql`
    SELECT substring(subject from '#([0-9]+)$')::int AS inquiry_id, count(*)::int AS n
    FROM mail_outbox WHERE kind = 'inquiry.staff' GROUP BY 1`,
  );
  const acks = await rows<{ to_address: string; n: number }>(
    db,
    sql`
    SELECT to_address, count(*)::int AS n FROM mail_outbox WHERE kind = 'inquiry.ack' GROUP BY 1`,
  );
  const staffOf = new Map(staff.map((r) => [r.inquiry_id === null ? null : Number(r.inquiry_id), Number(r.n)]));
  const ackOf = new Map(acks.map((r) => [r.to_address, Number(r.n)]));
  const inquiryIds = new Set(inquiries.map((i) => Number(i.id)));
  for (const i of inquiries) {
    const s = staffOf.get(Number(i.id)) ?? 0;
    const k = ackOf.get(i.email) ?? 0;
    if (s !== 1 || k !== (byEmail.get(i.email)?.length ?? 0))
      f.inquiriesWithoutTheirMails.push(`inquiry ${i.id} ${i.email}: ${s} staff notices, ${k} acknowledgements`);
  }
  for (const [id, n] of staffOf)
    if (id === null || !inquiryIds.has(id)) f.orphanMails.push(`${n} staff notices of inquiry ${id}`);
  for (const [to, n] of ackOf) if (!byEmail.has(to)) f.orphanMails.push(`${n} acknowledgements to ${to}`);

  // ----- card payments -----
  const paymentRows = await rows<{
    id: number;
    key: string;
    status: string;
    amount: number;
    discount: number;
    invoice_ids: number[];
    settled: boolean;
  }>(
    db,
    sql`
    SELECT id, idempotency_key AS key, status, amount_cents AS amount, discount_cents AS discount, invoice_ids, settled_at IS NOT NULL AS settled FROM payments`,
  );
  const applied = await rows<{ payment_id: number; invoice_id: number; amount: number }>(
    db,
    sql`
    SELECT payment_id, invoice_id, amount_cents AS amount FROM payment_invoices`,
  );
  const invoiceRows = await rows<{ id: number; value: number; balance: number }>(
    db,
    sql`
    SELECT id, value_cents AS value, balance_cents AS balance FROM invoices`,
  );
  const byKey = new Map<string, typeof paymentRows>();
  for (const p of paymentRows) byKey.set(p.key, [...(byKey.get(p.key) ?? []), p]);
  const appliedByPayment = new Map<number, typeof applied>();
  const appliedByInvoice = new Map<number, typeof applied>();
  for (const a of applied) {
    appliedByPayment.set(Number(a.payment_id), [...(appliedByPayment.get(Number(a.payment_id)) ?? []), a]);
    appliedByInvoice.set(Number(a.invoice_id), [...(appliedByInvoice.get(Number(a.invoice_id)) ?? []), a]);
  }
  const invoiceById = new Map(invoiceRows.map((i) => [Number(i.id), i]));
  const paidByInvoice = new Map<number, number[]>();
  for (const p of paymentRows) {
    if (p.status !== 'paid') continue;
    for (const inv of p.invoice_ids)
      paidByInvoice.set(Number(inv), [...(paidByInvoice.get(Number(inv)) ?? []), Number(p.id)]);
  }

  let unansweredPaymentsStored = 0;
  for (const a of payments) {
    const found = byKey.get(a.key) ?? [];
    const invoice = invoiceById.get(a.invoiceId)!;
    const onInvoice = appliedByInvoice.get(a.invoiceId) ?? [];
    if (a.outcome === 200) {
      const p = found[0];
      if (
        found.length !== 1 ||
        Number(p.id) !== a.paymentId ||
        p.status !== 'paid' ||
        Number(invoice.balance) !== 0 ||
        onInvoice.length !== 1 ||
        Number(onInvoice[0].payment_id) !== a.paymentId ||
        Number(onInvoice[0].amount) !== Number(invoice.value)
      ) {
        f.acknowledgedPaymentsNotOnce.push(
          `key ${a.key} invoice ${a.invoiceId}: answered payment ${a.paymentId}, stored ${JSON.stringify(found)}, applied ${JSON.stringify(onInvoice)}, balance ${invoice.balance}`,
        );
      }
    } else if (a.outcome === 202) {
      const p = found[0];
      if (
        found.length !== 1 ||
        !['pending', 'held'].includes(p.status) ||
        Number(invoice.balance) !== Number(invoice.value) ||
        onInvoice.length
      ) {
        f.acceptedPaymentsWrong.push(`key ${a.key}: stored ${JSON.stringify(found)}, balance ${invoice.balance}`);
      }
    } else if (a.outcome === 'no answer') {
      if (found.length > 1) f.unansweredPaymentsDoubled.push(`key ${a.key}: ${JSON.stringify(found)}`);
      if (found.length) unansweredPaymentsStored++;
    }
  }
  const keys = new Set(payments.map((a) => a.key));
  for (const p of paymentRows) if (!keys.has(p.key)) f.strayPayments.push(`payment ${p.id} key ${p.key}`);

  for (const inv of invoiceRows) {
    const id = Number(inv.id);
    const sum = (appliedByInvoice.get(id) ?? []).reduce((s, a) => s + Number(a.amount), 0);
    const paid = paidByInvoice.get(id) ?? [];
    if (Number(inv.balance) !== Number(inv.value) - sum)
      f.invoicesInconsistent.push(`invoice ${id}: value ${inv.value}, balance ${inv.balance}, applied ${sum}`);
    if (paid.length > 1)
      f.invoicesInconsistent.push(`invoice ${id}: paid by ${paid.length} payments ${JSON.stringify(paid)}`);
    if (Number(inv.balance) < Number(inv.value) && paid.length !== 1)
      f.invoicesInconsistent.push(
        `invoice ${id}: balance ${inv.balance} of ${inv.value} with ${paid.length} paid payments`,
      );
  }
  for (const p of paymentRows) {
    const sum = (appliedByPayment.get(Number(p.id)) ?? []).reduce((s, a) => s + Number(a.amount), 0);
    if (p.status === 'paid' && (sum !== Number(p.amount) + Number(p.discount) || !p.settled)) {
      f.paymentsHalfWritten.push(
        `payment ${p.id} paid: applied ${sum} of ${Number(p.amount) + Number(p.discount)}, settled ${p.settled}`,
      );
    }
    if (p.status !== 'paid' && sum !== 0) f.paymentsHalfWritten.push(`payment ${p.id} ${p.status}: applied ${sum}`);
    if (p.status === 'pending' && p.settled) f.paymentsHalfWritten.push(`payment ${p.id} pending with a settle time`);
  }

  return {
    findings: f,
    tally: {
      inquiries: inquiries.length,
      acknowledgedForms: forms.filter((a) => a.outcome === 201).length,
      unansweredForms: forms.filter((a) => a.outcome === 'no answer').length,
      unansweredFormsStored,
      payments: paymentRows.length,
      acknowledgedPayments: payments.filter((a) => a.outcome === 200).length,
      unansweredPayments: payments.filter((a) => a.outcome === 'no answer').length,
      unansweredPaymentsStored,
      pendingPayments: paymentRows.filter((p) => p.status === 'pending').length,
    },
  };
}
