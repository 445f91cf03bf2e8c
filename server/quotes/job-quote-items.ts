import type { JobItem } from '../../core/jobs';
import { formatGbp, parsePence } from '../../core/money';
import type { VatMode } from '../../core/price';
import { ITEM_PRICE_HEADING, quoteTotalRows } from '../../core/quote-total-rows';
import { quoteTotals } from '../../core/quote-totals';
import { loadSharp } from '../images/sharp';
import { QUOTE_FONT, quoteText } from './job-quote-font';
import { HEADING_HEIGHT, heading, type QuoteTheme } from './job-quote-layout';
import { COLOUR, MARGIN, contentRight, contentWidth, pageBottom, type Doc } from './report-layout';
import { fitInBox } from './report-photo';

/**
 * The quote's items, each a row: its number, a tree's photo (small), what will be done in the
 * surgeon's words, "Optional" for an item the customer chooses, and its price; then the totals
 * (core/quote-total-rows.ts words them). A row is never split across pages.
 */

/** A tree's photo as the quote embeds it: shrunk, so ten trees do not make a 10 MB PDF. */
export interface Thumbnail {
  image: Buffer;
  width: number;
  height: number;
}

/**
 * 360 x 270 px in a 76 x 57 pt box is about 340 dpi on paper, sharper than a printer needs; a
 * stored photo is up to 2048 px (server/images/normalise.ts), 10 to 20 times the bytes.
 */
const THUMBNAIL_PX = { width: 360, height: 270 };

export async function thumbnail(photo: Buffer): Promise<Thumbnail | null> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(photo)
      .resize({ ...THUMBNAIL_PX, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    return { image: data, width: info.width, height: info.height };
  } catch {
    // A photo that cannot be read leaves its row without one; the words still say which tree.
    return null;
  }
}

/**
 * An item as the quote prints it: a job's item as it stands (core/jobs.ts JobItem), or one of a
 * version as it was sent (core/quote-versions.ts QuoteContent, its price as pounds text).
 */
export type QuotedItem = Pick<JobItem, 'id' | 'kind' | 'analysisId' | 'description' | 'price' | 'optional'>;

export interface QuoteLine {
  item: QuotedItem;
  pricePence: number;
  /** For an optional item on an accepted copy: whether the customer chose it; null before then. */
  chosen: boolean | null;
  photo: Thumbnail | null;
}

/** Pence of each item as the job says (pounds text), 0 for anything unreadable (it cannot be). */
export const itemPence = (item: Pick<JobItem, 'price'>): number => parsePence(item.price) ?? 0;

const PAD = 6;
const NUMBER_WIDTH = 20;
const PHOTO_BOX = { width: 76, height: 57 };
const PHOTO_GAP = 10;
const PRICE_WIDTH = 92;

function optionalLabel(chosen: boolean | null): string {
  if (chosen === null) return 'Optional';
  return chosen ? 'Optional: chosen' : 'Optional: not chosen';
}

/** The items' table under its heading; "(continued)" on a page it runs onto. */
export function drawItems(doc: Doc, theme: QuoteTheme, lines: readonly QuoteLine[], vatMode: VatMode): void {
  const width = contentWidth(doc);
  const withPhotos = lines.some((line) => line.photo);
  const textX = MARGIN + NUMBER_WIDTH + (withPhotos ? PHOTO_BOX.width + PHOTO_GAP : 0);
  const textWidth = contentRight(doc) - PRICE_WIDTH - 12 - textX;
  const priceX = contentRight(doc) - PRICE_WIDTH;

  const header = (title: string) => {
    let y = heading(doc, theme, title);
    doc.fillColor(COLOUR.muted).font(QUOTE_FONT.regular).fontSize(8);
    doc.text('Work', textX, y, { width: textWidth, lineBreak: false });
    doc.text(ITEM_PRICE_HEADING[vatMode], priceX, y, { width: PRICE_WIDTH, align: 'right', lineBreak: false });
    y += 13;
    doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(0.5).stroke(COLOUR.rule);
    return y;
  };
  if (doc.y + HEADING_HEIGHT + 13 + 2 * PAD + PHOTO_BOX.height > pageBottom(doc)) doc.addPage();
  let y = header('The work');
  if (lines.length === 0) {
    doc.fillColor(COLOUR.muted).font(QUOTE_FONT.regular).fontSize(9.5).text('No work has been added to this quote yet.', textX, y + PAD, { width: textWidth });
    doc.y = doc.y + PAD;
    return;
  }

  lines.forEach((line, i) => {
    const description = quoteText(line.item.description);
    const textHeight = doc.font(QUOTE_FONT.regular).fontSize(9.5).heightOfString(description, { width: textWidth, lineGap: 1 });
    const tagHeight = line.item.optional ? 16 : 0;
    const height = Math.max(line.photo ? PHOTO_BOX.height : 0, textHeight + tagHeight) + 2 * PAD;
    if (y + height > pageBottom(doc)) {
      doc.addPage();
      y = header('The work (continued)');
    }
    const top = y + PAD;
    const muted = line.chosen === false;
    doc.fillColor(COLOUR.muted).font(QUOTE_FONT.bold).fontSize(9.5).text(`${i + 1}`, MARGIN, top, { width: NUMBER_WIDTH - 4, lineBreak: false });
    if (line.photo) drawThumbnail(doc, line.photo, MARGIN + NUMBER_WIDTH, top);
    doc.fillColor(muted ? COLOUR.muted : COLOUR.text).font(QUOTE_FONT.regular).fontSize(9.5).text(description, textX, top, { width: textWidth, lineGap: 1 });
    if (line.item.optional) drawTag(doc, theme, optionalLabel(line.chosen), textX, top + textHeight + 3, muted);
    doc.fillColor(muted ? COLOUR.muted : COLOUR.text).font(QUOTE_FONT.bold).fontSize(10);
    doc.text(formatGbp(line.pricePence), priceX, top, { width: PRICE_WIDTH, align: 'right', lineBreak: false });
    y += height;
    doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(0.5).stroke(COLOUR.rule);
  });
  doc.y = y + 10;
}

function drawThumbnail(doc: Doc, photo: Thumbnail, x: number, y: number): void {
  const box = { x, y, ...PHOTO_BOX };
  const drawn = fitInBox(photo, box);
  doc.rect(box.x, box.y, box.width, box.height).fill(COLOUR.box);
  doc.image(photo.image, drawn.x, drawn.y, { width: drawn.width, height: drawn.height });
}

/** A small label in a pale box of the accent, for "Optional". */
function drawTag(doc: Doc, theme: QuoteTheme, text: string, x: number, y: number, muted: boolean): void {
  doc.font(QUOTE_FONT.bold).fontSize(7.5);
  const width = doc.widthOfString(text) + 10;
  doc.roundedRect(x, y, width, 12, 3).fill(muted ? COLOUR.box : theme.tint);
  doc.fillColor(muted ? COLOUR.muted : theme.accent).text(text, x + 5, y + 1.5, { lineBreak: false });
}

/**
 * The totals, right-aligned under the items: the items included plus the optional ones chosen,
 * exact in pence (core/quote-totals.ts), worded for the VAT mode. Before the customer has chosen,
 * a line says the optional items are not in it.
 */
export function drawTotals(doc: Doc, theme: QuoteTheme, lines: readonly QuoteLine[], vatMode: VatMode): void {
  const chosen = new Set(lines.filter((line) => line.item.optional && line.chosen).map((line) => line.item.id));
  const totals = quoteTotals(
    lines.map((line) => ({ id: line.item.id, pricePence: line.pricePence, optional: line.item.optional })),
    chosen,
    vatMode,
  );
  const optionalChosen = lines.filter((line) => chosen.has(line.item.id)).reduce((sum, line) => sum + line.pricePence, 0);
  const rows = quoteTotalRows(totals, vatMode, optionalChosen);
  const undecided = lines.some((line) => line.item.optional && line.chosen === null);
  const note = undecided ? 'Optional items are not included in the total. Tell us which you would like when you accept.' : null;

  const width = 250;
  const x = contentRight(doc) - width;
  const pad = 9;
  const rowHeight = (strong?: boolean) => (strong ? 22 : 15);
  const height = 2 * pad + rows.reduce((h, row) => h + rowHeight(row.strong), 0);
  const noteHeight = note ? doc.font(QUOTE_FONT.regular).fontSize(8).heightOfString(note, { width }) + 4 : 0;
  if (doc.y + height + noteHeight > pageBottom(doc)) doc.addPage();
  const top = doc.y;
  doc.roundedRect(x, top, width, height, 4).fill(theme.tint);
  let y = top + pad;
  for (const row of rows) {
    if (row.strong) {
      // A rule between the figures that add up and the total they make.
      if (row !== rows[0]) doc.moveTo(x + pad, y + 1).lineTo(x + width - pad, y + 1).lineWidth(0.75).stroke(theme.accent);
      doc.fillColor(theme.accent).font(QUOTE_FONT.bold).fontSize(10.5).text(row.label, x + pad, y + 6, { lineBreak: false });
      doc.font(QUOTE_FONT.bold).fontSize(12.5).text(row.value, x + pad, y + 4, { width: width - 2 * pad, align: 'right', lineBreak: false });
    } else {
      doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(9.5).text(row.label, x + pad, y, { lineBreak: false });
      doc.font(QUOTE_FONT.bold).text(row.value, x + pad, y, { width: width - 2 * pad, align: 'right', lineBreak: false });
    }
    y += rowHeight(row.strong);
  }
  doc.y = top + height + 4;
  if (note) {
    doc.fillColor(COLOUR.muted).font(QUOTE_FONT.regular).fontSize(8).text(note, x, doc.y, { width });
  }
  doc.y += 8;
}
