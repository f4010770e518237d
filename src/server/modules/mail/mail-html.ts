/*
 * The HTML part of every mail (docs/mail.md "Two parts"). Mail clients ignore <style> blocks and
 * classes more often than not, so the layout is a single table with inline styles, readable
 * without images and at any width.
 */

import { formatLocalDateTime } from '../../../shared/rules/formats.ts';
import { findLinks } from './mail-words.ts';

/** A moment as the mails print it: 'November 26, 2026 3:16 pm UTC'. */
export const mailDateTime = (at: Date): string => `${formatLocalDateTime(at)} UTC`;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside HTML elements and quoted attributes. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** One line of plain text as HTML: escaped, the mail's own `links` (and only they) made into links. */
function lineToHtml(line: string, links: readonly string[]): string {
  let out = '';
  let last = 0;
  for (const link of findLinks(line, links)) {
    out += escapeHtml(line.slice(last, link.start));
    const href = escapeHtml(link.href);
    out += `<a href="${href}" style="color:#1c5fb0;word-break:break-all">${href}</a>`;
    last = link.end;
  }
  return out + escapeHtml(line.slice(last));
}

/**
 * A mail's plain text as HTML paragraphs: blank lines separate paragraphs, single line breaks are
 * kept, everything is escaped. Only the mail's own links, the addresses listed in `links` where
 * they stand whole in the text, become links: an address in the text is never linked because it
 * looks like one (docs/security.md "Mail carries only our links"). Nothing is dropped or added.
 * @param links the mail's own links (MailToQueue.links), each made from config.publicUrl or one of IRS_PAGES
 */
export function textToHtml(text: string, links: readonly string[] = []): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map(
      (para) =>
        `<p style="margin:0 0 16px 0">${para
          .split('\n')
          .map((line) => lineToHtml(line, links))
          .join('<br>')}</p>`,
    )
    .join('\n');
}

/**
 * The branded frame around a mail's HTML content: a heading with `subject` (escaped) above
 * `innerHtml` (already safe HTML), in a 600 px column on a light background.
 * @returns a whole HTML document
 */
export function mailLayout(subject: string, innerHtml: string): string {
  const title = escapeHtml(subject);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="margin:0;padding:0;background:#f1f3f5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f3f5"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;border-top:6px solid #1c5fb0">
<tr><td style="padding:24px 28px 8px 28px;font-family:Arial,Helvetica,sans-serif">
<h1 style="margin:0;font-size:20px;line-height:1.3;color:#1a1b1e">${title}</h1>
</td></tr>
<tr><td style="padding:16px 28px 24px 28px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1b1e">
${innerHtml}
</td></tr>
</table>
</td></tr></table>
</body></html>`;
}

/**
 * The default HTML part of a mail that brings none of its own: its text in the layout, with its
 * own `links` (none for a mail written before links were listed: nothing is linked then).
 */
export function defaultMailHtml(subject: string, text: string, links: readonly string[] = []): string {
  return mailLayout(subject, textToHtml(text, links));
}
