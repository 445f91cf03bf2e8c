import type { Analysis } from '../../core/analysis';
import { formatTotalTime, totalMinutes } from '../../core/format';
import { formatGbp } from '../../core/money';
import { formatPrice } from '../../core/price';
import { describeMethod } from '../../core/quote';
import { sizesShown } from '../../core/band-ranges';
import { DEFAULT_UNIT_SYSTEM } from '../../core/units';
import { QUOTE_FONT, quoteText } from './job-quote-font';
import type { QuoteLine } from './job-quote-items';
import { bulletList, ensureRoom, heading, labelledRows, type QuoteTheme } from './job-quote-layout';
import { COLOUR, MARGIN, contentWidth, type Doc } from './report-layout';

/**
 * The surgeon's copy (`?copy=internal`): after the quote as the customer reads it, each tree's
 * estimate beside the price set, and the working behind it (what report-internal.ts shows for
 * one tree): species, sizes, confidence, method, time, calibration, the crew's safety notes and
 * the factors. None of it is on the customer's copy.
 */
export const INTERNAL_COPY_TITLE = 'Internal copy: not for the customer';

/** The warning band at the top of the internal copy's first page and of its working. */
export function drawInternalBanner(doc: Doc, reference: string): void {
  const width = contentWidth(doc);
  const y = doc.y;
  doc.rect(MARGIN, y, width, 32).fill(COLOUR.warnLight);
  doc.rect(MARGIN, y, 4, 32).fill(COLOUR.warn);
  doc.fillColor(COLOUR.warn).font(QUOTE_FONT.bold).fontSize(11.5).text(INTERNAL_COPY_TITLE, MARGIN + 14, y + 3, { width: width - 28, lineBreak: false });
  doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(8.5).text(`For your records with quote ${reference}. Send the customer's copy instead.`, MARGIN + 14, y + 18, { width: width - 28, lineBreak: false });
  doc.y = y + 32 + 12;
}

export function drawWorking(doc: Doc, theme: QuoteTheme, reference: string, lines: readonly QuoteLine[], analyses: ReadonlyMap<number, Analysis>): void {
  // After the quote's terms on the same page when they left room for a tree's figures, else on a new one.
  doc.y += 16;
  ensureRoom(doc, 230);
  drawInternalBanner(doc, reference);
  const trees = lines.map((line, i) => ({ line, number: i + 1 })).filter(({ line }) => line.item.kind === 'tree');
  if (trees.length === 0) {
    doc.fillColor(COLOUR.muted).font(QUOTE_FONT.regular).fontSize(9.5).text('This quote has no trees from an estimate, so there is no working to show.', MARGIN, doc.y, { width: contentWidth(doc) });
    return;
  }
  for (const { line, number } of trees) {
    const analysis = line.item.analysisId === null ? undefined : analyses.get(line.item.analysisId);
    // The heading and both columns of figures together on one page.
    ensureRoom(doc, 150);
    const title = `Item ${number}: ${analysis?.species ? quoteText(analysis.species) : 'tree, species not identified'}`;
    let y = heading(doc, theme, title);
    const price: [string, string] = ['Your price', formatGbp(line.pricePence)];
    if (!analysis) {
      y = labelledRows(doc, [price, ['Estimate', 'The analysis behind this tree has been deleted.']], MARGIN, y, contentWidth(doc), 80);
      doc.y = y + 10;
      continue;
    }
    const units = analysis.units ?? DEFAULT_UNIT_SYSTEM;
    const method = describeMethod(analysis.method);
    // Two columns: the money and the working on the left, the tree on the right.
    const columnWidth = (contentWidth(doc) - 20) / 2;
    const left = labelledRows(
      doc,
      [
        price,
        ['Estimate', analysis.price ? formatPrice(analysis.price) : 'No price: no hourly rate was set'],
        ['Time on site', formatTotalTime(totalMinutes(analysis))],
        ['Method', method?.title ?? 'Not given'],
        ['Confidence', `${Math.round(analysis.confidence * 100)}%`],
        ['Calibration', analysis.calibratedFrom ? quoteText(analysis.calibratedFrom) : 'Not calibrated'],
      ],
      MARGIN,
      y,
      columnWidth,
      80,
    );
    const right = labelledRows(
      doc,
      [
        ['Species', analysis.species ? quoteText(analysis.species) : 'Unknown'],
        ['Height', sizesShown(analysis, units).height ?? 'Not known'],
        ['Trunk diameter', sizesShown(analysis, units).diameter ?? 'Not known'],
        ['Wood density', analysis.woodDensity ? quoteText(analysis.woodDensity) : 'Not known'],
      ],
      MARGIN + columnWidth + 20,
      y,
      columnWidth,
      80,
    );
    y = Math.max(left, right);
    if (analysis.siteVisitReason) y = labelledRows(doc, [['Site visit', quoteText(analysis.siteVisitReason)]], MARGIN, y, contentWidth(doc), 80);
    doc.y = y + 4;
    if (analysis.safetyWarnings.length > 0) bulletList(doc, 'Safety notes for the crew', analysis.safetyWarnings.map(quoteText), COLOUR.warn);
    if (analysis.sizeWarnings.length > 0) bulletList(doc, 'Sizes confirmed, though they look unlikely', analysis.sizeWarnings.map(quoteText), COLOUR.warn);
    if (analysis.factors.length > 0) bulletList(doc, 'Factors affecting the time', analysis.factors.map(quoteText), theme.accent);
    doc.y += 6;
  }
}
