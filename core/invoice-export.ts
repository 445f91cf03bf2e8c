import { z } from 'zod';
import { calendarDateParts } from './job-booking';
import { parsePostcode } from './postcode';

/**
 * The accountant's exports (docs/product.md, Getting paid; docs/payments.md, The accountant's
 * files, cites the guides): issued invoices and credit notes in a period as CSV files that Xero's
 * and QuickBooks Online's imports take, every column of their templates in the templates' order.
 * Pure: the server gathers the rows (server/invoices/export.ts), this writes them.
 *
 * - Xero, sales invoice import (its template, SalesInvoiceTemplate.csv): one row per line,
 *   InvoiceNumber repeated on each, the customer's postal address, dates as DD/MM/YYYY,
 *   UnitAmount without VAT (choose "Tax exclusive" when importing) with Xero's TaxType ("20% (VAT
 *   on Income)", or "No VAT") and the line's TaxAmount, AccountCode the Settings sales account
 *   (200, Xero's "Sales"); Total left for Xero to work out. A credit note goes in the same file as
 *   Xero's import takes one: its own CN- number, a negative Quantity (the amounts as credited), so
 *   its total is negative and Xero makes it a credit note. At most 500 invoices a file.
 * - QuickBooks Online, invoice import (its sample file): InvoiceNo, Customer, InvoiceDate,
 *   DueDate, Terms, Location, Memo, Item(Product/Service), ItemDescription, ItemQuantity, ItemRate,
 *   ItemAmount, ItemTaxCode ("20.0% S", or "No VAT"), ItemTaxAmount, Currency, Service Date. Its
 *   invoice import takes no credit notes: they go in a file of their own for its "Import credit
 *   notes" (Settings → Import data), with positive amounts, never as negative invoices.
 *
 * Every text cell (a name, an address, a description, a number with the typed prefix, a code)
 * that starts with "=", "+", "-", "@", a tab or a carriage return is neutralised with a leading
 * apostrophe (OWASP CSV injection), so a spreadsheet shows it and never runs it; amounts and
 * quantities are the product's own numbers and stay numbers.
 */

export const EXPORT_FORMATS = ['xero', 'quickbooks', 'quickbooks-credit-notes'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Xero takes at most 500 invoices in one file. */
export const XERO_MAX_INVOICES = 500;

export const EXPORT_MESSAGES = {
  date: 'Dates are YYYY-MM-DD, e.g. 2026-06-01',
  missingDate: 'That date does not exist',
  backwards: 'The period must end on or after the day it starts',
  format: "format must be 'xero', 'quickbooks' or 'quickbooks-credit-notes'",
} as const;

/** A real calendar day: "2026-13-01", "2026-02-30" and "garbage" are each refused with a sentence, never thrown on. */
const dayText = z
  .string(EXPORT_MESSAGES.date)
  .regex(/^\d{4}-\d{2}-\d{2}$/, EXPORT_MESSAGES.date)
  .refine((v) => calendarDateParts(v) !== null, EXPORT_MESSAGES.missingDate);

/** GET /api/invoices/export.csv?format=&from=&to= */
export const exportQuerySchema = z
  .object({
    format: z.enum(EXPORT_FORMATS, EXPORT_MESSAGES.format),
    from: dayText,
    to: dayText,
  })
  .refine((v) => v.from <= v.to, { message: EXPORT_MESSAGES.backwards, path: ['to'] });

/** One line of an exported document, in pence (net and VAT) as the invoice has it. */
export interface ExportLine {
  description: string;
  quantity: number;
  netPence: number;
  vatPence: number;
}

/** An issued invoice or a credit note in the period, with its lines. */
export interface ExportDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  /** For a credit note: the invoice it credits. */
  credits: string | null;
  customerName: string;
  customerEmail: string | null;
  /** The customer's address as the invoice has it ("2 Mill Lane, Cheltenham GL50 1QA"), or null. */
  customerAddress: string | null;
  issuedOn: string;
  dueOn: string;
  /** The payment terms the invoice was issued on, in days (0: on completion). */
  paymentTermsDays: number;
  /** Whether VAT was charged (a VAT-registered business's quote priced with VAT). */
  vat: boolean;
  vatRatePercent: number;
  lines: ExportLine[];
}

const DANGEROUS_START = /^[=+\-@\t\r]/;

/** A text cell, safe to open in a spreadsheet. */
export function safeText(text: string): string {
  return DANGEROUS_START.test(text) ? `'${text}` : text;
}

/** One CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A cell the product writes as a number (an amount, a quantity): never neutralised, so it stays a number. */
class NumberCell {
  constructor(readonly text: string) {}
}

/** Every cell but a product's number goes through safeText: no typed text reaches the file unneutralised. */
const row = (cells: readonly (string | NumberCell)[]) => cells.map((cell) => field(cell instanceof NumberCell ? cell.text : safeText(cell))).join(',');

/** 1234 -> "12.34", -1234 -> "-12.34". */
function amount(pence: number): NumberCell {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  return new NumberCell(`${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`);
}

const quantityCell = (quantity: number) => new NumberCell(String(quantity));

/** "2026-06-08" -> "08/06/2026". */
export const ukDate = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** A postal address in the import's parts: up to four lines, the post town, the postcode. */
export interface AddressParts {
  lines: [string, string, string, string];
  city: string;
  postcode: string;
}

/**
 * "Flat 2, 14 Mill Lane, Cheltenham GL50 1QA" -> lines ["Flat 2", "14 Mill Lane"], city
 * "Cheltenham", postcode "GL50 1QA": split at commas and line breaks; a UK postcode at the end is
 * its own cell and the part before it is the post town (Royal Mail's order). Lines past four are
 * kept, joined, in the fourth.
 */
export function addressParts(address: string | null): AddressParts {
  const parts = (address ?? '').split(/[,\n\r]+/).map((p) => p.trim()).filter(Boolean);
  let postcode = '';
  const last = parts.at(-1);
  const ending = last ? /^(.*?)\s*([A-Za-z]{1,2}[0-9][A-Za-z0-9]?\s*[0-9][A-Za-z]{2})$/.exec(last) : null;
  const parsed = ending ? parsePostcode(ending[2]!) : null;
  if (ending && parsed) {
    postcode = parsed.postcode;
    parts.pop();
    if (ending[1]) parts.push(ending[1]);
  }
  const city = parts.length >= 2 || postcode ? (parts.pop() ?? '') : '';
  const lines: [string, string, string, string] = [parts[0] ?? '', parts[1] ?? '', parts[2] ?? '', parts.slice(3).join(', ')];
  return { lines, city, postcode };
}

export const XERO_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'Total',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TaxAmount',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
] as const;

export const QUICKBOOKS_COLUMNS = [
  'InvoiceNo',
  'Customer',
  'InvoiceDate',
  'DueDate',
  'Terms',
  'Location',
  'Memo',
  'Item(Product/Service)',
  'ItemDescription',
  'ItemQuantity',
  'ItemRate',
  'ItemAmount',
  'ItemTaxCode',
  'ItemTaxAmount',
  'Currency',
  'Service Date',
] as const;

/** QuickBooks Online's credit note import: the invoice file's columns for a credit note (no due date or terms: nothing is due on a credit). */
export const QUICKBOOKS_CREDIT_NOTE_COLUMNS = [
  'CreditNoteNo',
  'Customer',
  'CreditNoteDate',
  'Location',
  'Memo',
  'Item(Product/Service)',
  'ItemDescription',
  'ItemQuantity',
  'ItemRate',
  'ItemAmount',
  'ItemTaxCode',
  'ItemTaxAmount',
  'Currency',
  'Service Date',
] as const;

/** The item every line is filed under in QuickBooks (its import makes it when asked to). */
export const QUICKBOOKS_ITEM = 'Tree work';

const xeroTaxType = (doc: ExportDocument) => (doc.vat ? `${doc.vatRatePercent}% (VAT on Income)` : 'No VAT');
const quickbooksTaxCode = (doc: ExportDocument) => (doc.vat ? `${doc.vatRatePercent.toFixed(1)}% S` : 'No VAT');
/** QuickBooks' own names for payment terms ("Due on receipt", "Net 30"); a business with 7 or 14 days adds "Net 7" or "Net 14" to its terms once. */
export const quickbooksTerms = (days: number) => (days === 0 ? 'Due on receipt' : `Net ${days}`);

const unitPence = (line: ExportLine) => (line.quantity === 0 ? 0 : Math.round(line.netPence / line.quantity));

/** The Xero sales invoice import file: UTF-8, a header row, one row per line; credit notes as Xero's import takes them. */
export function xeroCsv(documents: readonly ExportDocument[], accountCode: string): string {
  const lines = [row(XERO_COLUMNS)];
  for (const doc of documents) {
    const credit = doc.kind === 'credit_note';
    const address = addressParts(doc.customerAddress);
    for (const line of doc.lines) {
      // A credit note's line: a negative Quantity, the unit amount as credited (positive), the VAT negative.
      const quantity = credit ? -Math.abs(line.quantity) : line.quantity;
      const unit = unitPence(line);
      lines.push(
        row([
          doc.customerName,
          doc.customerEmail ?? '',
          ...address.lines,
          address.city,
          '',
          address.postcode,
          '',
          doc.number,
          credit && doc.credits ? `Credit for ${doc.credits}` : '',
          ukDate(doc.issuedOn),
          ukDate(doc.dueOn),
          '',
          '',
          line.description,
          quantityCell(quantity),
          amount(credit ? Math.abs(unit) : unit),
          '',
          accountCode,
          xeroTaxType(doc),
          amount(credit ? -Math.abs(line.vatPence) : line.vatPence),
          '',
          '',
          '',
          '',
          'GBP',
          '',
        ]),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The QuickBooks Online invoice import file: UTF-8, a header row, one row per line; invoices only. */
export function quickbooksCsv(documents: readonly ExportDocument[]): string {
  const lines = [row(QUICKBOOKS_COLUMNS)];
  for (const doc of documents) {
    if (doc.kind !== 'invoice') continue;
    for (const line of doc.lines) {
      lines.push(
        row([
          doc.number,
          doc.customerName,
          ukDate(doc.issuedOn),
          ukDate(doc.dueOn),
          quickbooksTerms(doc.paymentTermsDays),
          '',
          '',
          QUICKBOOKS_ITEM,
          line.description,
          quantityCell(line.quantity),
          amount(unitPence(line)),
          amount(line.netPence),
          quickbooksTaxCode(doc),
          amount(line.vatPence),
          'GBP',
          '',
        ]),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The QuickBooks Online credit note import file: the credit notes of the period, amounts as
 * credited (positive: QuickBooks' credit note is a credit by its kind), the invoice it credits in
 * the Memo.
 */
export function quickbooksCreditNotesCsv(documents: readonly ExportDocument[]): string {
  const lines = [row(QUICKBOOKS_CREDIT_NOTE_COLUMNS)];
  for (const doc of documents) {
    if (doc.kind !== 'credit_note') continue;
    for (const line of doc.lines) {
      lines.push(
        row([
          doc.number,
          doc.customerName,
          ukDate(doc.issuedOn),
          '',
          doc.credits ? `Credit note for ${doc.credits}` : '',
          QUICKBOOKS_ITEM,
          line.description,
          quantityCell(Math.abs(line.quantity)),
          amount(Math.abs(unitPence(line))),
          amount(Math.abs(line.netPence)),
          quickbooksTaxCode(doc),
          amount(Math.abs(line.vatPence)),
          'GBP',
          '',
        ]),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
