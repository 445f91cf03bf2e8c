import { winAnsi } from './report-text';

/** The page furniture every part of the quote draws with: sizes, colours, headings, lists. */
export type Doc = PDFKit.PDFDocument;

/** The document's bytes once `doc.end()` is called: listened for before drawing starts, so no chunk is missed. */
export function pdfBytes(doc: Doc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

export const MARGIN = 42;
/** Room under the content for the footer line. */
export const BOTTOM_MARGIN = 50;

export const COLOUR = {
  brand: '#2e6b3a',
  brandLight: '#eef5ee',
  text: '#1f2933',
  muted: '#56616b',
  rule: '#d5dbd6',
  warn: '#9a5700',
  warnLight: '#fff5e0',
  box: '#f4f5f4',
};

export function pageBottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

export function contentRight(doc: Doc): number {
  return doc.page.width - doc.page.margins.right;
}

export function contentWidth(doc: Doc): number {
  return contentRight(doc) - MARGIN;
}

export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > pageBottom(doc)) doc.addPage();
}

/** How far below a section heading's top its content starts. */
export const SECTION_HEADING_HEIGHT = 20;

/** A green title over a hairline; returns where the section's content starts. */
export function sectionHeading(doc: Doc, title: string, x: number, y: number, width: number): number {
  doc.fillColor(COLOUR.brand).font('Helvetica-Bold').fontSize(11.5).text(title, x, y, { width, lineBreak: false });
  doc.moveTo(x, y + 15).lineTo(x + width, y + 15).lineWidth(0.75).stroke(COLOUR.rule);
  return y + SECTION_HEADING_HEIGHT;
}

/** Label and value pairs, the label muted; returns the y under the last row. */
export function keyValueRows(doc: Doc, rows: [string, string][], x: number, y: number, width: number, labelWidth: number): number {
  for (const [label, value] of rows) {
    doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(9).text(label, x, y + 1, { width: labelWidth });
    const labelBottom = doc.y;
    doc.fillColor(COLOUR.text).font('Helvetica-Bold').fontSize(10).text(winAnsi(value), x + labelWidth, y, { width: width - labelWidth });
    y = Math.max(doc.y, labelBottom) + 5;
  }
  return y;
}

/** A bulleted list that flows onto further pages, never splitting an item. */
export function drawList(doc: Doc, title: string, items: string[], bulletColour: string, empty = 'None noted.'): void {
  const width = contentWidth(doc);
  const textX = MARGIN + 13;
  const entries = items.length > 0 ? items.map(winAnsi) : [empty];
  const heightOf = (text: string) => doc.font('Helvetica').fontSize(9).heightOfString(text, { width: width - 13, lineGap: 0.5 });
  ensureSpace(doc, 28 + heightOf(entries[0] ?? ''));
  let y = sectionHeading(doc, title, MARGIN, doc.y, width);
  for (const entry of entries) {
    const height = heightOf(entry);
    if (y + height > pageBottom(doc)) {
      doc.addPage();
      y = sectionHeading(doc, `${title} (continued)`, MARGIN, doc.y, width);
    }
    if (items.length > 0) doc.circle(MARGIN + 4, y + 4.3, 1.9).fill(bulletColour);
    doc.fillColor(items.length > 0 ? COLOUR.text : COLOUR.muted).font('Helvetica').fontSize(9);
    doc.text(entry, textX, y, { width: width - 13, lineGap: 0.5 });
    y = doc.y + 2.5;
  }
  doc.y = y + 9;
}

/** A tick drawn as a path: the standard fonts have no check mark. */
export function drawTick(doc: Doc, x: number, y: number, colour: string): void {
  doc.save().lineWidth(1.6).lineCap('round').lineJoin('round');
  doc.moveTo(x, y + 4).lineTo(x + 3, y + 7).lineTo(x + 8.5, y + 0.5).stroke(colour);
  doc.restore();
}

/** A short dash for what is not included. */
export function drawDash(doc: Doc, x: number, y: number, colour: string): void {
  doc.save().lineWidth(1.4).lineCap('round');
  doc.moveTo(x + 1, y + 4).lineTo(x + 7.5, y + 4).stroke(colour);
  doc.restore();
}

/**
 * Every page's foot, for both quotes: a rule, the page's own words at the left in their colour
 * (`left`, by the page's index from 0) and "Page N of M" at the right, in `font` at `size`.
 * Written inside the bottom margin, which pdfkit would otherwise take as a reason for a new page.
 */
export function drawPageFooters(doc: Doc, font: string, size: number, left: (page: number) => { text: string; colour: string }): void {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - 32;
    const width = contentWidth(doc);
    doc.moveTo(MARGIN, y - 8).lineTo(MARGIN + width, y - 8).lineWidth(0.5).stroke(COLOUR.rule);
    const { text, colour } = left(i - start);
    doc.fillColor(colour).font(font).fontSize(size);
    doc.text(text, MARGIN, y, { width: (width * 2) / 3, lineBreak: false });
    doc.fillColor(COLOUR.muted).text(`Page ${i - start + 1} of ${count}`, MARGIN + width / 3, y, { width: (width * 2) / 3, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

let pdfkit: Promise<typeof import('pdfkit')> | undefined;
/** pdfkit, loaded once on the first document made (not at start-up). */
export const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((module) => module.default));
