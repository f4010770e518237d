import type { Db } from '../../db/client.ts';
import { inquiries } from '../../db/schema.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
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
 * Stores a public form submission (SPEC tools 6-9) and queues two mails in the same transaction:
 * the staff notice and the sender's acknowledgement.
 * Writes: one inquiries row, two mail_outbox rows. Nothing is written if any insert fails.
 * @returns the new inquiry id
 */
export async function createInquiry(db: Db, kind: InquiryKind, fields: InquiryFields, ip: string, mail: InquiryMailSettings): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(inquiries)
      .values({
        kind,
        name: fields.name ?? '',
        email: fields.email,
        phone: fields.phone ?? '',
        organization: fields.organization ?? '',
        details: fields.details,
        ip,
      })
      .returning({ id: inquiries.id });
    const body = describe(kind, fields);
    await enqueueMail(tx, [
      {
        kind: 'inquiry.staff',
        to: mail.staffEmail,
        subject: `New ${INQUIRY_KIND_LABELS[kind].toLowerCase()} request #${row.id} from ${fields.name || fields.email}`,
        text: `${body}\n\nOpen it: ${mail.publicUrl}/admin/inquiries/${row.id}\n`,
      },
      {
        kind: 'inquiry.ack',
        to: fields.email,
        subject: `We received your message - ${mail.companyName}`,
        text:
          `Hello${fields.name ? ` ${fields.name}` : ''},\n\nThank you for contacting ${mail.companyName}. ` +
          `Your message has been received and we'll get back with you shortly.\n\nWhat you sent us:\n\n${body}\n\n${mail.companyName}\n${mail.publicUrl}\n`,
      },
    ]);
    return row.id;
  });
}
