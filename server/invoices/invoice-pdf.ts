import { chargesVat, formatSortCode, invoiceTitle, PAYMENT_METHOD_WORDS, type Invoice, type InvoiceParties } from '../../core/invoices';
import { formatGbp, parsePence } from '../../core/money';
import { formatQuoteDate } from '../../core/quote';
import { ukToday } from '../../core/job-booking';
import { QUOTE_FONT, quoteText, useQuoteFonts } from '../quotes/job-quote-font';
import { drawLetterhead, ensureRoom, heading, quoteTheme, type QuoteTheme } from '../quotes/job-quote-layout';
import { BOTTOM_MARGIN, COLOUR, MARGIN, contentWidth, drawPageFooters, pdfBytes, type Doc } from '../quotes/report-layout';

/**
 * An issued invoice as a PDF (docs/product.md, Getting paid), in the quote's typeface and page
 * furniture. A VAT-registered supplier's invoice carries what HMRC VAT Notice 700/21 lists: a
 * unique number, the date of issue, the time of supply (tax point), the supplier's name, address
 * and VAT registration number, the customer's name and address, each line's description,
 * quantity, unit price and net amount, the VAT rate, and the totals without and with VAT. A
 * business that is not VAT registered (no VAT number, or a quote priced without VAT) prints no
 * VAT anywhere, so its invoice cannot look as if it charges it. How to pay follows: the bank
 * details with the invoice number as the reference.
 */
export interface InvoicePdfInput {
  invoice: Invoice;
  parties: InvoiceParties;
  logo: Buffer | null;
  accent: string | null;
}

/** "2026-06-08" -> "8 June 2026". */
export const formatDay = (day: string): string => formatQuoteDate(new Date(`${day}T12:00:00Z`));

const gbp = (text: string): string => {
  const negative = text.startsWith('-');
  const pence = parsePence(negative ? text.slice(1) : text) ?? 0;
  return formatGbp(negative ? -pence : pence);
};

let pdfkit: Promise<typeof import('pdfkit')> | undefined;
export const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((module) => module.default));

export async function buildInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const { invoice, parties } = input;
  const vat = chargesVat(invoice, parties);
  const title = invoiceTitle(invoice, parties);
  const theme = quoteTheme(input.accent);
  const PDFDocument = await loadPdfkit();
  const issued = invoice.issuedOn ? new Date(`${invoice.issuedOn}T12:00:00Z`) : new Date(0);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
    bufferPages: true,
    displayTitle: true,
    info: { Title: `${title} ${invoice.number ?? ''}`.trim(), Author: parties.supplier.name, Subject: title, Creator: 'TreeAnalyzer Pro', CreationDate: issued, ModDate: issued },
  });
  const finished = pdfBytes(doc);
  await useQuoteFonts(doc);

  const meta: [string, string][] = [
    ['Invoice no.', invoice.number ?? 'Draft'],
    ['Issue date', invoice.issuedOn ? formatDay(invoice.issuedOn) : 'Not issued'],
    ...(vat && invoice.taxPoint ? ([['Tax point', formatDay(invoice.taxPoint)]] as [string, string][]) : []),
    ['Due', invoice.dueOn ? formatDay(invoice.dueOn) : '-'],
    ['For quote', invoice.quoteReference],
  ];
  drawLetterhead(doc, theme, { ...parties.supplier, vatNumber: vat ? parties.supplier.vatNumber : '', logo: input.logo }, { name: quoteText(parties.supplier.name), tradingAsOf: parties.supplier.legalName ? quoteText(parties.supplier.legalName) : null }, title, meta);
  drawCustomer(doc, theme, parties);
  drawLines(doc, theme, invoice, vat);
  drawTotals(doc, theme, invoice, vat);
  if (invoice.lateInterest && invoice.dueOn) {
    const words = lateInterestWords(invoice.lateInterest, invoice.dueOn);
    doc.font(QUOTE_FONT.regular).fontSize(9);
    ensureRoom(doc, doc.heightOfString(words, { width: contentWidth(doc) }) + 10);
    doc.fillColor(COLOUR.text).text(words, MARGIN, doc.y, { width: contentWidth(doc) });
    doc.y += 10;
  }
  drawMoneyHistory(doc, theme, invoice, vat);
  drawHowToPay(doc, theme, invoice, parties);
  drawPageFooters(doc, QUOTE_FONT.regular, 7.5, () => ({ text: `${title} ${invoice.number ?? ''}${invoice.dueOn ? ` | Due ${formatDay(invoice.dueOn)}` : ''}`, colour: COLOUR.muted }));
  doc.end();
  return finished;
}

export function drawCustomer(doc: Doc, theme: QuoteTheme, parties: InvoiceParties): void {
  const width = contentWidth(doc);
  doc.fillColor(theme.accent).font(QUOTE_FONT.bold).fontSize(9).text('Bill to', MARGIN, doc.y, { width });
  doc.fillColor(COLOUR.text).font(QUOTE_FONT.bold).fontSize(10.5).text(quoteText(parties.customer.name), MARGIN, doc.y + 1, { width });
  doc.font(QUOTE_FONT.regular).fontSize(9.5);
  const address = parties.customer.address ? quoteText(parties.customer.address).split('\n').map((line) => line.trim()).filter(Boolean) : [];
  for (const line of [...address, ...(parties.customer.email ? [quoteText(parties.customer.email)] : [])]) doc.text(line, MARGIN, doc.y, { width });
  doc.y += 14;
}

/** The lines: description (and note), quantity, unit price, and with VAT the net, VAT and gross. */
function drawLines(doc: Doc, theme: QuoteTheme, invoice: Invoice, vat: boolean): void {
  const width = contentWidth(doc);
  const columns = vat
    ? [
        { title: 'Qty', width: 30 },
        { title: 'Unit price', width: 70 },
        { title: 'Net', width: 70 },
        { title: `VAT ${invoice.vatRatePercent}%`, width: 60 },
        { title: 'Total', width: 70 },
      ]
    : [
        { title: 'Qty', width: 30 },
        { title: 'Unit price', width: 70 },
        { title: 'Amount', width: 80 },
      ];
  const numbersWidth = columns.reduce((sum, column) => sum + column.width, 0);
  const descriptionWidth = width - numbersWidth - 8;
  doc.y = heading(doc, theme, 'Work invoiced');
  const header = doc.y;
  doc.fillColor(COLOUR.muted).font(QUOTE_FONT.bold).fontSize(8).text('Description', MARGIN, header, { width: descriptionWidth, lineBreak: false });
  let x = MARGIN + descriptionWidth + 8;
  for (const column of columns) {
    doc.text(column.title, x, header, { width: column.width, align: 'right', lineBreak: false });
    x += column.width;
  }
  doc.y = header + 14;
  for (const line of invoice.lines) {
    const description = quoteText(line.description);
    const note = line.note ? quoteText(line.note) : '';
    doc.font(QUOTE_FONT.regular).fontSize(9.5);
    const height = doc.heightOfString(description, { width: descriptionWidth }) + (note ? doc.font(QUOTE_FONT.regular).fontSize(8).heightOfString(note, { width: descriptionWidth }) + 2 : 0) + 8;
    ensureRoom(doc, height);
    const top = doc.y;
    doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(9.5).text(description, MARGIN, top, { width: descriptionWidth });
    if (note) doc.fillColor(COLOUR.muted).font(QUOTE_FONT.regular).fontSize(8).text(note, MARGIN, doc.y + 2, { width: descriptionWidth });
    // The unit price is the net price for a VAT invoice (HMRC: the unit price excluding VAT).
    const unit = vat ? line.net : line.gross;
    const cells = vat ? [String(line.quantity), gbp(unit), gbp(line.net), gbp(line.vat), gbp(line.gross)] : [String(line.quantity), gbp(unit), gbp(line.gross)];
    x = MARGIN + descriptionWidth + 8;
    doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(9.5);
    cells.forEach((cell, index) => {
      doc.text(cell, x, top, { width: columns[index]!.width, align: 'right', lineBreak: false });
      x += columns[index]!.width;
    });
    doc.y = top + height;
    doc.moveTo(MARGIN, doc.y - 4).lineTo(MARGIN + width, doc.y - 4).lineWidth(0.5).stroke(COLOUR.rule);
  }
  doc.y += 6;
}

/** The totals, then what was paid and what is due. */
function drawTotals(doc: Doc, theme: QuoteTheme, invoice: Invoice, vat: boolean): void {
  const width = 240;
  const x = MARGIN + contentWidth(doc) - width;
  const rows: [string, string, boolean][] = vat
    ? [
        ['Total without VAT', gbp(invoice.totals.net), false],
        [`VAT at ${invoice.vatRatePercent}%`, gbp(invoice.totals.vat), false],
        ['Total with VAT', gbp(invoice.totals.gross), true],
      ]
    : [['Total', gbp(invoice.totals.gross), true]];
  // As the customer's page: the money received, and what of it went back, read down to what is due.
  const received = invoice.payments.reduce((sum, payment) => sum + (parsePence(payment.amount) ?? 0), 0);
  const refunded = invoice.payments.reduce((sum, payment) => sum + (parsePence(payment.refunded) ?? 0), 0);
  if (invoice.credited !== '0.00') rows.push(['Credited', `-${gbp(invoice.credited)}`, false]);
  if (received > 0) rows.push(['Paid', `-${formatGbp(received)}`, false]);
  if (refunded > 0) rows.push(['Refunded', `+${formatGbp(refunded)}`, false]);
  rows.push(['Amount due', gbp(invoice.owed), true]);
  drawTotalsBox(doc, theme, { x, width, labelWidth: 130 }, rows);
}

/**
 * A tinted box of [label, amount, strong] rows, the amounts right-aligned: the invoice's totals and
 * the credit note's (credit-note-pdf.ts). `labelWidth` is the labels' column inside the box.
 */
export function drawTotalsBox(doc: Doc, theme: QuoteTheme, box: { x: number; width: number; labelWidth: number }, rows: readonly (readonly [string, string, boolean])[]): void {
  const { x, width, labelWidth } = box;
  ensureRoom(doc, rows.length * 16 + 16);
  const top = doc.y;
  doc.rect(x, top, width, rows.length * 16 + 10).fill(theme.tint);
  let y = top + 6;
  for (const [label, value, strong] of rows) {
    doc.fillColor(strong ? theme.accent : COLOUR.text).font(strong ? QUOTE_FONT.bold : QUOTE_FONT.regular).fontSize(strong ? 10.5 : 9.5);
    doc.text(label, x + 10, y, { width: labelWidth, lineBreak: false });
    doc.text(value, x + labelWidth + 10, y, { width: width - labelWidth - 20, align: 'right', lineBreak: false });
    y += 16;
  }
  doc.y = top + rows.length * 16 + 24;
}

/** The statutory interest accrued on a business customer's overdue invoice, under the totals. */
export function lateInterestWords(interest: NonNullable<Invoice['lateInterest']>, dueOn: string): string {
  return `Statutory interest of ${gbp(interest.amount)} has accrued at ${interest.ratePercent}% a year for the ${interest.days} days since ${formatDay(dueOn)}, under the Late Payment of Commercial Debts (Interest) Act 1998, and is payable with the amount due.`;
}

/** Payments received, refunds and credit notes (with the VAT credited where VAT is charged), each dated, oldest first. */
function drawMoneyHistory(doc: Doc, theme: QuoteTheme, invoice: Invoice, vat: boolean): void {
  const dated: { on: string; text: string }[] = [
    ...invoice.payments.map((payment) => ({ on: payment.paidOn, text: `${gbp(payment.amount)} received by ${PAYMENT_METHOD_WORDS[payment.method].toLowerCase()}${payment.reference ? ` (${quoteText(payment.reference)})` : ''}` })),
    ...invoice.creditNotes.map((note) => ({
      on: note.issuedOn,
      text: `credit note ${note.number} for ${gbp(note.gross)}${vat ? ` (${gbp(note.net)} and VAT ${gbp(note.vat)})` : ''}: ${quoteText(note.reason)}`,
    })),
    ...invoice.refunds.map((refund) => ({ on: ukToday(new Date(refund.at)), text: `${gbp(refund.amount)} refunded${refund.creditNoteNumber ? ` with credit note ${refund.creditNoteNumber}` : ''}` })),
  ];
  const entries = dated
    .map((item, index) => ({ ...item, index }))
    .sort((a, b) => a.on.localeCompare(b.on) || a.index - b.index)
    .map((item) => `${formatDay(item.on)}: ${item.text}`);
  if (entries.length === 0) return;
  const width = contentWidth(doc);
  ensureRoom(doc, 40);
  doc.y = heading(doc, theme, 'Payments and credits');
  for (const entry of entries) {
    doc.font(QUOTE_FONT.regular).fontSize(9);
    ensureRoom(doc, doc.heightOfString(entry, { width }));
    doc.fillColor(COLOUR.text).text(entry, MARGIN, doc.y, { width });
    doc.y += 2;
  }
  doc.y += 10;
}

/** How to pay: by bank transfer with the invoice number as the reference, by the due date. */
function drawHowToPay(doc: Doc, theme: QuoteTheme, invoice: Invoice, parties: InvoiceParties): void {
  if (invoice.owed === '0.00') return;
  const width = contentWidth(doc);
  const lines: string[] = [];
  if (parties.bank) {
    lines.push('Please pay by bank transfer to:');
    lines.push(`Account name: ${quoteText(parties.bank.accountName)}`);
    lines.push(`Sort code: ${formatSortCode(parties.bank.sortCode)}    Account number: ${parties.bank.accountNumber}`);
    lines.push(`Reference: ${invoice.number ?? ''}`);
  } else {
    const contact = [parties.supplier.phone, parties.supplier.email].filter(Boolean).map(quoteText).join(' or ');
    lines.push(`Please contact ${quoteText(parties.supplier.name)}${contact ? ` (${contact})` : ''} to pay, quoting ${invoice.number ?? 'this invoice'}.`);
  }
  if (invoice.dueOn) lines.push(`${gbp(invoice.owed)} is due by ${formatDay(invoice.dueOn)}.`);
  ensureRoom(doc, 24 + lines.length * 14);
  doc.y = heading(doc, theme, 'How to pay');
  for (const line of lines) doc.fillColor(COLOUR.text).font(QUOTE_FONT.regular).fontSize(9.5).text(line, MARGIN, doc.y, { width });
}
