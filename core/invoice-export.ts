import { z } from 'zod';

/**
 * The accountant's exports (docs/product.md, Getting paid): issued invoices and credit notes in a
 * period as CSV files that Xero's and QuickBooks Online's invoice imports take. Pure: the server
 * gathers the rows (server/invoices/export.ts), this writes them.
 *
 * - Xero, sales invoice import: one row per line, InvoiceNumber repeated on each, dates as
 *   DD/MM/YYYY, UnitAmount without VAT (choose "Tax exclusive" when importing) with Xero's
 *   TaxType ("20% (VAT on Income)", or "No VAT") and the line's TaxAmount, AccountCode the
 *   Settings sales account (200, Xero's "Sales"). A credit note is a row of its own numbered
 *   CN-, with Quantity -1, as Xero's import takes a credit note. At most 500 invoices a file.
 * - QuickBooks Online, invoice import: InvoiceNo, Customer, InvoiceDate, DueDate, Item(Product/
 *   Service), ItemDescription, ItemQuantity, ItemRate, ItemAmount, ItemTaxCode ("20.0% S", or
 *   "No VAT"), ItemTaxAmount; a credit note as a line with a negative amount.
 *
 * Every text cell a person typed (a name, a description, a reference) that starts with "=", "+",
 * "-", "@", a tab or a carriage return is neutralised with a leading apostrophe (OWASP CSV
 * injection), so a spreadsheet shows it and never runs it; amounts are written by the product.
 */

export const EXPORT_FORMATS = ['xero', 'quickbooks'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Xero takes at most 500 invoices in one file. */
export const XERO_MAX_INVOICES = 500;

const dayText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD')
  .refine((v) => new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v, 'That date does not exist');

/** GET /api/invoices/export.csv?format=&from=&to= */
export const exportQuerySchema = z
  .object({
    format: z.enum(EXPORT_FORMATS, "format must be 'xero' or 'quickbooks'"),
    from: dayText,
    to: dayText,
  })
  .refine((v) => v.from <= v.to, { message: 'The period must end on or after the day it starts', path: ['to'] });

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
  issuedOn: string;
  dueOn: string;
  /** Whether VAT was charged (a VAT-registered business's quote priced with VAT). */
  vat: boolean;
  vatRatePercent: number;
  lines: ExportLine[];
}

const DANGEROUS_START = /^[=+\-@\t\r]/;

/** A text cell a person typed, safe to open in a spreadsheet. */
export function safeText(text: string): string {
  return DANGEROUS_START.test(text) ? `'${text}` : text;
}

/** One CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const row = (cells: readonly string[]) => cells.map(field).join(',');

/** 1234 -> "12.34", -1234 -> "-12.34". */
function amount(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "2026-06-08" -> "08/06/2026". */
export const ukDate = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

export const XERO_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  '*AccountCode',
  '*TaxType',
  'TaxAmount',
  'Currency',
] as const;

export const QUICKBOOKS_COLUMNS = [
  'InvoiceNo',
  'Customer',
  'InvoiceDate',
  'DueDate',
  'Memo',
  'Item(Product/Service)',
  'ItemDescription',
  'ItemQuantity',
  'ItemRate',
  'ItemAmount',
  'ItemTaxCode',
  'ItemTaxAmount',
] as const;

const xeroTaxType = (doc: ExportDocument) => (doc.vat ? `${doc.vatRatePercent}% (VAT on Income)` : 'No VAT');
const quickbooksTaxCode = (doc: ExportDocument) => (doc.vat ? `${doc.vatRatePercent.toFixed(1)}% S` : 'No VAT');

/** The Xero sales invoice import file: UTF-8, a header row, one row per line. */
export function xeroCsv(documents: readonly ExportDocument[], accountCode: string): string {
  const lines = [row(XERO_COLUMNS)];
  for (const doc of documents) {
    for (const line of doc.lines) {
      // A credit note's line: Quantity -1 and the amounts as credited (positive).
      const credit = doc.kind === 'credit_note';
      const quantity = credit ? -Math.abs(line.quantity) : line.quantity;
      const unit = line.quantity === 0 ? 0 : Math.round(line.netPence / line.quantity);
      lines.push(
        row([
          safeText(doc.customerName),
          safeText(doc.customerEmail ?? ''),
          doc.number,
          credit && doc.credits ? `Credit for ${doc.credits}` : '',
          ukDate(doc.issuedOn),
          ukDate(doc.dueOn),
          safeText(line.description),
          String(quantity),
          amount(credit ? Math.abs(unit) : unit),
          safeText(accountCode),
          xeroTaxType(doc),
          amount(credit ? -Math.abs(line.vatPence) : line.vatPence),
          'GBP',
        ]),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The QuickBooks Online invoice import file: UTF-8, a header row, one row per line. */
export function quickbooksCsv(documents: readonly ExportDocument[]): string {
  const lines = [row(QUICKBOOKS_COLUMNS)];
  for (const doc of documents) {
    const sign = doc.kind === 'credit_note' ? -1 : 1;
    for (const line of doc.lines) {
      const rate = line.quantity === 0 ? 0 : Math.round(line.netPence / line.quantity);
      lines.push(
        row([
          doc.number,
          safeText(doc.customerName),
          ukDate(doc.issuedOn),
          ukDate(doc.dueOn),
          doc.kind === 'credit_note' && doc.credits ? `Credit note for ${doc.credits}` : '',
          'Tree work',
          safeText(line.description),
          String(line.quantity),
          amount(sign * rate),
          amount(sign * line.netPence),
          quickbooksTaxCode(doc),
          amount(sign * line.vatPence),
        ]),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
