import type { Analysis } from '../../core/analysis';
import { priceRows, type PriceRow } from '../../core/price';
import { includedWork, siteAssumptions } from '../../core/quote';
import { COLOUR, drawDash, drawTick, type Doc } from './report-layout';
import { winAnsi } from './report-text';

/**
 * The quote's price and what it includes, each a block measured first (its height decides
 * whether the section starts a new page) and drawn second where the page puts it.
 */
export interface Block {
  height: number;
  draw: (x: number, top: number) => void;
}

/** Space between the rows of "What the price includes": 14 pt rows for one line of 9.5 pt text. */
const INCLUDED_ROW_GAP = 3;

/**
 * The price: the rows every screen shows (core/price.ts priceRows): each line with how it was
 * worked out, the minimum charge when it applied, and the totals as the contractor charges VAT,
 * the one the customer pays (or the figure headlined, for trade prices) drawn strongest. Measured
 * first (its height decides whether the section starts a new page), drawn second.
 */
export function priceBox(doc: Doc, analysis: Analysis, width: number): Block {
  const pad = 9;
  const inner = width - 2 * pad;
  if (!analysis.price) {
    const height = 58;
    return {
      height,
      draw: (x, top) => {
        doc.roundedRect(x, top, width, height, 4).fill(COLOUR.box);
        doc.fillColor(COLOUR.text).font('Helvetica-Bold').fontSize(13).text('Price to be confirmed', x + pad, top + pad, { width: inner });
        doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(8.5).text('We will confirm the price with you before any work starts.', x + pad, doc.y + 4, { width: inner });
      },
    };
  }
  // The working of the lines worked out from the job (crew time, waste by weight); a fixed price
  // needs none, and "What the price includes" below says what the equipment is for.
  const worked = new Set<PriceRow['code']>(['labour', 'waste']);
  const rows = priceRows(analysis.price).map((row) => ({
    ...row,
    label: winAnsi(row.label),
    detail: row.detail && (row.code === undefined || worked.has(row.code)) ? winAnsi(row.detail) : undefined,
  }));
  // What it was priced for where the customer did not say: the quote tells them, so a different site is a different price.
  const assumed = siteAssumptions(analysis.factors);
  const basis = `Crew time follows the time the job takes.${assumed.length > 0 ? ` Priced for: ${winAnsi(assumed.join('; '))}. Tell us if any of this is different.` : ''}`;
  const labelFont = (row: PriceRow) => doc.font(row.strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(row.strong ? 10 : 9.5);
  const valueFont = (row: PriceRow) => doc.font('Helvetica-Bold').fontSize(row.strong ? 13 : 9.5);
  const detailFont = () => doc.font('Helvetica').fontSize(7.5);
  // One rule goes above the totals, with a little room.
  const firstTotal = rows.findIndex((row) => row.label.startsWith('Total'));
  const placed = rows.map((row, i) => {
    const valueWidth = valueFont(row).widthOfString(row.value);
    // A value too wide to sit beside its label (a large job's range) goes under it.
    const stacked = labelFont(row).widthOfString(row.label) + 12 + valueWidth > inner;
    const lineHeight = (row.strong ? 20 : 14) + (stacked ? (row.strong ? 14 : 12) : 0);
    // The working sits under the line, the box's full width.
    const detailHeight = row.detail ? detailFont().heightOfString(row.detail, { width: inner }) + 2 : 0;
    const ruleGap = i === firstTotal ? 4 : 0;
    return { row, valueWidth, stacked, lineHeight, detailHeight, ruleGap };
  });
  const basisHeight = doc.font('Helvetica').fontSize(8).heightOfString(basis, { width: inner });
  const height = pad * 2 + placed.reduce((h, p) => h + p.ruleGap + p.lineHeight + p.detailHeight, 0) + 6 + basisHeight;
  return {
    height,
    draw: (x, top) => {
      doc.roundedRect(x, top, width, height, 4).fill(COLOUR.brandLight);
      let ly = top + pad;
      for (const { row, valueWidth, stacked, lineHeight, detailHeight, ruleGap } of placed) {
        if (ruleGap > 0) {
          doc.moveTo(x + pad, ly).lineTo(x + width - pad, ly).lineWidth(0.75).stroke(COLOUR.brand);
          ly += ruleGap;
        }
        labelFont(row).fillColor(row.strong ? COLOUR.brand : COLOUR.text);
        doc.text(row.label, x + pad, ly + (row.strong ? 4 : 0), { lineBreak: false });
        // Right-aligned by its measured width, so a long value can never wrap or run past the box.
        const valueY = stacked ? ly + (row.strong ? 18 : 13) : ly + (row.strong ? 2 : 0);
        valueFont(row).text(row.value, x + pad + inner - valueWidth, valueY, { lineBreak: false });
        if (row.detail) {
          detailFont().fillColor(COLOUR.muted);
          doc.text(row.detail, x + pad, ly + lineHeight - 2, { width: inner });
        }
        ly += lineHeight + detailHeight;
      }
      doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(8).text(basis, x + pad, ly + 4, { width: inner });
    },
  };
}

/**
 * Ticks (in the price) and dashes (not in it), one item a row; each row as tall as its text
 * wrapped to the width (pdfkit's heightOfString), so a long item takes a second line and pushes
 * the next row down instead of printing over it. Measured first, drawn second.
 */
export function includedBlock(doc: Doc, analysis: Analysis, width: number): Block {
  const items = includedWork(analysis.siteDetails, analysis.factors).map((item) => ({
    ...item,
    line: item.included ? item.text : `Not included: ${item.text}`,
  }));
  const mark = 14;
  doc.font('Helvetica').fontSize(9.5);
  const heights = items.map((item) => doc.heightOfString(item.line, { width: width - mark }) + INCLUDED_ROW_GAP);
  return {
    height: heights.reduce((sum, h) => sum + h, 0),
    draw: (x, top) => {
      let y = top;
      items.forEach((item, i) => {
        if (item.included) drawTick(doc, x, y + 1, COLOUR.brand);
        else drawDash(doc, x, y + 1, COLOUR.muted);
        doc.fillColor(item.included ? COLOUR.text : COLOUR.muted).font('Helvetica').fontSize(9.5);
        doc.text(item.line, x + mark, y, { width: width - mark });
        y += heights[i] ?? 0;
      });
    },
  };
}
