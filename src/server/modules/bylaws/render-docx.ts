import { AlignmentType, Document, Footer, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { roman, type BylawsDocument, type Paragraph as ModelParagraph } from '../../../shared/bylaws/document.ts';

const FONT = 'Calibri';

/**
 * Writes the bylaws document model as a Word document (.docx, Office Open XML) with the `docx`
 * library (docs/requirements/platform.md §1). Answer runs are highlighted yellow when the model says so (is_highlighted).
 * @returns the file's bytes
 */
export async function renderBylawsDocx(model: BylawsDocument): Promise<Buffer> {
  const runs = (para: ModelParagraph, extra: { bold?: boolean; size?: number } = {}) =>
    para.map(
      (r) =>
        new TextRun({
          text: r.text,
          font: FONT,
          ...extra,
          ...(r.answer && model.highlighted ? { highlight: 'yellow' } : {}),
        }),
    );

  const children: Paragraph[] = [
    new Paragraph({
      heading: HeadingLevel.TITLE,
      alignment: AlignmentType.CENTER,
      spacing: { after: 240 },
      children: runs(model.title, { bold: true, size: 36 }),
    }),
    ...model.preamble.map((para) => new Paragraph({ spacing: { after: 240 }, children: runs(para) })),
  ];
  for (const article of model.articles) {
    children.push(
      new Paragraph({
        heading: HeadingLevel.HEADING_1,
        alignment: AlignmentType.CENTER,
        spacing: { before: 360, after: 120 },
        keepNext: true,
        children: [
          new TextRun({ text: `Article ${roman(article.number)}. ${article.title}`, font: FONT, bold: true, size: 26 }),
        ],
      }),
    );
    article.sections.forEach((section, i) => {
      section.paragraphs.forEach((para, j) => {
        children.push(
          new Paragraph({
            spacing: { after: 160 },
            alignment: AlignmentType.JUSTIFIED,
            children: [
              ...(j === 0
                ? [new TextRun({ text: `Section ${i + 1}. ${section.title}. `, font: FONT, bold: true })]
                : []),
              ...runs(para),
            ],
          }),
        );
      });
    });
  }
  const [certTitle, ...certLines] = model.certification;
  children.push(
    new Paragraph({
      heading: HeadingLevel.HEADING_2,
      spacing: { before: 480, after: 160 },
      keepNext: true,
      children: runs(certTitle ?? [], { bold: true }),
    }),
  );
  for (const line of certLines) children.push(new Paragraph({ spacing: { after: 200 }, children: runs(line) }));

  const doc = new Document({
    creator: model.brand,
    title: model.title.map((r) => r.text).join(''),
    styles: { default: { document: { run: { font: FONT, size: 22 } } } },
    sections: [
      {
        properties: { page: { margin: { top: 1440, bottom: 1440, left: 1440, right: 1440 } } },
        footers: {
          default: new Footer({
            children: [
              new Paragraph({
                alignment: AlignmentType.CENTER,
                children: [new TextRun({ text: model.footer, font: FONT, size: 16, color: '666666' })],
              }),
            ],
          }),
        },
        children,
      },
    ],
  });
  return Packer.toBuffer(doc);
}
