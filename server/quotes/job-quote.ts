import type { Analysis } from '../../core/analysis';
import type { Job } from '../../core/jobs';
import { formatQuoteDate, type ReportCopy } from '../../core/quote';
import { QUOTE_FONT, quoteText, useQuoteFonts } from './job-quote-font';
import { INTERNAL_COPY_TITLE, drawInternalBanner, drawWorking } from './job-quote-internal';
import { drawItems, drawTotals, itemPence, thumbnail, type QuoteLine, type QuotedItem } from './job-quote-items';
import { drawLetterhead, ensureRoom, heading, quoteTheme, type LetterheadSender, type QuoteTheme } from './job-quote-layout';
import type { QuoteCompany } from '../settings/quote-company';
import { BOTTOM_MARGIN, COLOUR, MARGIN, contentWidth, drawPageFooters, pdfBytes, type Doc } from './report-layout';

/**
 * A job's quote as a PDF (docs/analysis.md, Quotes): the surgeon's firm price for several trees
 * and typed lines, to send to the customer. The business's header, the quote's number, date and
 * validity, the customer and site, each item with a tree's photo, what will be done and its price,
 * the totals with VAT as the surgeon charges it, and the surgeon's terms. The customer's copy
 * never prints the estimator's working (confidence, species it could not name, wood density, the
 * crew's safety notes, its disclaimer): the quote is the surgeon's, not the estimator's. The
 * internal copy adds that working, tree by tree (job-quote-internal.ts). Everything is set in an
 * embedded font, so any European name or address prints as written (job-quote-font.ts).
 */
/** What the quote prints of a job: the job as it stands, or a version as it was sent (job-quote-source.ts). */
export type QuotedJob = Pick<Job, 'reference' | 'customer' | 'vatMode'> & { items: readonly QuotedItem[] };

export interface JobQuoteInput {
  job: QuotedJob;
  company: QuoteCompany;
  /** The surgeon's terms (Settings), printed as written: numbered lines hang their numbers. */
  terms: string;
  /** The protected trees' line of a sent copy (core/protection.ts customerProtectionLine), printed under the totals. */
  protectionNotice?: string | null;
  /** The deposit a sent copy asks, how much, when and how to pay it (core/card-payments.ts depositWords), printed under the totals. */
  deposit?: readonly string[];
  issuedAt: Date;
  validUntil: Date;
  /** Each tree's stored photo by analysis id; null or missing prints the row without one. */
  photos: ReadonlyMap<number, Buffer | null>;
  /** On an accepted copy: the optional items the customer chose; the totals then include them. */
  chosenOptionalIds?: readonly number[];
  /**
   * Prints "Accepted by <name> on <date>" (with chosenOptionalIds, the accepted quote), and when
   * the consumer asked for the work to start within their 14-day cancellation period, says so.
   */
  acceptance?: {
    name: string;
    at: Date;
    startEarly?: boolean;
    /** The accepted copy's fingerprint and the sentence on how to check it (core/quote-copy.ts). */
    fingerprint?: { hash: string; check: string };
  } | null;
  /** A consumer's accepted copy: the right to cancel and the model form filled in (core/consumer-rights.ts). */
  rights?: { notice: string[]; form: string[] } | null;
  copy: ReportCopy;
  /** The trees' analyses by id, for the internal copy's working. */
  analyses?: ReadonlyMap<number, Analysis>;
  /** The business a website lead's job came through: its name heads the quote, its accent colours it. */
  business?: { name: string; accent: string | null } | null;
}

/** pdfkit loads with the first quote, as in report.ts. */
let pdfkit: Promise<typeof import('pdfkit')> | undefined;
const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((module) => module.default));

export async function buildJobQuotePdf(input: JobQuoteInput): Promise<Buffer> {
  const { job, copy } = input;
  const sender = quoteSender(input.company, input.business ?? null);
  const theme = quoteTheme(input.business?.accent);
  const lines = await quoteLines(input);
  const PDFDocument = await loadPdfkit();
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
    bufferPages: true,
    displayTitle: true,
    info: {
      Title: `Quote ${job.reference}`,
      Author: sender?.name ?? 'TreeAnalyzer Pro',
      Subject: 'Tree work quote',
      Creator: 'TreeAnalyzer Pro',
      CreationDate: input.issuedAt,
      ModDate: input.issuedAt,
    },
  });
  const finished = pdfBytes(doc);
  await useQuoteFonts(doc);

  drawHeader(doc, theme, input, sender);
  if (copy === 'internal') drawInternalBanner(doc, job.reference);
  drawParties(doc, theme, job.customer);
  drawItems(doc, theme, lines, job.vatMode);
  drawTotals(doc, theme, lines, job.vatMode);
  if (input.protectionNotice) drawProtectionNotice(doc, input.protectionNotice);
  if (input.deposit && input.deposit.length > 0) drawDeposit(doc, theme, input.deposit);
  drawAcceptance(doc, theme, input, sender?.name ?? null);
  drawTerms(doc, theme, input.terms);
  if (input.rights) drawRights(doc, theme, input.rights);
  if (copy === 'internal') drawWorking(doc, theme, job.reference, lines, input.analyses ?? new Map());
  drawFooters(doc, copy, job.reference, input.validUntil);
  doc.end();
  return finished;
}

/** Each item with its price in pence, whether it was chosen (an accepted copy) and a tree's photo, shrunk. */
async function quoteLines(input: JobQuoteInput): Promise<QuoteLine[]> {
  const chosen = input.chosenOptionalIds ? new Set(input.chosenOptionalIds) : null;
  return Promise.all(
    input.job.items.map(async (item) => {
      const photo = item.kind === 'tree' && item.analysisId !== null ? input.photos.get(item.analysisId) : null;
      return {
        item,
        pricePence: itemPence(item),
        chosen: item.optional && chosen ? chosen.has(item.id) : null,
        photo: photo ? await thumbnail(photo) : null,
      };
    }),
  );
}

type QuoteSender = LetterheadSender;

const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Who the quote is from, as report.ts decides it: a website lead's job under the business's name
 * it came through ("A trading name of" the profile's, when they differ: Companies Act 2006
 * Part 41), anything else under the profile's trading name; with neither, nobody.
 */
function quoteSender(company: QuoteCompany, business: { name: string } | null): QuoteSender | null {
  const tradingName = quoteText(company.tradingName) || null;
  const businessName = business ? quoteText(business.name) || null : null;
  if (businessName) return { name: businessName, tradingAsOf: tradingName && !sameName(tradingName, businessName) ? tradingName : null };
  return tradingName ? { name: tradingName, tradingAsOf: null } : null;
}

function drawHeader(doc: Doc, theme: QuoteTheme, input: JobQuoteInput, sender: QuoteSender | null): void {
  drawLetterhead(doc, theme, input.company, sender, 'Quote', [
    ['Quote no.', input.job.reference],
    ['Date', formatQuoteDate(input.issuedAt)],
    ['Valid until', formatQuoteDate(input.validUntil)],
  ]);
}

/** Who the quote is for and where the work is, side by side. */
function drawParties(doc: Doc, theme: QuoteTheme, customer: Job['customer']): void {
  const gap = 20;
  const columnWidth = (contentWidth(doc) - gap) / 2;
  const top = doc.y;
  const block = (title: string, x: number, strong: string | null, rest: string[]) => {
    doc.fillColor(theme.accent).font(QUOTE_FONT.bold).fontSize(9).text(title, x, top, { width: columnWidth });
    if (strong) doc.fillColor(COLOUR.text).font(QUOTE_FONT.bold).fontSize(10.5).text(strong, x, doc.y + 1, { width: columnWidth });
    doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(9.5);
    for (const line of rest) doc.text(line, x, doc.y, { width: columnWidth });
    return doc.y;
  };
  const contact = [customer.email, customer.phone].filter((v): v is string => Boolean(v)).map(quoteText);
  const leftBottom = block('Prepared for', MARGIN, quoteText(customer.name), contact);
  const site = customer.siteAddress ? quoteText(customer.siteAddress).split('\n').map((line) => line.trim()).filter(Boolean) : [];
  const rightBottom = block('Site address', MARGIN + columnWidth + gap, null, site.length > 0 ? site : ['To be confirmed']);
  doc.y = Math.max(leftBottom, rightBottom) + 12;
}

/**
 * Under the totals: on an accepted copy, who accepted and when; otherwise how long the price
 * holds and whom to ask, quoting the number.
 */
function drawAcceptance(doc: Doc, theme: QuoteTheme, input: JobQuoteInput, sender: string | null): void {
  const width = contentWidth(doc);
  if (input.acceptance) {
    const early = input.acceptance.startEarly ? ` The customer asked for the work to start within their 14-day cancellation period.` : '';
    const text = `Accepted by ${quoteText(input.acceptance.name)} on ${formatQuoteDate(input.acceptance.at)}.${early}`;
    const print = input.acceptance.fingerprint;
    const proof = print ? `Fingerprint of the accepted quote (SHA-256): ${print.hash}. ${print.check}` : '';
    const textHeight = doc.font(QUOTE_FONT.bold).fontSize(10.5).heightOfString(text, { width: width - 28 });
    const proofHeight = proof ? doc.font(QUOTE_FONT.regular).fontSize(8).heightOfString(proof, { width: width - 28 }) + 6 : 0;
    const height = textHeight + proofHeight + 16;
    ensureRoom(doc, height);
    const y = doc.y;
    doc.rect(MARGIN, y, width, height).fill(theme.tint);
    doc.rect(MARGIN, y, 4, height).fill(theme.accent);
    doc.fillColor(COLOUR.text).font(QUOTE_FONT.bold).fontSize(10.5).text(text, MARGIN + 14, y + 8, { width: width - 28 });
    if (proof) doc.fillColor(COLOUR.muted).font(QUOTE_FONT.regular).fontSize(8).text(proof, MARGIN + 14, y + 8 + textHeight + 6, { width: width - 28 });
    doc.y = y + height + 14;
    return;
  }
  const { company, job, validUntil } = input;
  const contact = [company.phone ? `on ${quoteText(company.phone)}` : null, company.email ? `at ${quoteText(company.email)}` : null].filter(Boolean).join(' or ');
  const ask = sender && contact ? ` To accept it or ask about it, contact ${sender} ${contact}, quoting ${job.reference}.` : '';
  const text = `This quote is valid until ${formatQuoteDate(validUntil)}.${ask}`;
  doc.font(QUOTE_FONT.regular).fontSize(9.5);
  ensureRoom(doc, doc.heightOfString(text, { width }));
  doc.fillColor(COLOUR.text).text(text, MARGIN, doc.y, { width, lineGap: 1 });
  doc.y += 12;
}

/** The one line on the site's protected trees, as the customer's page shows it. */
function drawProtectionNotice(doc: Doc, line: string): void {
  const width = contentWidth(doc);
  const text = `${quoteText(line)}.`;
  doc.font(QUOTE_FONT.bold).fontSize(9.5);
  ensureRoom(doc, doc.heightOfString(text, { width }) + 12);
  doc.y += 8;
  doc.fillColor(COLOUR.text).text(text, MARGIN, doc.y, { width });
}

/** The deposit the quote asks, under its own heading, kept together. */
function drawDeposit(doc: Doc, theme: QuoteTheme, lines: readonly string[]): void {
  const width = contentWidth(doc);
  const text = lines.map(quoteText).join('\n');
  doc.font(QUOTE_FONT.regular).fontSize(9.5);
  ensureRoom(doc, doc.heightOfString(text, { width, lineGap: 1 }) + 30);
  doc.y += 8;
  doc.y = heading(doc, theme, 'Deposit');
  doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(9.5).text(text, MARGIN, doc.y, { width, lineGap: 1 });
  doc.y += 10;
}

/** A numbered term ("1. Price: ...") hangs its number; a line starting "- ", "* " or "• " hangs a bullet. */
const HANGING = /^(\d{1,3}[.)]|[-•*])\s+(.*)$/;

/** The surgeon's terms, paragraph by paragraph, wrapped and flowing over as many pages as they need. */
function drawTerms(doc: Doc, theme: QuoteTheme, terms: string): void {
  const paragraphs = quoteText(terms).split('\n');
  if (paragraphs.every((p) => p.trim() === '')) return;
  const width = contentWidth(doc);
  const hang = 18;
  const options = { width: width - hang, lineGap: 1 };
  doc.font(QUOTE_FONT.regular).fontSize(8.5);
  // The heading stays with the first term's first lines.
  ensureRoom(doc, 20 + 3 * doc.currentLineHeight(true));
  doc.y = heading(doc, theme, 'Terms');
  for (const paragraph of paragraphs) {
    const line = paragraph.trim();
    if (line === '') {
      doc.y += 4;
      continue;
    }
    const hanging = HANGING.exec(line);
    const [marker, text] = hanging ? [hanging[1]!, hanging[2]!] : [null, line];
    doc.font(QUOTE_FONT.regular).fontSize(8.5);
    // At least two lines of a term together; a longer one flows onto the next page.
    ensureRoom(doc, Math.min(doc.heightOfString(text, options), 2 * doc.currentLineHeight(true)));
    const y = doc.y;
    doc.fillColor(COLOUR.text);
    if (marker) {
      doc.font(QUOTE_FONT.bold).text(/^\d/.test(marker) ? marker : '•', MARGIN, y, { width: hang, lineBreak: false });
      doc.font(QUOTE_FONT.regular).text(text, MARGIN + hang, y, options);
    } else {
      doc.text(text, MARGIN, y, { width, lineGap: 1 });
    }
    doc.y += 2.5;
  }
}

/** A consumer's right to cancel and the model form, filled in with the accepted quote's facts. */
function drawRights(doc: Doc, theme: QuoteTheme, rights: { notice: string[]; form: string[] }): void {
  const width = contentWidth(doc);
  for (const [title = '', ...lines] of [rights.notice, rights.form]) {
    doc.font(QUOTE_FONT.regular).fontSize(8.5);
    ensureRoom(doc, 20 + 3 * doc.currentLineHeight(true));
    doc.y = heading(doc, theme, title);
    for (const line of lines) {
      const text = quoteText(line);
      doc.font(QUOTE_FONT.regular).fontSize(8.5);
      ensureRoom(doc, Math.min(doc.heightOfString(text, { width, lineGap: 1 }), 2 * doc.currentLineHeight(true)));
      doc.fillColor(COLOUR.text).text(text, MARGIN, doc.y, { width, lineGap: 1 });
      doc.y += 3;
    }
  }
}

/** Every page's foot: the quote and its validity, or on the internal copy a warning, and the page count. */
function drawFooters(doc: Doc, copy: ReportCopy, reference: string, validUntil: Date): void {
  const left =
    copy === 'internal'
      ? { text: `${INTERNAL_COPY_TITLE} | Quote ${reference}`, colour: COLOUR.warn }
      : { text: `Quote ${reference} | Valid until ${formatQuoteDate(validUntil)}`, colour: COLOUR.muted };
  drawPageFooters(doc, QUOTE_FONT.regular, 7.5, () => left);
}
