import { SAFETY_DISCLAIMER, type Analysis } from '../../core/analysis';
import { DEFAULT_QUOTE_VALIDITY_DAYS, vatNumberLine } from '../../core/company-profile';
import { formatTimeRange, formatTotalTime, totalMinutes } from '../../core/format';
import { describeMethod, formatQuoteDate, quoteValidUntil, type QuoteRecipient, type ReportCopy } from '../../core/quote';
import { sizesShown } from '../../core/band-ranges';
import { DEFAULT_UNIT_SYSTEM } from '../../core/units';
import { drawInternalPage, INTERNAL_TITLE } from './report-internal';
import {
  BOTTOM_MARGIN,
  COLOUR,
  MARGIN,
  contentRight,
  contentWidth,
  drawList,
  drawPageFooters,
  ensureSpace,
  keyValueRows,
  pageBottom,
  pdfBytes,
  SECTION_HEADING_HEIGHT,
  sectionHeading,
  type Doc,
} from './report-layout';
import { drawPhoto, photoSize } from './report-photo';
import { includedBlock, priceBox } from './report-price';
import { winAnsi } from './report-text';
import type { QuoteCompany } from '../settings/quote-company';

/**
 * The PDF behind Download Report (docs/analysis.md, Quotes): a quote a contractor can send to their customer. One A4 page for a typical job:
 * the company's header, quote number, date and validity, the photo with the measured lines,
 * the tree, the method in plain words, time and price (with VAT when the company is
 * VAT-registered), what is included, safety notes and the disclaimer. The internal copy adds
 * a page of notes for the contractor (report-internal.ts); none of them are on the customer's.
 * Times and money go through core/format and core/money so the PDF says what the screens say.
 */

export interface ReportInput {
  analysis: Analysis;
  /** The stored JPEG, or null when there is none. */
  image: Buffer | null;
  /** Shown as is, e.g. "TA-000123". */
  reference: string;
  /** The quote's date; "Valid until" counts from it. */
  generatedAt: Date;
  /** Without one, the header says only what the analysis knows (an embed's business name). */
  company?: QuoteCompany | null;
  /** 'customer' (the default) or 'internal', which adds the contractor's notes page. */
  copy?: ReportCopy;
  /** Printed under "Prepared for" in the header; both parts optional. */
  recipient?: QuoteRecipient | null;
}

/** The photo's box: its height is fixed, its width follows the photo up to the maximum. */
const PHOTO = { maxWidth: 250, height: 172 };
const TIME_TABLE_WIDTH = 262;

/**
 * pdfkit (with its fonts and fontkit) loads with the first quote, not at start (for
 * start-up time and idle memory); once per process.
 */
let pdfkit: Promise<typeof import('pdfkit')> | undefined;
const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((module) => module.default));

export async function buildReportPdf(input: ReportInput): Promise<Buffer> {
  const company = input.company ?? null;
  const sender = quoteSender(company, input.analysis);
  const PDFDocument = await loadPdfkit();
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
    bufferPages: true,
    displayTitle: true,
    info: {
      Title: `Quote ${winAnsi(input.reference)}`,
      Author: sender ? winAnsi(sender.name) : 'TreeAnalyzer Pro',
      Subject: 'Tree work quote',
      Creator: 'TreeAnalyzer Pro',
      CreationDate: input.generatedAt,
      ModDate: input.generatedAt,
    },
  });
  const finished = pdfBytes(doc);

  const { analysis } = input;
  const copy = input.copy ?? 'customer';
  const validUntil = quoteValidUntil(input.generatedAt, company?.quoteValidityDays ?? DEFAULT_QUOTE_VALIDITY_DAYS);
  const size = input.image ? await photoSize(input.image) : null;

  drawHeader(doc, input, company, sender, copy, validUntil);
  drawPhotoAndTree(doc, analysis, input.image, size);
  drawSiteVisit(doc, analysis.siteVisitReason);
  drawTimeAndPrice(doc, analysis);
  drawList(doc, 'Safety notes', analysis.safetyWarnings, COLOUR.warn);
  drawAcceptance(doc, company, sender?.name ?? null, input.reference, validUntil);
  drawDisclaimer(doc);
  const quotePages = doc.bufferedPageRange().count;
  if (copy === 'internal') drawInternalPage(doc, analysis, input.reference, Boolean(company?.tradingName));
  drawFooters(doc, input.reference, validUntil, quotePages);
  doc.end();
  return finished;
}

interface QuoteSender {
  /** The name at the top of the quote. */
  name: string;
  /** The profile's trading name when the quote goes out under another (a website's business), else null. */
  tradingAsOf: string | null;
}

const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Who the quote is from. A website lead's quote (an analysis that came through a business's
 * estimator) goes out under that business's name: it is the name the customer asked on that
 * site. A business holds nothing else a quote prints (its accent colour is for the widget on
 * the owner's site and is not checked for contrast on paper), so everything else comes from
 * the account's company profile: the logo, address, phone, e-mail and VAT number, since the
 * same contractor does the work and answers the call. When the business's name is not the
 * profile's trading name, the trading name follows as "A trading name of ...", so the
 * customer knows who stands behind the business's name (the disclosure Part 41 of the
 * Companies Act 2006 asks of anyone trading under a business name). Any other analysis goes
 * out under the profile's trading name; with neither, nobody (the header stays clean).
 */
function quoteSender(company: QuoteCompany | null, analysis: Analysis): QuoteSender | null {
  const tradingName = company?.tradingName.trim() || null;
  const business = analysis.businessName?.trim() || null;
  if (business) return { name: business, tradingAsOf: tradingName && !sameName(tradingName, business) ? tradingName : null };
  return tradingName ? { name: tradingName, tradingAsOf: null } : null;
}

function drawHeader(doc: Doc, input: ReportInput, company: QuoteCompany | null, sender: QuoteSender | null, copy: ReportCopy, validUntil: Date): void {
  const top = MARGIN - 8;
  const right = contentRight(doc);
  const metaWidth = 190;
  const leftWidth = contentWidth(doc) - metaWidth - 20;
  let y = top;

  if (company?.logo) {
    try {
      doc.image(company.logo, MARGIN, y, { fit: [150, 44] });
      y += 50;
    } catch {
      // A logo pdfkit cannot draw is left out; the name still says who the quote is from.
    }
  }
  if (sender) {
    doc.fillColor(COLOUR.text).font('Helvetica-Bold').fontSize(14).text(winAnsi(sender.name), MARGIN, y, { width: leftWidth });
    y = doc.y + 2;
    if (sender.tradingAsOf) {
      doc.fillColor(COLOUR.text).font('Helvetica').fontSize(9.5).text(`A trading name of ${winAnsi(sender.tradingAsOf)}`, MARGIN, y, { width: leftWidth });
      y = doc.y + 2;
    }
    doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(9);
    const contacts = [company?.phone ? `Tel ${winAnsi(company.phone)}` : null, company?.email ? winAnsi(company.email) : null].filter((c): c is string => Boolean(c));
    const contactLine = contacts.join('   |   ');
    const lines = [
      company?.address ? winAnsi(company.address).split('\n').join(', ') : null,
      // Phone and e-mail share a line when they fit on one, else one line each.
      ...(doc.widthOfString(contactLine) <= leftWidth ? [contactLine] : contacts),
      company ? vatNumberLine(company.vatNumber) || null : null,
    ].filter((line): line is string => Boolean(line));
    for (const line of lines) {
      doc.text(line, MARGIN, y, { width: leftWidth, lineGap: 1 });
      y = doc.y + 1;
    }
  } else if (copy === 'internal') {
    // Only the contractor's copy says what is missing; the customer's stays clean.
    const height = 44;
    doc.save().roundedRect(MARGIN, y, leftWidth, height, 4).dash(3, { space: 3 }).lineWidth(1).stroke(COLOUR.warn).restore();
    doc.fillColor(COLOUR.warn).font('Helvetica-Bold').fontSize(11).text('Add your company details in Settings', MARGIN + 10, y + 9, { width: leftWidth - 20 });
    doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(8.5).text('Your name, contact details and logo go here on the customer\'s copy.', MARGIN + 10, doc.y + 2, { width: leftWidth - 20 });
    y += height;
  }

  const metaX = right - metaWidth;
  doc.fillColor(COLOUR.brand).font('Helvetica-Bold').fontSize(24).text('Quote', metaX, top - 2, { width: metaWidth, align: 'right' });
  let metaY = doc.y + 4;
  const meta: [string, string][] = [
    ['Quote no.', input.reference],
    ['Date', formatQuoteDate(input.generatedAt)],
    ['Valid until', formatQuoteDate(validUntil)],
  ];
  const customerName = input.recipient?.customerName;
  if (customerName) meta.push(['Prepared for', customerName]);
  for (const [label, value] of meta) {
    doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(9).text(label, metaX, metaY, { width: 70, lineBreak: false });
    doc.fillColor(COLOUR.text).font('Helvetica-Bold').fontSize(9.5).text(winAnsi(value), metaX + 70, metaY, { width: metaWidth - 70, align: 'right' });
    metaY = doc.y + 3;
  }
  // The site's address on as few lines as the column allows, as the company's address is
  // printed: beside the company's block it rarely makes the header taller.
  const site = (input.recipient?.siteAddress ?? '').split('\n').map((line) => winAnsi(line)).filter(Boolean).join(', ');
  if (site) {
    doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(9).text('Site address', metaX, metaY, { width: 70, lineBreak: false });
    doc.fillColor(COLOUR.text).font('Helvetica').fontSize(9.5).text(site, metaX + 70, metaY, { width: metaWidth - 70, align: 'right' });
    metaY = doc.y + 3;
  }

  const bottom = Math.max(y, metaY) + 8;
  doc.rect(MARGIN, bottom, contentWidth(doc), 2).fill(COLOUR.brand);
  doc.y = bottom + 12;
}

function drawPhotoAndTree(doc: Doc, analysis: Analysis, image: Buffer | null, size: { width: number; height: number } | null): void {
  const top = doc.y;
  let textX = MARGIN;
  let photoBottom = top;
  let caption: string | null = null;
  if (image) {
    const width = size ? Math.min(PHOTO.maxWidth, Math.round((PHOTO.height * size.width) / size.height)) : PHOTO.maxWidth;
    caption = drawPhoto(doc, image, size, { x: MARGIN, y: top, width, height: PHOTO.height }, analysis.measurement);
    photoBottom = top + PHOTO.height;
    textX = MARGIN + width + 18;
  }
  const width = contentRight(doc) - textX;
  const shown = sizesShown(analysis, analysis.units ?? DEFAULT_UNIT_SYSTEM);
  let y = sectionHeading(doc, 'The tree', textX, top, width);
  y = keyValueRows(
    doc,
    [
      ['Species', analysis.species ?? 'Unknown'],
      // As given (a band as the band), in the units the sizes were entered in, the other in brackets (core/band-ranges.ts).
      ['Height', shown.height ?? 'N/A'],
      ['Trunk diameter', shown.diameter ?? 'N/A'],
      // "..., assumed" is the contractor's note (internal page), not the customer's business.
      ['Wood density', analysis.woodDensity ? analysis.woodDensity.replace(/,\s*assumed$/i, '') : 'N/A'],
    ],
    textX,
    y,
    width,
    88,
  );
  // What the lines on the photo are, beside the sizes they gave.
  if (caption) {
    doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(8).text(caption, textX, y + 1, { width, lineGap: 0.5 });
    y = doc.y + 2;
  }

  const method = describeMethod(analysis.method);
  y = sectionHeading(doc, 'How the work will be done', textX, y + 8, width);
  doc.fillColor(COLOUR.text).font('Helvetica-Bold').fontSize(10).text(method?.title ?? 'To be agreed on site', textX, y, { width });
  doc.font('Helvetica').fontSize(9.5).text(
    method?.sentence ?? 'The method will be agreed with you after a look at the tree and what is around it.',
    textX,
    doc.y + 2,
    { width, lineGap: 1 },
  );
  doc.y = Math.max(doc.y, photoBottom) + 12;
}

/** The abstention (docs/analysis.md, No quote without a size): a caveat on the price, so it sits right above it. */
function drawSiteVisit(doc: Doc, reason: string | null): void {
  if (!reason) return;
  const lead = 'Site visit recommended: ';
  const tail = '. The price is confirmed after a visit.';
  const text = `${winAnsi(reason).replace(/\.$/, '')}${tail}`;
  const [x, pad] = [MARGIN + 14, 7];
  const width = contentRight(doc) - x - pad;
  const height = doc.font('Helvetica-Bold').fontSize(9.5).heightOfString(lead + text, { width }) + 2 * pad;
  ensureSpace(doc, height);
  const y = doc.y;
  doc.rect(MARGIN, y, contentWidth(doc), height).fill(COLOUR.warnLight);
  doc.rect(MARGIN, y, 4, height).fill(COLOUR.warn);
  doc.fillColor(COLOUR.warn).text(lead, x, y + pad, { width, continued: true });
  doc.fillColor(COLOUR.text).font('Helvetica').text(text);
  doc.y = y + height + 10;
}

/** The time table's height: its heading, then three rows and the total, 17 pt each (tableRow). */
const TIME_TABLE_HEIGHT = SECTION_HEADING_HEIGHT + 4 * 17;

/**
 * Time on site and what the price includes down the left, the price on the right: the price's
 * lines make it the taller column, and the list fills the room beside it.
 */
function drawTimeAndPrice(doc: Doc, analysis: Analysis): void {
  const priceX = MARGIN + TIME_TABLE_WIDTH + 18;
  const priceWidth = contentRight(doc) - priceX;
  const price = priceBox(doc, analysis, priceWidth);
  const included = includedBlock(doc, analysis, TIME_TABLE_WIDTH);
  const leftHeight = TIME_TABLE_HEIGHT + 12 + SECTION_HEADING_HEIGHT + included.height;
  ensureSpace(doc, Math.max(leftHeight, SECTION_HEADING_HEIGHT + price.height));
  const top = doc.y;
  let y = sectionHeading(doc, 'Time on site', MARGIN, top, TIME_TABLE_WIDTH);
  const rows: [string, string][] = [
    ['Cutting', formatTimeRange({ min: analysis.cuttingTimeMin, max: analysis.cuttingTimeMax })],
    ['Preparation and set-up', formatTimeRange({ min: analysis.prepTimeMin, max: analysis.prepTimeMax })],
    ['Cleanup', formatTimeRange({ min: analysis.cleanupTimeMin, max: analysis.cleanupTimeMax })],
  ];
  for (const row of rows) y = tableRow(doc, y, row, false);
  doc.moveTo(MARGIN, y).lineTo(MARGIN + TIME_TABLE_WIDTH, y).lineWidth(1).stroke(COLOUR.brand);
  y = tableRow(doc, y, ['Total time', formatTotalTime(totalMinutes(analysis))], true);
  y = sectionHeading(doc, 'What the price includes', MARGIN, y + 12, TIME_TABLE_WIDTH);
  included.draw(MARGIN, y);
  y += included.height;

  const priceTop = sectionHeading(doc, 'Price', priceX, top, priceWidth);
  price.draw(priceX, priceTop);
  doc.y = Math.max(y, priceTop + price.height) + 10;
}

function tableRow(doc: Doc, y: number, [label, value]: [string, string], bold: boolean): number {
  const height = 17;
  if (!bold) doc.moveTo(MARGIN, y + height).lineTo(MARGIN + TIME_TABLE_WIDTH, y + height).lineWidth(0.5).stroke(COLOUR.rule);
  doc.fillColor(COLOUR.text).font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9.5);
  doc.text(label, MARGIN + 4, y + 4, { width: 140, lineBreak: false });
  doc.font('Helvetica-Bold').text(value, MARGIN + 140, y + 4, { width: TIME_TABLE_WIDTH - 144, align: 'right', lineBreak: false });
  return y + height;
}

/** How to accept: who to contact, quoting what, by when. Only when there is someone to contact. */
function drawAcceptance(doc: Doc, company: QuoteCompany | null, sender: string | null, reference: string, validUntil: Date): void {
  const contact = [company?.phone ? `on ${winAnsi(company.phone)}` : null, company?.email ? `at ${winAnsi(company.email)}` : null].filter(Boolean).join(' or ');
  if (!sender || !contact) return;
  const text = `To accept this quote, contact ${winAnsi(sender)} ${contact} by ${formatQuoteDate(validUntil)}, quoting ${winAnsi(reference)}.`;
  const height = doc.font('Helvetica-Bold').fontSize(8.5).heightOfString(text, { width: contentWidth(doc) });
  if (doc.y + height > pageBottom(doc)) doc.addPage();
  doc.fillColor(COLOUR.text).text(text, MARGIN, doc.y, { width: contentWidth(doc) });
  doc.y += 8;
}

/** The disclaimer sits at the foot of the quote's last page, in a box. */
function drawDisclaimer(doc: Doc): void {
  const width = contentWidth(doc);
  const pad = 7;
  const lead = 'Safety disclaimer: ';
  const text = winAnsi(SAFETY_DISCLAIMER);
  const height = doc.font('Helvetica-Bold').fontSize(8.5).heightOfString(lead + text, { width: width - 2 * pad }) + 2 * pad;
  if (doc.y + height > pageBottom(doc)) doc.addPage();
  const y = pageBottom(doc) - height;
  doc.rect(MARGIN, y, width, height).fillAndStroke(COLOUR.box, COLOUR.rule);
  doc.fillColor(COLOUR.text).text(lead, MARGIN + pad, y + pad, { width: width - 2 * pad, continued: true });
  doc.font('Helvetica').text(text);
}

/** Every page's foot; pages after the quote's own are the internal notes. */
function drawFooters(doc: Doc, reference: string, validUntil: Date, quotePages: number): void {
  drawPageFooters(doc, 'Helvetica', 8, (page) => ({
    text: page >= quotePages ? `${INTERNAL_TITLE} | Quote ${winAnsi(reference)}` : `Quote ${winAnsi(reference)} | Valid until ${formatQuoteDate(validUntil)}`,
    colour: COLOUR.muted,
  }));
}
