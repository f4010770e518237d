import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildBylawsDocument, roman, type BylawsDocument } from '../../../shared/bylaws/document.ts';
import { BYLAW_SCHEMAS, SCHOOL_CLAUSES, type BylawAnswers, type BylawVariant } from '../../../shared/schemas/bylaws.ts';
import { renderBylawsDocx } from './render-docx.ts';

const BRANDS = { brand: 'GoodStanding', shortBrand: 'BoosterBasics' };
const HIGHLIGHT = '<w:highlight w:val="yellow"/>';

const RAW: Record<BylawVariant, Record<string, unknown>> = {
  standard: {
    version: 'standard',
    name: 'Soldotna Track Boosters',
    purpose: 'To buy equipment for the Soldotna High School track teams.',
    facility: 'Soldotna High School',
    meeting_attendee_minimum: '15',
    meeting_request_minimum: '1/4',
    nomination_month: '2',
    annual_meeting_month: '3',
    fiscal_year_end: '5',
    is_school: 0,
    is_highlighted: 1,
  },
  school: {
    version: 'school',
    name: 'Kenai Central Hockey Boosters',
    purpose: 'To fund ice time for Kenai Central hockey players.',
    facility: 'Kenai Central High School',
    meeting_attendee_minimum: '20%',
    meeting_request_minimum: '1/10',
    nomination_month: '1',
    annual_meeting_month: '2',
    fiscal_year_end: '6',
    is_highlighted: 1,
    school_official_title: 'Activities Director',
    ...Object.fromEntries(SCHOOL_CLAUSES.map((c) => [c, 1])),
  },
  short: {
    version: 'short',
    name: 'Riverside PTO',
    purpose: 'To provide classroom supplies for Riverside Elementary.',
    fiscal_year_end: '11',
    is_highlighted: 1,
  },
};

const model = (variant: BylawVariant, overrides: Record<string, unknown> = {}): BylawsDocument =>
  buildBylawsDocument(BYLAW_SCHEMAS[variant].parse({ ...RAW[variant], ...overrides }) as BylawAnswers, BRANDS);

/** The parts of the .docx (a zip), as text. */
async function parts(doc: BylawsDocument): Promise<Record<string, string>> {
  const bytes = await renderBylawsDocx(doc);
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  const files = unzipSync(new Uint8Array(bytes));
  return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]));
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Each <w:r> run of a WordprocessingML part: its text and whether it is highlighted. */
function runs(xml: string): { text: string; highlighted: boolean }[] {
  return [...xml.matchAll(/<w:r>([\s\S]*?)<\/w:r>/g)].map(([, inner]) => ({
    text: unescape([...inner!.matchAll(/<w:t(?:\s[^>]*)?>([\s\S]*?)<\/w:t>/g)].map((m) => m[1]).join('')),
    highlighted: inner!.includes(HIGHLIGHT),
  }));
}
const plainText = (xml: string) =>
  runs(xml)
    .map((r) => r.text)
    .join('');

describe('renderBylawsDocx: the Word file', () => {
  it('is an Office Open XML package with the document and the footer', async () => {
    const files = await parts(model('standard'));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['[Content_Types].xml', 'word/document.xml', 'word/styles.xml']),
    );
    expect(files['[Content_Types].xml']).toContain(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    );
    const footer = Object.entries(files).find(([name]) => /^word\/footer\d*\.xml$/.test(name));
    expect(footer, 'a footer part').toBeTruthy();
    expect(plainText(footer![1])).toBe(
      'Prepared with GoodStanding. General guidance, not legal advice: review before adopting.',
    );
  });

  it('writes the answers, the articles and the certificate into word/document.xml', async () => {
    const doc = model('standard');
    const text = plainText((await parts(doc))['word/document.xml']!);
    for (const expected of [
      'Bylaws of Soldotna Track Boosters',
      'The name of this organization is Soldotna Track Boosters',
      'the specific purpose of the Organization is: To buy equipment for the Soldotna High School track teams.',
      'The Organization is organized to support Soldotna High School',
      'is fifteen (15) voting members in good standing',
      'upon the written request of one-fourth (1/4) of the voting members',
      'shall be held in April of each year',
      'Nominations for office open in March of each year',
      'begins on the first day of July and ends on the last day of June',
      'by the fifteenth day of November',
      'Article I. Name',
      'Article IX. Dissolution',
      'Section 5. Quorum. ',
      'Certificate of adoption',
    ])
      expect(text, expected).toContain(expected);
  });

  it('school variant: the official title and every clause article', async () => {
    const doc = model('school');
    const text = plainText((await parts(doc))['word/document.xml']!);
    expect(text).toContain(
      'The Activities Director is the school official through whom the Organization deals with Kenai Central High School.',
    );
    for (const art of doc.articles) expect(text, art.title).toContain(`Article ${roman(art.number)}. ${art.title}`);
    expect(doc.articles).toHaveLength(20);
    expect(text).toContain('Article XVIII. Handling of Funds');
  });

  it('short variant: the short brand in the footer', async () => {
    const files = await parts(model('short'));
    const footers = Object.entries(files)
      .filter(([name]) => /^word\/footer\d*\.xml$/.test(name))
      .map(([, xml]) => plainText(xml))
      .join('\n');
    expect(footers).toContain('Prepared with BoosterBasics.');
    expect(footers).not.toContain('GoodStanding');
    expect(plainText(files['word/document.xml']!)).toContain('Bylaws of Riverside PTO');
  });

  for (const variant of ['standard', 'school', 'short'] as const) {
    it(`${variant}: highlighted answers get yellow highlight, and only the answers`, async () => {
      const doc = model(variant, { is_highlighted: 1 });
      const xml = (await parts(doc))['word/document.xml']!;
      expect(xml).toContain(HIGHLIGHT);
      const all = runs(xml);
      const highlighted = new Set(all.filter((r) => r.highlighted).map((r) => r.text));
      const answers = new Set(
        doc.articles
          .flatMap((a) => a.sections.flatMap((s) => s.paragraphs.flat()))
          .concat(doc.title, doc.preamble.flat(), doc.certification.flat())
          .filter((r) => r.answer)
          .map((r) => r.text),
      );
      expect(highlighted).toEqual(answers);
      expect(highlighted.has(RAW[variant].name as string)).toBe(true);
      expect(highlighted.has(RAW[variant].purpose as string)).toBe(true);
      // Fixed wording is never highlighted.
      expect(all.filter((r) => r.text.startsWith('Bylaws of ')).every((r) => !r.highlighted)).toBe(true);
      expect(all.filter((r) => r.text.startsWith('Section ')).every((r) => !r.highlighted)).toBe(true);
    });

    it(`${variant}: without highlighting there is no highlight at all, the answers are still there`, async () => {
      const xml = (await parts(model(variant, { is_highlighted: 0 })))['word/document.xml']!;
      expect(xml).not.toContain('<w:highlight');
      const text = plainText(xml);
      expect(text).toContain(RAW[variant].name as string);
      expect(text).toContain(RAW[variant].purpose as string);
    });
  }

  it('escapes XML in the answers', async () => {
    const name = 'Smith & Jones <Boosters> "Club"';
    const xml = (await parts(model('short', { name })))['word/document.xml']!;
    expect(xml).toContain('Smith &amp; Jones &lt;Boosters&gt;');
    expect(xml).not.toContain('<Boosters>');
    expect(plainText(xml)).toContain(`Bylaws of ${name}`);
  });
});
