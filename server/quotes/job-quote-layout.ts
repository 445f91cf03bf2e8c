import { accentPalette } from '../../core/accent';
import { QUOTE_FONT } from './job-quote-font';
import { COLOUR, MARGIN, contentWidth, pageBottom, type Doc } from './report-layout';

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
