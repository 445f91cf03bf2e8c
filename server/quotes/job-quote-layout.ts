import { accentPalette } from '../../core/accent';
import { vatNumberLine } from '../../core/company-profile';
import { QUOTE_FONT, quoteText } from './job-quote-font';
import { COLOUR, MARGIN, contentRight, contentWidth, pageBottom, type Doc } from './report-layout';

/**
 * The job quote's page furniture: the one-tree report's sizes and colours (report-layout.ts),
 * drawn in the embedded font, with the business's accent where the report has its green.
 * Values are printed as given: the caller passes them through quoteText once.
 */
export interface QuoteTheme {
  /** Headings, rules and the total: the accent where it reads on white (3:1), else near-black. */
  accent: string;
  /** A pale tint of it, behind the totals. */
  tint: string;
}

/** A #rrggbb colour mixed with white: `share` of the colour (0 to 1). */
function tintOf(hex: string, share: number): string {
  const channel = (offset: number) => Math.round(255 - (255 - parseInt(hex.slice(offset, offset + 2), 16)) * share);
  return `#${[1, 3, 5].map((o) => channel(o).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The business's accent (a website lead's job; core/accent.ts checks it for contrast), else the
 * report's green. On paper it colours headings and rules only; body text stays dark.
 */
export function quoteTheme(accent: string | null | undefined): QuoteTheme {
  const colour = accent ? accentPalette(accent).accentVisible : COLOUR.brand;
  return { accent: colour, tint: tintOf(colour, 0.08) };
}

export function ensureRoom(doc: Doc, height: number): boolean {
  if (doc.y + height <= pageBottom(doc)) return false;
  doc.addPage();
  return true;
}

/** How far below a heading's top its content starts (as report-layout.ts SECTION_HEADING_HEIGHT). */
export const HEADING_HEIGHT = 20;

/** A section title in the accent over a hairline; returns where its content starts. */
export function heading(doc: Doc, theme: QuoteTheme, title: string, x = MARGIN, y = doc.y, width = contentWidth(doc)): number {
  doc.fillColor(theme.accent).font(QUOTE_FONT.bold).fontSize(11.5).text(title, x, y - 1.5, { width, lineBreak: false });
  doc.moveTo(x, y + 15).lineTo(x + width, y + 15).lineWidth(0.75).stroke(COLOUR.rule);
  return y + HEADING_HEIGHT;
}

/** Label and value pairs, the label muted; returns the y under the last row. */
export function labelledRows(doc: Doc, rows: readonly [string, string][], x: number, y: number, width: number, labelWidth: number): number {
  for (const [label, value] of rows) {
    const valueHeight = doc.font(QUOTE_FONT.bold).fontSize(9.5).heightOfString(value, { width: width - labelWidth });
    if (y + valueHeight > pageBottom(doc)) {
      doc.addPage();
      y = doc.y;
    }
    doc.fillColor(COLOUR.muted).font(QUOTE_FONT.regular).fontSize(8.5).text(label, x, y + 0.5, { width: labelWidth - 6 });
    const labelBottom = doc.y;
    doc.fillColor(COLOUR.text).font(QUOTE_FONT.bold).fontSize(9.5).text(value, x + labelWidth, y, { width: width - labelWidth });
    y = Math.max(doc.y, labelBottom) + 3;
  }
  return y;
}

/** A bulleted list under a subheading, an item never split from its bullet; flows onto further pages. */
export function bulletList(doc: Doc, title: string, items: readonly string[], bullet: string, x = MARGIN, width = contentWidth(doc)): void {
  const textX = x + 12;
  const heightOf = (text: string) => doc.font(QUOTE_FONT.regular).fontSize(8.5).heightOfString(text, { width: width - 12, lineGap: 0.5 });
  ensureRoom(doc, 16 + heightOf(items[0] ?? ''));
  doc.fillColor(COLOUR.text).font(QUOTE_FONT.bold).fontSize(9).text(title, x, doc.y, { width });
  let y = doc.y + 2;
  for (const item of items) {
    if (y + heightOf(item) > pageBottom(doc)) {
      doc.addPage();
      y = doc.y;
    }
    doc.circle(x + 4, y + 5.2, 1.8).fill(bullet);
    doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(8.5).text(item, textX, y, { width: width - 12, lineGap: 0.5 });
    y = doc.y + 2;
  }
  doc.y = y + 6;
}

/** Who a document is from: the name it goes out under, and the profile's trading name when that differs. */
export interface LetterheadSender {
  name: string;
  /** The profile's trading name when the document goes out under a business's other name. */
  tradingAsOf: string | null;
}

/** What the letterhead prints of the business: its contacts, VAT number and logo. */
export interface LetterheadCompany {
  phone: string;
  email: string;
  address: string;
  vatNumber: string;
  logo: Buffer | null;
}

/**
 * The top of a quote or an invoice: the logo, who it is from with their address, phone, e-mail
 * and VAT number on the left; the document's title and its numbers and dates on the right; a rule
 * in the accent under both.
 */
export function drawLetterhead(doc: Doc, theme: QuoteTheme, company: LetterheadCompany, sender: LetterheadSender | null, title: string, meta: readonly [string, string][]): void {
  const top = MARGIN - 8;
  const metaWidth = 200;
  const leftWidth = contentWidth(doc) - metaWidth - 20;
  let y = top;
  if (company.logo) {
    try {
      doc.image(company.logo, MARGIN, y, { fit: [150, 44] });
      y += 50;
    } catch {
      // A logo pdfkit cannot draw is left out; the name still says who the document is from.
    }
  }
  if (sender) {
    doc.fillColor(COLOUR.text).font(QUOTE_FONT.bold).fontSize(14).text(sender.name, MARGIN, y, { width: leftWidth });
    y = doc.y + 1;
    if (sender.tradingAsOf) {
      doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(9).text(`A trading name of ${sender.tradingAsOf}`, MARGIN, y, { width: leftWidth });
      y = doc.y + 1;
    }
    doc.fillColor(COLOUR.muted).font(QUOTE_FONT.regular).fontSize(8.5);
    const contacts = [company.phone ? `Tel ${quoteText(company.phone)}` : null, company.email ? quoteText(company.email) : null].filter((c): c is string => Boolean(c));
    const contactLine = contacts.join('   |   ');
    const address = quoteText(company.address).split('\n').map((line) => line.trim()).filter(Boolean).join(', ');
    const details = [
      address || null,
      // Phone and e-mail share a line when they fit on one, else one line each.
      ...(doc.widthOfString(contactLine) <= leftWidth ? [contactLine] : contacts),
      vatNumberLine(company.vatNumber) || null,
    ].filter((line): line is string => Boolean(line));
    for (const line of details) {
      doc.text(line, MARGIN, y, { width: leftWidth });
      y = doc.y;
    }
  }

  const metaX = contentRight(doc) - metaWidth;
  doc.fillColor(theme.accent).font(QUOTE_FONT.bold).fontSize(24).text(title, metaX, top - 6, { width: metaWidth, align: 'right' });
  let metaY = doc.y + 2;
  for (const [label, value] of meta) {
    doc.fillColor(COLOUR.muted).font(QUOTE_FONT.regular).fontSize(8.5).text(label, metaX, metaY + 0.5, { width: 80, lineBreak: false });
    doc.fillColor(COLOUR.text).font(QUOTE_FONT.bold).fontSize(9.5).text(value, metaX + 80, metaY, { width: metaWidth - 80, align: 'right' });
    metaY = doc.y + 1;
  }
  const bottom = Math.max(y, metaY) + 8;
  doc.rect(MARGIN, bottom, contentWidth(doc), 2).fill(theme.accent);
  doc.y = bottom + 12;
}

/** A paragraph of the documents' text, in the quote's font, on a new page when it would not fit (the s.211 notice, the site check). */
export function paragraph(doc: Doc, text: string, options: { bold?: boolean; size?: number; gap?: number } = {}): void {
  const width = contentWidth(doc);
  doc.font(options.bold ? QUOTE_FONT.bold : QUOTE_FONT.regular).fontSize(options.size ?? 10);
  const clean = quoteText(text);
  ensureRoom(doc, doc.heightOfString(clean, { width }));
  doc.fillColor(COLOUR.text).text(clean, MARGIN, doc.y, { width, lineGap: 1 });
  doc.y += options.gap ?? 4;
}
