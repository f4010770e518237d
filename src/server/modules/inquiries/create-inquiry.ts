import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { inquiries, mailOutbox } from '../../db/schema.ts';
import { INQUIRY_KIND_LABELS, type InquiryKind } from '../../../shared/lists/subjects.ts';

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

function describe(kind: InquiryKind, f: InquiryFields): string {
  const lines = [
    `Kind: ${INQUIRY_KIND_LABELS[kind]}`,
    f.name ? `Name: ${f.name}` : '',
    `E-mail: ${f.email}`,
    f.phone ? `Phone: ${f.phone}` : '',
    f.organization ? `${kind === 'campus_report' ? 'Campus' : 'Organization'}: ${f.organization}` : '',
    ...Object.entries(f.details).filter(([, v]) => v !== '' && v !== undefined).map(([k, v]) => `${k}: ${String(v)}`),
  ];
  return lines.filter(Boolean).join('\n');
}

/**
 * Stores a public form submission (SPEC tools 6-9) and queues two mails: the staff notice and the
 * sender's acknowledgement. One statement (a data-modifying CTE) writes all three rows, so they
 * exist together or not at all; on PGlite, which runs one statement at a time, this is about
 * twice the throughput of a BEGIN/INSERT/INSERT/COMMIT transaction (npm run bench).
 * Writes: one inquiries row, two mail_outbox rows.
 * @returns the new inquiry id
 */
export async function createInquiry(db: Db, kind: InquiryKind, fields: InquiryFields, ip: string, mail: InquiryMailSettings): Promise<number> {
  const body = describe(kind, fields);
  const staffSubject = `New ${INQUIRY_KIND_LABELS[kind].toLowerCase()} request #`;
  const staffFrom = ` from ${fields.name || fields.email}`;
  const ackSubject = `We received your message - ${mail.companyName}`;
  const ackText =
    `Hello${fields.name ? ` ${fields.name}` : ''},\n\nThank you for contacting ${mail.companyName}. ` +
    `Your message has been received and we'll get back with you shortly.\n\nWhat you sent us:\n\n${body}\n\n${mail.companyName}\n${mail.publicUrl}\n`;
  const result = await db.execute(sql`
    WITH i AS (
      INSERT INTO ${inquiries} (kind, name, email, phone, organization, details, ip)
      VALUES (${kind}, ${fields.name ?? ''}, ${fields.email}, ${fields.phone ?? ''}, ${fields.organization ?? ''}, ${JSON.stringify(fields.details)}::jsonb, ${ip})
      RETURNING id
    ), m AS (
      INSERT INTO ${mailOutbox} (kind, to_address, subject, text_body)
      SELECT 'inquiry.staff', ${mail.staffEmail}, left(${staffSubject} || i.id || ${staffFrom}, 300),
             ${`${body}\n\nOpen it: ${mail.publicUrl}/admin/inquiries/`} || i.id || E'\n' FROM i
      UNION ALL
      SELECT 'inquiry.ack', ${fields.email}, left(${ackSubject}, 300), ${ackText} FROM i
    )
    SELECT id FROM i`);
  return Number((result as unknown as { rows: { id: number }[] }).rows[0].id);
}
