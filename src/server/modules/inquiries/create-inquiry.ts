import { sql } from 'drizzle-orm';
import { INQUIRY_KIND_LABELS, type InquiryKind } from '../../../shared/lists/subjects.ts';
import { dailyCounters, inquiries, mailOutbox } from '../../db/schema.ts';
import { defaultMailHtml } from '../mail/mail-html.ts';
import { typed, typedAddress, typedBlock } from '../mail/mail-words.ts';
import { TODAY_UTC } from '../quotas/daily-counters.ts';
import type { Db } from '../../db/client.ts';

export interface InquiryFields {
  name?: string;
  email: string;
  phone?: string;
  organization?: string;
  /** Every other field of the form, stored as details. */
  details: Record<string, unknown>;
}

export interface InquiryMailSettings {
  staffEmail: string;
  companyName: string;
  publicUrl: string;
}

/** One answer after its label, as the staff notice shows it: as typed, quoted, or as a quoted block under the label when it has several lines. */
function answer(value: unknown): string {
  const text = String(value);
  return /[\r\n\u2028\u2029]/.test(text.trim()) ? `\n${typedBlock(text.trim())}` : ` ${typed(text)}`;
}

/**
 * The staff notice's lines: every value the sender typed shown as typed (docs/security.md "Mail
 * carries only our links"), after the product's own labels.
 */
function describe(kind: InquiryKind, f: InquiryFields): string {
  const lines = [
    `Kind: ${INQUIRY_KIND_LABELS[kind]}`,
    f.name ? `Name:${answer(f.name)}` : '',
    `E-mail: ${typedAddress(f.email)}`,
    f.phone ? `Phone:${answer(f.phone)}` : '',
    f.organization ? `${kind === 'campus_report' ? 'Campus' : 'Organization'}:${answer(f.organization)}` : '',
    ...Object.entries(f.details)
      .filter(([, v]) => v !== '' && v !== undefined)
      .map(([k, v]) => `${k}:${answer(v)}`),
  ];
  return lines.filter(Boolean).join('\n');
}

/** Where the new inquiry's id goes in the staff notice, filled in by the statement that stores it. */
const INQUIRY_ID = '{inquiry-id}';

/** The mail kinds of a public form: the staff notice and the sender's acknowledgement. */
const INQUIRY_MAIL_KINDS = { staff: 'inquiry.staff', ack: 'inquiry.ack' } as const;

/** Acknowledgements mailed to one address per UTC day, across every server (docs/security.md "Public forms"). */
export const MAX_ACKS_PER_ADDRESS_PER_DAY = 3;

/** The daily_counters key that counts the acknowledgements mailed to `email` (compared in lower case). */
const ackCounterKey = (email: string) => `inquiry-ack:${email.toLowerCase()}`;

/**
 * The acknowledgement's text: only what the site itself writes (the company, the form's name, the
 * site's address), never anything the sender typed, not even their name, so the form cannot be
 * used to send someone else a text of one's choosing.
 */
function acknowledgementText(kind: InquiryKind, companyName: string, publicUrl: string): string {
  // publicUrl is the mail's one link (docs/security.md "Mail carries only our links").
  return (
    `Hello,\n\nThank you for contacting ${companyName}. Your message has been received and we'll get back with you shortly.\n\n` +
    `This is an automatic reply to the ${INQUIRY_KIND_LABELS[kind].toLowerCase()} form on ${publicUrl}. If you did not send it, you can ignore this e-mail.\n\n` +
    `${companyName}\n${publicUrl}\n`
  );
}

/**
 * Stores a public form submission (docs/requirements/product.md tools 6-9), queues the staff notice, and queues the
 * sender's acknowledgement unless MAX_ACKS_PER_ADDRESS_PER_DAY were already mailed to that address
 * today (UTC). The acknowledgement repeats nothing the sender typed (acknowledgementText); the
 * staff notice shows what they typed as typed, and links only the inquiry's staff page. Both
 * parts of both mails are written here (the outbox rows are the mails as sent; docs/mail.md
 * "Two parts"): they are the only mails not written by enqueueMail, which the one statement below replaces.
 * One statement (a data-modifying CTE) writes every row, so they exist together or not at all; on
 * PGlite, which runs one statement at a time, this is about twice the throughput of a
 * BEGIN/INSERT/INSERT/COMMIT transaction (npm run bench). The acknowledgements are counted by an
 * upsert on the address's daily_counters row, which raises the count only while it is below the
 * cap: PostgreSQL locks that row for the statement, so submissions arriving at once on several
 * servers queue there and at most the cap are acknowledged; once the cap is reached the row is
 * only read.
 * Writes: one inquiries row, one or two mail_outbox rows, the address's daily_counters row.
 * @returns the new inquiry id
 */
export async function createInquiry(
  db: Db,
  kind: InquiryKind,
  fields: InquiryFields,
  ip: string,
  mail: InquiryMailSettings,
): Promise<number> {
  const body = describe(kind, fields);
  // Nothing the sender typed goes into a subject: their name is in the notice's text, as typed.
  const staffSubject = `New ${INQUIRY_KIND_LABELS[kind].toLowerCase()} request #${INQUIRY_ID}`;
  const staffLink = `${mail.publicUrl}/admin/inquiries/${INQUIRY_ID}`;
  const staffText = `${body}\n\nOpen it: ${staffLink}\n`;
  const staffHtml = defaultMailHtml(staffSubject, staffText, [staffLink]);
  const ackSubject = `We received your message - ${mail.companyName}`;
  const ackText = acknowledgementText(kind, mail.companyName, mail.publicUrl);
  const ackHtml = defaultMailHtml(ackSubject, ackText, [mail.publicUrl]);
  const ackKey = ackCounterKey(fields.email);
  const result = await db.execute(sql`
    WITH i AS (
      INSERT INTO ${inquiries} (kind, name, email, phone, organization, details, ip)
      VALUES (${kind}, ${fields.name ?? ''}, ${fields.email}, ${fields.phone ?? ''}, ${fields.organization ?? ''}, ${JSON.stringify(fields.details)}::jsonb, ${ip})
      RETURNING id
    ), ack AS (
      INSERT INTO ${dailyCounters} AS c (key, day, count)
      SELECT ${ackKey}, ${TODAY_UTC}, 1
      -- An address already at the cap is not even locked again (one busy address cannot queue every submission).
      WHERE NOT EXISTS (SELECT 1 FROM ${dailyCounters} d WHERE d.key = ${ackKey} AND d.day = ${TODAY_UTC} AND d.count >= ${MAX_ACKS_PER_ADDRESS_PER_DAY})
      ON CONFLICT (key, day) DO UPDATE SET count = c.count + 1 WHERE c.count < ${MAX_ACKS_PER_ADDRESS_PER_DAY}
      RETURNING count
    ), m AS (
      INSERT INTO ${mailOutbox} (kind, to_address, subject, text_body, html_body)
      SELECT ${INQUIRY_MAIL_KINDS.staff}, ${mail.staffEmail}, left(replace(${staffSubject}, ${INQUIRY_ID}, i.id::text), 300),
             replace(${staffText}, ${INQUIRY_ID}, i.id::text), replace(${staffHtml}, ${INQUIRY_ID}, i.id::text) FROM i
      UNION ALL
      SELECT ${INQUIRY_MAIL_KINDS.ack}, ${fields.email}, left(${ackSubject}, 300), ${ackText}, ${ackHtml} FROM i, ack
    )
    SELECT id FROM i`);
  return Number((result as unknown as { rows: { id: number }[] }).rows[0].id);
}
