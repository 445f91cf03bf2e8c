import PDFDocument from 'pdfkit';
import { SAFETY_DISCLAIMER, type Analysis } from '../../core/analysis';
import { formatCostRange, formatTimeRange, formatTotalTime, totalMinutes } from '../../core/format';
import { formatGbp, parsePence } from '../../core/money';
import { METHOD_LABELS, type Method } from '../../core/time-model';

/**
 * The PDF quote behind Download Report (DECISIONS, Results): photo, measurements, times,
 * cost, notes and the safety disclaimer, one or two A4 pages. Times and money go through
 * core/format and core/money so the PDF says exactly what the screens say.
 */
export interface ReportInput {
  analysis: Analysis;
  /** The stored JPEG, or null when there is none. */
  image: Buffer | null;
  /** Shown as is, e.g. "TA-000123". */
  reference: string;
  generatedAt: Date;
  preparedFor?: string | null;
}

type Doc = PDFKit.PDFDocument;

const MARGIN = 48;
/** Room under the content for the footer line. */
const BOTTOM_MARGIN = 56;
const HEADER_HEIGHT = 92;
const PHOTO = { width: 230, height: 190 };
const TIME_TABLE_WIDTH = 290;
const COLOUR = {
  brand: '#2e6b3a',
  brandLight: '#eef5ee',
  onBrand: '#dcefd9',
  text: '#1f2933',
  muted: '#5f6b76',
  rule: '#d5dbd6',
  warn: '#a15c00',
  warnLight: '#fff5e0',
  box: '#f4f5f4',
};

export async function buildReportPdf(input: ReportInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
    bufferPages: true,
    displayTitle: true,
    info: {
      Title: `Tree Work Estimate ${winAnsi(input.reference)}`,
      Author: 'TreeAnalyzer Pro',
      Subject: 'Tree work time and cost estimate',
      CreationDate: input.generatedAt,
      ModDate: input.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const { analysis } = input;
  drawHeader(doc, input);
  drawPhotoAndTree(doc, analysis, input.image);
  drawTimesAndCost(doc, analysis);
  drawSiteVisit(doc, analysis.siteVisitReason);
  drawList(doc, 'Factors affecting cutting time', analysis.factors, COLOUR.brand);
  drawList(doc, 'Safety recommendations', analysis.safetyWarnings, COLOUR.warn);
  drawDisclaimer(doc);
  drawFooters(doc, input.reference);
  doc.end();
  return finished;
}

function drawHeader(doc: Doc, { analysis, reference, generatedAt, preparedFor }: ReportInput): void {
  const width = doc.page.width;
  const rightWidth = 150;
  const rightX = width - MARGIN - rightWidth;
  doc.rect(0, 0, width, HEADER_HEIGHT).fill(COLOUR.brand);
  doc.fillColor('white').font('Helvetica-Bold').fontSize(16);
  doc.text('TreeAnalyzer Pro — Tree Work Estimate', MARGIN, 28, { width: rightX - MARGIN, lineBreak: false });
  doc.fontSize(11).text(`Ref ${winAnsi(reference)}`, rightX, 30, { width: rightWidth, align: 'right' });
  doc.font('Helvetica').fontSize(10).text(formatReportDate(generatedAt), rightX, 46, { width: rightWidth, align: 'right' });

  const lines = [
    analysis.businessName ? `Prepared by ${winAnsi(analysis.businessName)}` : 'Planning estimate from a photo',
    ...(preparedFor ? [`Prepared for ${winAnsi(preparedFor)}`] : []),
  ];
  doc.fillColor(COLOUR.onBrand).font('Helvetica-Bold').fontSize(11);
  lines.forEach((line, i) => doc.text(line, MARGIN, 52 + i * 15, { width: rightX - MARGIN - 10, height: 14, ellipsis: true }));
  doc.y = HEADER_HEIGHT + 20;
}

/** "22 November 2026", on the UK calendar whatever the server's time zone. */
function formatReportDate(date: Date): string {
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });
}

function drawPhotoAndTree(doc: Doc, analysis: Analysis, image: Buffer | null): void {
  const top = doc.y;
  let treeX = MARGIN;
  if (image) {
    doc.rect(MARGIN, top, PHOTO.width, PHOTO.height).fill(COLOUR.box);
    try {
      doc.image(image, MARGIN, top, { fit: [PHOTO.width, PHOTO.height], align: 'center', valign: 'center' });
    } catch {
      // A photo pdfkit cannot read should not cost the customer the rest of the quote.
      doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(10);
      doc.text('Photo unavailable', MARGIN, top + PHOTO.height / 2 - 6, { width: PHOTO.width, align: 'center' });
    }
    doc.rect(MARGIN, top, PHOTO.width, PHOTO.height).lineWidth(0.75).stroke(COLOUR.rule);
    treeX = MARGIN + PHOTO.width + 20;
  }
  const width = contentRight(doc) - treeX;
  let y = sectionHeading(doc, 'Tree', treeX, top, width);
  const rows: [string, string][] = [
    ['Species', analysis.species ? winAnsi(analysis.species) : 'Unknown'],
    ['Trunk diameter', analysis.diameter != null ? `${analysis.diameter} inches` : 'N/A'],
    ['Height', analysis.height != null ? `${analysis.height} ft` : 'N/A'],
    ['Wood density', analysis.woodDensity ? winAnsi(analysis.woodDensity) : 'N/A'],
    ['Method', methodLabel(analysis.method)],
    ['Confidence', `${Math.round(analysis.confidence * 100)}%`],
  ];
  const labelWidth = 100;
  for (const [label, value] of rows) {
    doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(9.5).text(label, treeX, y + 1, { width: labelWidth });
    doc.fillColor(COLOUR.text).font('Helvetica-Bold').fontSize(10.5);
    doc.text(value, treeX + labelWidth, y, { width: width - labelWidth });
    y = doc.y + 7;
  }
  doc.y = Math.max(y, image ? top + PHOTO.height : y) + 20;
}

/** METHOD_LABELS for the time model's keys, with a capital; anything else as given. */
function methodLabel(method: string | null): string {
  if (!method) return 'N/A';
  const label = method in METHOD_LABELS ? METHOD_LABELS[method as Method] : winAnsi(method);
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function drawTimesAndCost(doc: Doc, analysis: Analysis): void {
  const top = doc.y;
  let y = sectionHeading(doc, 'Time estimate', MARGIN, top, TIME_TABLE_WIDTH);
  const rows: [string, string][] = [
    ['Actual Cutting', formatTimeRange({ min: analysis.cuttingTimeMin, max: analysis.cuttingTimeMax })],
    ['Prep & Setup', formatTimeRange({ min: analysis.prepTimeMin, max: analysis.prepTimeMax })],
    ['Cleanup', formatTimeRange({ min: analysis.cleanupTimeMin, max: analysis.cleanupTimeMax })],
  ];
  y = tableRow(doc, y, ['Task', 'Estimated time'], { fill: COLOUR.brandLight, bold: true, colour: COLOUR.brand });
  for (const row of rows) y = tableRow(doc, y, row, {});
  doc.moveTo(MARGIN, y).lineTo(MARGIN + TIME_TABLE_WIDTH, y).lineWidth(1).stroke(COLOUR.brand);
  y = tableRow(doc, y, ['Total project time', formatTotalTime(totalMinutes(analysis))], { bold: true, colour: COLOUR.text });
  if (analysis.calibratedFromJobs) {
    const note = `Calibrated from ${analysis.calibratedFromJobs} of your jobs: scaled by the actual times you reported.`;
    doc.fillColor(COLOUR.muted).font('Helvetica-Oblique').fontSize(8.5).text(note, MARGIN, y + 7, { width: TIME_TABLE_WIDTH });
    y = doc.y;
  }

  const costX = MARGIN + TIME_TABLE_WIDTH + 20;
  drawCost(doc, analysis, costX, top, contentRight(doc) - costX);
  doc.y = Math.max(y, doc.y) + 20;
}

type RowStyle = { fill?: string; bold?: boolean; colour?: string };

function tableRow(doc: Doc, y: number, [label, value]: [string, string], style: RowStyle): number {
  const height = 22;
  if (style.fill) doc.rect(MARGIN, y, TIME_TABLE_WIDTH, height).fill(style.fill);
  else doc.moveTo(MARGIN, y + height).lineTo(MARGIN + TIME_TABLE_WIDTH, y + height).lineWidth(0.5).stroke(COLOUR.rule);
  doc.fillColor(style.colour ?? COLOUR.text).font(style.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
  doc.text(label, MARGIN + 8, y + 7, { width: 150, lineBreak: false });
  doc.font('Helvetica-Bold').text(value, MARGIN + 160, y + 7, { width: TIME_TABLE_WIDTH - 168, align: 'right', lineBreak: false });
  return y + height;
}

function drawCost(doc: Doc, analysis: Analysis, x: number, top: number, width: number): void {
  const y = sectionHeading(doc, 'Estimated cost', x, top, width);
  const range = analysis.cost && costInPence(analysis.cost);
  const rate = parsePence(analysis.hourlyRate);
  const pad = 12;
  const inner = width - 2 * pad;
  doc.font('Helvetica-Bold').fontSize(range ? 17 : 12);
  const main = range ? formatCostRange(range) : 'No hourly rate set';
  const note = range
    ? `At ${rate !== undefined ? formatGbp(rate) : winAnsi(analysis.hourlyRate)} per hour for the total project time`
    : 'Add an hourly rate in AI Settings to include a cost.';
  const mainHeight = doc.heightOfString(main, { width: inner });
  const noteHeight = doc.font('Helvetica').fontSize(9).heightOfString(note, { width: inner });
  const boxHeight = Math.max(88, pad * 2 + mainHeight + 8 + noteHeight);
  doc.roundedRect(x, y, width, boxHeight, 4).fill(range ? COLOUR.brandLight : COLOUR.box);
  doc.fillColor(range ? COLOUR.brand : COLOUR.text).font('Helvetica-Bold').fontSize(range ? 17 : 12);
  doc.text(main, x + pad, y + pad, { width: inner });
  doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(9).text(note, x + pad, doc.y + 8, { width: inner });
  doc.y = y + boxHeight;
}

/** analysis.cost holds decimal text ("67.50"); the formatter takes pence. */
function costInPence(cost: { min: string; max: string }): { minPence: number; maxPence: number } | null {
  const minPence = parsePence(cost.min);
  const maxPence = parsePence(cost.max);
  return minPence === undefined || maxPence === undefined ? null : { minPence, maxPence };
}

/** A bulleted list that flows onto further pages, never splitting an item. */
function drawList(doc: Doc, title: string, items: string[], bulletColour: string): void {
  const width = contentRight(doc) - MARGIN;
  const textX = MARGIN + 14;
  const entries = items.length > 0 ? items.map(winAnsi) : ['None noted.'];
  const heightOf = (text: string) => doc.font('Helvetica').fontSize(10).heightOfString(text, { width: width - 14, lineGap: 1.5 });
  ensureSpace(doc, 30 + heightOf(entries[0] ?? ''));
  let y = sectionHeading(doc, title, MARGIN, doc.y, width);
  for (const entry of entries) {
    const height = heightOf(entry);
    if (y + height > pageBottom(doc)) {
      doc.addPage();
      y = sectionHeading(doc, `${title} (continued)`, MARGIN, doc.y, width);
    }
    if (items.length > 0) doc.circle(MARGIN + 4, y + 4.8, 2.2).fill(bulletColour);
    doc.fillColor(items.length > 0 ? COLOUR.text : COLOUR.muted).font('Helvetica').fontSize(10);
    doc.text(entry, textX, y, { width: width - 14, lineGap: 1.5 });
    y = doc.y + 4;
  }
  doc.y = y + 12;
}

/** The abstention of DECISIONS (Analysis): a caveat on the price, so it sits right under it. */
function drawSiteVisit(doc: Doc, reason: string | null): void {
  if (!reason) return;
  const lead = 'Site visit recommended: ';
  const [x, y, pad] = [MARGIN + 14, doc.y, 10];
  const width = contentRight(doc) - x - pad;
  const height = doc.font('Helvetica-Bold').fontSize(10).heightOfString(lead + winAnsi(reason), { width }) + 2 * pad;
  doc.rect(MARGIN, y, contentRight(doc) - MARGIN, height).fill(COLOUR.warnLight);
  doc.rect(MARGIN, y, 4, height).fill(COLOUR.warn);
  doc.fillColor(COLOUR.warn).text(lead, x, y + pad, { width, continued: true });
  doc.fillColor(COLOUR.text).font('Helvetica').text(winAnsi(reason));
  doc.y = y + height + 18;
}

/** The disclaimer sits at the foot of the last page, in a box. */
function drawDisclaimer(doc: Doc): void {
  const width = contentRight(doc) - MARGIN;
  const pad = 10;
  const text = winAnsi(SAFETY_DISCLAIMER);
  const textHeight = doc.font('Helvetica').fontSize(9).heightOfString(text, { width: width - 2 * pad });
  const height = textHeight + 2 * pad + 14;
  if (doc.y + height > pageBottom(doc)) doc.addPage();
  const y = pageBottom(doc) - height;
  doc.rect(MARGIN, y, width, height).fillAndStroke(COLOUR.box, COLOUR.rule);
  doc.fillColor(COLOUR.text).font('Helvetica-Bold').fontSize(9.5).text('Safety disclaimer', MARGIN + pad, y + pad, { width: width - 2 * pad });
  doc.font('Helvetica').fontSize(9).text(text, MARGIN + pad, y + pad + 14, { width: width - 2 * pad });
}

function drawFooters(doc: Doc, reference: string): void {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would make pdfkit start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - 36;
    const width = contentRight(doc) - MARGIN;
    doc.moveTo(MARGIN, y - 8).lineTo(MARGIN + width, y - 8).lineWidth(0.5).stroke(COLOUR.rule);
    doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(8.5);
    doc.text(`TreeAnalyzer Pro · Ref ${winAnsi(reference)}`, MARGIN, y, { width: width / 2, lineBreak: false });
    doc.text(`Page ${i - start + 1} of ${count}`, MARGIN + width / 2, y, { width: width / 2, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

function sectionHeading(doc: Doc, title: string, x: number, y: number, width: number): number {
  doc.fillColor(COLOUR.brand).font('Helvetica-Bold').fontSize(12.5).text(title, x, y, { width, lineBreak: false });
  doc.moveTo(x, y + 18).lineTo(x + width, y + 18).lineWidth(0.75).stroke(COLOUR.rule);
  return y + 26;
}

function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > pageBottom(doc)) doc.addPage();
}

function pageBottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

function contentRight(doc: Doc): number {
  return doc.page.width - doc.page.margins.right;
}

/** What the standard fonts can draw: ASCII, Latin-1 and the 27 extra WinAnsi characters. */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const REPLACEMENTS: Record<string, string> = {
  '\t': ' ', 'Ł': 'L', 'ł': 'l', 'Đ': 'D', 'đ': 'd', 'Ħ': 'H', 'ħ': 'h', 'ı': 'i', '\u2010': '-', '\u2011': '-', '\u2212': '-',
  '≤': '<=', '≥': '>=', '≈': '~', '→': '->', '←': '<-', '′': "'", '″': '"',
};

function isWinAnsi(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(ch);
}

/**
 * pdfkit's built-in Helvetica is WinAnsi-encoded and prints garbage for anything else,
 * and species names, factors and business names come from a model or a user. Accents
 * outside Latin-1 lose their mark, symbols and emoji are dropped, other letters become "?".
 */
function winAnsi(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (ch === '\n' || isWinAnsi(ch)) out += ch;
    else if (REPLACEMENTS[ch] !== undefined) out += REPLACEMENTS[ch];
    else if (/\p{Zs}/u.test(ch)) out += ' ';
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      if (base !== '' && [...base].every(isWinAnsi)) out += base;
      else if (!/[\p{S}\p{M}\p{C}\p{Z}]/u.test(ch)) out += '?';
    }
  }
  return out.trim();
}
