/**
 * Draws a US Letter PDF with pdfkit and returns its bytes (the good-standing letter,
 * docs/irs-standing.md "Letter"; the annual GEN update, docs/irs-gen-duties.md "Export").
 * @param draw writes the pages on the document
 * @param info the PDF's Title, Author, ...
 * @param opts margin in points (default 72: one inch); bufferPages to number the pages at the end
 */
export async function renderPdf(
  draw: (doc: PDFKit.PDFDocument) => void,
  info: PDFKit.DocumentInfo,
  opts: { margin?: number; bufferPages?: boolean } = {},
): Promise<Buffer> {
  // pdfkit and its font engine are loaded with the first PDF, not at start (docs/operations.md "Memory").
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'LETTER',
      margin: opts.margin ?? 72,
      info,
      bufferPages: opts.bufferPages ?? false,
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}
