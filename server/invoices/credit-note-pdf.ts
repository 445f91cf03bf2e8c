import type { Invoice, InvoiceParties } from '../../core/invoices';
import { formatGbp } from '../../core/money';
import { QUOTE_FONT, quoteText, useQuoteFonts } from '../quotes/job-quote-font';
import { drawLetterhead, ensureRoom, heading, quoteTheme, type QuoteTheme } from '../quotes/job-quote-layout';
import { BOTTOM_MARGIN, COLOUR, MARGIN, contentWidth, drawPageFooters, pdfBytes, type Doc } from '../quotes/report-layout';
import { chargesVat } from '../../core/invoices';
import { drawCustomer, drawTotalsBox, formatDay, loadPdfkit } from './invoice-pdf';

/**
 * A credit note as a PDF (docs/product.md, Getting paid: credit notes), in the invoice's typeface,
 * letterhead and customer block. A VAT-registered supplier's credit note carries what HMRC VAT
 * Notice 700 section 18.2.6 lists: its number and date of issue, the supplier's name, address and
 * VAT registration number, the customer's name and address, the reason for the credit, what is
 * credited, the total credited without VAT, the rate and amount of VAT credited, and the number
 * and date of the invoice it corrects. The supplier is as the invoice froze it (a credit note
 * corrects that invoice, so it names the same parties); a business that charged no VAT prints
 * none here either.
 */
export interface CreditNotePdfInput {
  note: { number: string; issuedOn: string; reason: string; netPence: number; vatPence: number; grossPence: number };
  invoice: { number: string; issuedOn: string; title: string; quoteReference: string; vatMode: Invoice['vatMode']; vatRatePercent: number };
  parties: InvoiceParties;
  logo: Buffer | null;
  /** The money that went back with this credit note, when a refund made it: how much, and where to (a sentence's end). */
  refund: { amountPence: number; toWords: string } | null;
}

export const CREDIT_NOTE_TITLE = 'Credit note';

export async function buildCreditNotePdf(input: CreditNotePdfInput): Promise<Buffer> {
  const { note, invoice, parties } = input;
  const vat = chargesVat(invoice, parties);
  const theme = quoteTheme(null);
  const PDFDocument = await loadPdfkit();
  const issued = new Date(`${note.issuedOn}T12:00:00Z`);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
    bufferPages: true,
    displayTitle: true,
    info: { Title: `${CREDIT_NOTE_TITLE} ${note.number}`, Author: parties.supplier.name, Subject: `${CREDIT_NOTE_TITLE} for ${invoice.number}`, Creator: 'TreeAnalyzer Pro', CreationDate: issued, ModDate: issued },
  });
  const finished = pdfBytes(doc);
  await useQuoteFonts(doc);

  const meta: [string, string][] = [
    ['Credit note no.', note.number],
    ['Date of issue', formatDay(note.issuedOn)],
    ['Credits invoice', invoice.number],
    ['Invoice dated', formatDay(invoice.issuedOn)],
    ['For quote', invoice.quoteReference],
  ];
  drawLetterhead(doc, theme, { ...parties.supplier, vatNumber: vat ? parties.supplier.vatNumber : '', logo: input.logo }, { name: quoteText(parties.supplier.name), tradingAsOf: null }, CREDIT_NOTE_TITLE, meta);
  drawCustomer(doc, theme, parties);
  drawReason(doc, theme, input);
  drawCredited(doc, theme, input, vat);
  drawWhatItMeans(doc, theme, input);
  drawPageFooters(doc, QUOTE_FONT.regular, 7.5, () => ({ text: `${CREDIT_NOTE_TITLE} ${note.number} | Credits ${invoice.number}`, colour: COLOUR.muted }));
  doc.end();
  return finished;
}

function paragraph(doc: Doc, text: string): void {
  const width = contentWidth(doc);
  doc.font(QUOTE_FONT.regular).fontSize(9.5);
  ensureRoom(doc, doc.heightOfString(text, { width }) + 4);
  doc.fillColor(COLOUR.text).text(text, MARGIN, doc.y, { width });
  doc.y += 4;
}

function drawReason(doc: Doc, theme: QuoteTheme, input: CreditNotePdfInput): void {
  doc.y = heading(doc, theme, 'Reason for the credit');
  paragraph(doc, quoteText(input.note.reason));
  doc.y += 8;
}

/** What is credited: one line against the invoice, then the net, the VAT at the invoice's rate and the total. */
function drawCredited(doc: Doc, theme: QuoteTheme, input: CreditNotePdfInput, vat: boolean): void {
  const { note, invoice } = input;
  const width = contentWidth(doc);
  const columns = vat
    ? [
        { title: 'Net', width: 80, value: formatGbp(note.netPence) },
        { title: `VAT ${invoice.vatRatePercent}%`, width: 70, value: formatGbp(note.vatPence) },
        { title: 'Total', width: 80, value: formatGbp(note.grossPence) },
      ]
    : [{ title: 'Amount', width: 90, value: formatGbp(note.grossPence) }];
  const descriptionWidth = width - columns.reduce((sum, column) => sum + column.width, 0) - 8;
  doc.y = heading(doc, theme, 'Credited');
  const header = doc.y;
  doc.fillColor(COLOUR.muted).font(QUOTE_FONT.bold).fontSize(8).text('Description', MARGIN, header, { width: descriptionWidth, lineBreak: false });
  let x = MARGIN + descriptionWidth + 8;
  for (const column of columns) {
    doc.text(column.title, x, header, { width: column.width, align: 'right', lineBreak: false });
    x += column.width;
  }
  const top = header + 14;
  const description = `Tree work for quote ${quoteText(invoice.quoteReference)}, invoiced on ${quoteText(invoice.title)} ${invoice.number}`;
  doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(9.5).text(description, MARGIN, top, { width: descriptionWidth });
  const bottom = Math.max(doc.y, top + 12) + 6;
  x = MARGIN + descriptionWidth + 8;
  for (const column of columns) {
    doc.text(column.value, x, top, { width: column.width, align: 'right', lineBreak: false });
    x += column.width;
  }
  doc.moveTo(MARGIN, bottom - 3).lineTo(MARGIN + width, bottom - 3).lineWidth(0.5).stroke(COLOUR.rule);
  doc.y = bottom + 6;

  const rows: [string, string, boolean][] = vat
    ? [
        ['Credited without VAT', formatGbp(note.netPence), false],
        [`VAT credited at ${invoice.vatRatePercent}%`, formatGbp(note.vatPence), false],
        ['Total credited', formatGbp(note.grossPence), true],
      ]
    : [['Total credited', formatGbp(note.grossPence), true]];
  const boxWidth = 240;
  drawTotalsBox(doc, theme, { x: MARGIN + width - boxWidth, width: boxWidth, labelWidth: 140 }, rows);
}

/** What the credit does: what it takes off the invoice, and the money that went back with it. */
function drawWhatItMeans(doc: Doc, theme: QuoteTheme, input: CreditNotePdfInput): void {
  const { note, invoice, refund } = input;
  ensureRoom(doc, 60);
  doc.y = heading(doc, theme, 'What this means');
  paragraph(doc, `This credit note takes ${formatGbp(note.grossPence)} off ${invoice.title} ${invoice.number} of ${formatDay(invoice.issuedOn)}.`);
  if (refund) paragraph(doc, `${formatGbp(refund.amountPence)} has been refunded ${refund.toWords}.`);
  paragraph(doc, `Please keep it with the invoice. Questions about it: contact ${quoteText(input.parties.supplier.name)}${input.parties.supplier.email ? ` at ${quoteText(input.parties.supplier.email)}` : ''}.`);
}
