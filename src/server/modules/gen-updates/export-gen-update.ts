import { MONTH_NAMES } from '../../../shared/lists/months.ts';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { FOUNDATION_CODES } from '../../../shared/rules/gen-update.ts';
import { subsectionLabel } from '../../../shared/rules/standing.ts';
import { csvText } from '../../csv.ts';
import { HttpError } from '../../errors.ts';
import { renderPdf } from '../../pdf.ts';
import { getCompany } from '../content/get-company.ts';
import { buildGenUpdate } from './build-gen-update.ts';
import type { GenItem, GenUpdateView } from '../../../shared/schemas/gen-updates.ts';
import type { Db } from '../../db/client.ts';

/** How each line's action is written in the exports. */
const ACTION_LABELS: Record<GenItem['action'], string> = {
  add: 'Addition',
  delete: 'Deletion',
  change: 'Change',
  roster: 'On the roster (first update)',
  unchanged: 'Unchanged',
};

/** The columns of the CSV export, in order. */
const GEN_CSV_COLUMNS = [
  'Action',
  'EIN',
  'Name',
  'Street',
  'City',
  'State',
  'ZIP',
  '501(c) paragraph',
  'Foundation code',
  'Foundation classification',
  'Private foundation',
  'What changed',
] as const;

const formatEin = (ein: string | null) =>
  ein && /^\d{9}$/.test(ein) ? `${ein.slice(0, 2)}-${ein.slice(2)}` : (ein ?? '');
const privateFoundation = (v: boolean | null) => (v === null ? 'Not stated' : v ? 'Yes' : 'No');
const changesText = (i: GenItem) =>
  (i.changes ?? []).map((c) => `${c.field}: ${c.before ?? '(none)'} -> ${c.after ?? '(none)'}`).join('; ');

/** The cells of one line, in GEN_CSV_COLUMNS order. */
function lineCells(i: GenItem): string[] {
  return [
    ACTION_LABELS[i.action],
    formatEin(i.ein),
    i.name,
    i.street,
    i.city,
    i.state,
    i.zip,
    subsectionLabel(i.subsection),
    i.foundation ?? '',
    (i.foundation && FOUNDATION_CODES[i.foundation]) || '',
    privateFoundation(i.private_foundation),
    changesText(i),
  ];
}

/** Loads the update to export; refuses one that cannot be built yet (settings missing). */
async function exportable(
  db: Db,
  input: { groupId?: number; periodEnd?: string },
  today: string,
): Promise<
  GenUpdateView & { period: NonNullable<GenUpdateView['period']>; group: NonNullable<GenUpdateView['group']> }
> {
  const { view } = await buildGenUpdate(db, input, today);
  if (!view.group || !view.period)
    throw new HttpError(
      409,
      'Set the accounting period end month in the GEN settings before exporting the annual update.',
    );
  return view as never;
}

const fileBase = (v: { group: { gen: string }; period: { period_end: string } }) =>
  `gen-${v.group.gen}-annual-update-${v.period.period_end}`;

/**
 * GET /api/admin/gen-update/export.csv (docs/irs-gen-duties.md "Export"; staff only): the lines of
 * the annual update (the frozen ones once submitted) as CSV, one row per subordinate added,
 * deleted or changed (every subordinate on the first update), columns GEN_CSV_COLUMNS, CRLF line
 * ends, UTF-8. Reads only.
 * @returns the CSV text and its file name 'gen-<GEN>-annual-update-<period end>.csv'
 * @throws HttpError 404 unknown group; 409 when the settings have no accounting period yet
 */
export async function genUpdateCsv(
  db: Db,
  input: { groupId?: number; periodEnd?: string },
  today: string,
): Promise<{ csv: string; fileName: string }> {
  const view = await exportable(db, input, today);
  return { csv: csvText(GEN_CSV_COLUMNS, view.items.map(lineCells)), fileName: `${fileBase(view)}.csv` };
}

/**
 * GET /api/admin/gen-update/export.pdf (docs/irs-gen-duties.md "Export"; staff only): the annual
 * update as a PDF for the record: the central organization (name, EIN, GEN, 501(c) paragraph,
 * accounting period), the window, the uniform purpose statement, the checks with their reasons,
 * the submission if recorded, and the lines grouped as additions, deletions and changes (or the
 * whole roster on the first update; a statement when there is none). Reads only.
 * @returns the PDF bytes and its file name 'gen-<GEN>-annual-update-<period end>.pdf'
 * @throws HttpError 404 unknown group; 409 when the settings have no accounting period yet
 */
export async function genUpdatePdf(
  db: Db,
  input: { groupId?: number; periodEnd?: string },
  today: string,
): Promise<{ pdf: Buffer; fileName: string }> {
  const v = await exportable(db, input, today);
  const company = await getCompany(db);
  const g = v.group;
  const pdf = await renderPdf(
    (doc) => {
      doc.font('Helvetica-Bold').fontSize(15).text(`Annual group exemption update: GEN ${g.gen}`);
      doc
        .font('Helvetica')
        .fontSize(10)
        .fillColor('#555')
        .text(`Prepared ${longDate(today)} with ${company.name}. Rev. Proc. 2026-8.`);
      doc.moveDown().fillColor('#000').fontSize(10);
      const facts: [string, string][] = [
        ['Central organization', g.central_name || 'Not set'],
        ['EIN', formatEin(g.central_ein) || 'Not set'],
        ['Group exemption number', g.gen],
        ['501(c) paragraph', subsectionLabel(g.subsection) || 'Not set'],
        [
          'Accounting period ends',
          `${longDate(v.period.period_end)}${g.accounting_period_end_month ? ` (every ${MONTH_NAMES[g.accounting_period_end_month - 1]})` : ''}`,
        ],
        [
          'Submission window',
          `${longDate(v.period.opens_on)} to ${longDate(v.period.closes_on)} (90 to 30 days before the period ends)`,
        ],
        [
          'Measured against',
          v.baseline
            ? `the update for the period ending ${longDate(v.baseline.period_end)}, submitted ${longDate(v.baseline.submitted_on)}`
            : 'nothing: first update, the whole roster is listed',
        ],
        [
          'Submitted',
          v.submission
            ? `${longDate(v.submission.submitted_on)}${v.submission.in_window ? '' : ' (outside the window)'}`
            : 'Not recorded yet',
        ],
      ];
      for (const [label, value] of facts)
        doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value);
      doc.moveDown().font('Helvetica-Bold').text('Uniform purpose statement');
      doc.font('Helvetica').text(g.uniform_purpose_statement.trim() || 'None on file.');
      doc.moveDown().font('Helvetica-Bold').text('Checks');
      for (const c of v.checks)
        doc
          .font('Helvetica-Bold')
          .text(`${c.passed ? 'Pass' : 'FAIL'} · ${c.label}: `, { continued: true })
          .font('Helvetica')
          .text(c.reason);

      const sections: [string, GenItem[]][] = v.baseline
        ? [
            ['Additions', v.items.filter((i) => i.action === 'add')],
            ['Deletions', v.items.filter((i) => i.action === 'delete')],
            ['Changes', v.items.filter((i) => i.action === 'change')],
          ]
        : [['Subordinates on the roster', v.items]];
      for (const [title, lines] of sections) {
        doc.moveDown().font('Helvetica-Bold').fontSize(12).text(`${title} (${lines.length})`).fontSize(9);
        if (!lines.length) doc.font('Helvetica').text('None.');
        for (const i of lines) {
          const address = [i.street, i.city, [i.state, i.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
          const code = i.foundation
            ? `foundation code ${i.foundation}${FOUNDATION_CODES[i.foundation] ? ` (${FOUNDATION_CODES[i.foundation]})` : ''}`
            : 'no foundation code';
          doc.font('Helvetica-Bold').text(`${formatEin(i.ein)}  ${i.name}`);
          doc
            .font('Helvetica')
            .text(
              `${address || 'No address on file'} · ${subsectionLabel(i.subsection) || 'no 501(c) paragraph'} · ${code} · private foundation: ${privateFoundation(i.private_foundation)}`,
              { indent: 12 },
            );
          if (i.changes?.length) doc.text(`Changed: ${changesText(i)}`, { indent: 12 });
        }
      }
      if (v.baseline && !v.items.length)
        doc
          .moveDown()
          .font('Helvetica')
          .fontSize(10)
          .text('No subordinates were added, deleted or changed since the last update.');
      const range = doc.bufferedPageRange();
      for (let p = range.start; p < range.start + range.count; p++) {
        doc.switchToPage(p);
        // Below the bottom margin pdfkit would start a new page for the footer.
        doc.page.margins.bottom = 0;
        doc
          .font('Helvetica')
          .fontSize(8)
          .fillColor('#555')
          .text(
            `GEN ${g.gen} · period ending ${longDate(v.period.period_end)} · page ${p + 1} of ${range.count}`,
            54,
            doc.page.height - 40,
            { lineBreak: false },
          );
      }
    },
    { Title: `Annual group exemption update GEN ${g.gen}, period ending ${v.period.period_end}`, Author: company.name },
    { margin: 54, bufferPages: true },
  );
  return { pdf, fileName: `${fileBase(v)}.pdf` };
}
