import { eq, inArray } from 'drizzle-orm';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { LETTER_STATES, periodText, releaseDateText, subsectionLabel } from '../../../shared/rules/standing.ts';
import { accounts, irsReleases } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { renderPdf } from '../../pdf.ts';
import { getCompany } from '../content/get-company.ts';
import { standingColumns, standingOfAccount, standingView } from './get-standing.ts';
import { IRS_DATASET_NAMES } from './irs-files.ts';
import { latestIrsReleases } from './load-release.ts';
import type { Pub78Listing } from '../../../shared/rules/deductibility.ts';
import type { Db } from '../../db/client.ts';
import type { FastifyReply } from 'fastify';

/**
 * The good-standing letter of an account as a PDF (docs/irs-standing.md "Letter"): the group's
 * name, EIN, group exemption, status and latest return per the IRS data, the next due date, and
 * the IRS releases (data set, file, release date) it rests on, with the address of its public
 * profile for a reader to check it. Issued only while the standing is one of LETTER_STATES.
 * Reads only.
 * @param today the letter's date, 'YYYY-MM-DD'
 * @param publicUrl the site's address, for the profile link
 * @returns the PDF bytes and a file name ('good-standing-<EIN or id>-<today>.pdf')
 * @throws HttpError 404 when there is no such account; 409 with the standing's label when the IRS
 *   data does not show the group in good standing
 */
export async function standingLetter(
  db: Db,
  accountId: number,
  today: string,
  publicUrl: string,
): Promise<{ pdf: Buffer; fileName: string }> {
  const [a] = await db
    .select({
      name: accounts.name,
      legalName: accounts.legalName,
      gen: accounts.gen,
      subsection: accounts.subsection,
      city: accounts.city,
      state: accounts.state,
      irs: standingColumns,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!a) throw notFound('The account');
  const view = standingView(a.irs, await standingOfAccount(db, a.irs, today));
  if (!LETTER_STATES.includes(view.state)) {
    throw new HttpError(
      409,
      `A good-standing letter needs the IRS data to show the group in good standing. It shows: ${view.label}.`,
    );
  }
  const irs = view.irs;
  const latest = await latestIrsReleases(db);
  const ids = [
    a.irs.bmfReleaseId,
    latest.epostcard?.id,
    latest.revocations?.id,
    irs.pub78 ? latest.pub78?.id : undefined,
  ].filter((id): id is number => typeof id === 'number');
  const releases = ids.length ? await db.select().from(irsReleases).where(inArray(irsReleases.id, ids)) : [];
  const company = await getCompany(db);
  const ein = a.irs.ein ? formatEin(a.irs.ein) : 'not on file';

  const pdf = await renderPdf(
    (doc) => {
      doc.font('Helvetica-Bold').fontSize(16).text(company.name);
      doc
        .font('Helvetica')
        .fontSize(10)
        .fillColor('#555')
        .text([company.phone, company.email].filter(Boolean).join(' · '));
      doc.moveDown(2).fillColor('#000').fontSize(11).text(longDate(today));
      doc.moveDown(1.5).font('Helvetica-Bold').fontSize(14).text('Statement of good standing with the IRS');
      doc.moveDown().font('Helvetica').fontSize(11);
      doc.text(`${a.name}${a.city || a.state ? `, ${[a.city, a.state].filter(Boolean).join(', ')}` : ''}`);
      doc.text(`EIN ${ein}`);
      if (a.gen)
        doc.text(
          `Covered by group exemption number (GEN) ${a.gen}${a.legalName && a.legalName !== a.name ? ` of ${a.legalName}` : ''}`,
        );
      doc.moveDown();
      doc.text(`According to the IRS data cited below, this organization is ${view.label.toLowerCase()}:`);
      doc.moveDown(0.5);
      const facts: [string, string][] = [
        [
          'Exemption',
          [subsectionLabel(a.subsection), irs.status_meaning].filter(Boolean).join(', ') ||
            'On the IRS Business Master File',
        ],
        ['Annual return owed', irs.return_owed || 'Not stated in the IRS data'],
        [
          'Latest return on file',
          irs.latest_period_filed ? `Tax ${periodText(irs.latest_period_filed)}` : 'None needed yet',
        ],
        ['Missed returns', irs.missed_tax_years.length ? irs.missed_tax_years.join(', ') : 'None'],
        ...(irs.awaiting_data_tax_years.length
          ? [
              [
                'Not in the IRS data yet',
                `the return${irs.awaiting_data_tax_years.length > 1 ? 's' : ''} for tax year${irs.awaiting_data_tax_years.length > 1 ? 's' : ''} ${irs.awaiting_data_tax_years.join(', ')}, due after these releases`,
              ] as [string, string],
            ]
          : []),
        ['Next return due', irs.next_due ? longDate(irs.next_due.due) : 'No annual return required'],
        ...(irs.reinstated_on ? [['Reinstated', longDate(irs.reinstated_on)] as [string, string]] : []),
        ...(irs.pub78 ? [['Publication 78', pub78Sentence(irs.pub78)] as [string, string]] : []),
      ];
      for (const [label, value] of facts) {
        doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value);
      }
      doc.moveDown();
      doc.font('Helvetica-Bold').text('IRS data cited');
      doc.font('Helvetica');
      for (const r of releases.sort((x, y) => x.dataset.localeCompare(y.dataset))) {
        doc.text(
          `${IRS_DATASET_NAMES[r.dataset]}: ${r.fileName}, released ${releaseDateText(r.releasedPrecision === 'month' ? r.releasedOn.slice(0, 7) : r.releasedOn)} (SHA-256 ${r.sha256.slice(0, 16)}…)`,
        );
      }
      if (!releases.length) doc.text('No IRS data release is recorded for this organization.');
      doc.moveDown();
      doc
        .fontSize(9)
        .fillColor('#555')
        .text(
          `This statement reads the IRS's public data as of the releases above; it is not an IRS determination letter. ` +
            `Check the current standing at ${publicUrl}/app/account/show/${accountId} or with the IRS's Tax Exempt Organization Search (https://apps.irs.gov/app/eos/).`,
        );
    },
    { Title: `Statement of good standing: ${a.name}`, Author: company.name },
  );
  return { pdf, fileName: `good-standing-${a.irs.ein ?? accountId}-${today}.pdf` };
}

/** The Publication 78 fact as the letter states it (docs/irs-data.md "Publication 78 data"). */
function pub78Sentence(p: Pub78Listing): string {
  if (p.status === 'listed')
    return `listed as eligible to receive tax-deductible contributions (${p.codes.map((c) => c.code).join(', ')})`;
  if (p.status === 'through_central')
    return 'not listed on its own; its central organization is listed with the GROUP code, which covers the subordinates of its group exemption';
  return 'not listed';
}

/** Sends a letter as a PDF download, never cached (it is the group's own record). */
export function sendLetter(reply: FastifyReply, letter: { pdf: Buffer; fileName: string }) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${letter.fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(letter.pdf);
}
