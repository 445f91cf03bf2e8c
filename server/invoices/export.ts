import { and, eq, gte, isNotNull, lte } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { quickbooksCreditNotesCsv, quickbooksCsv, xeroCsv, XERO_MAX_INVOICES, type ExportDocument, type ExportFormat } from '../../core/invoice-export';
import type { Db } from '../../db/client';
import { creditNotes, invoices } from '../../db/schema';
import { getInvoiceSettings } from '../settings/invoice-settings';
import { chargesVat } from '../../core/invoices';
import { linesOf } from './invoices';

/**
 * GET /api/invoices/export.csv (docs/product.md, Getting paid): the account's invoices issued and
 * credit notes made between `from` and `to` (UK days, both included), oldest first, as Xero's
 * sales invoice import (credit notes in it), QuickBooks Online's invoice import, or QuickBooks
 * Online's credit note import (core/invoice-export.ts writes them). A refund is in them as the
 * credit note it made (docs/payments.md, The accountant's files: the money paid back is recorded
 * against it there).
 */
export function exportInvoices(db: Db, userId: number, query: { format: ExportFormat; from: string; to: string }): string {
  const issued = db
    .select()
    .from(invoices)
    .where(and(eq(invoices.userId, userId), isNotNull(invoices.number), gte(invoices.issuedOn, query.from), lte(invoices.issuedOn, query.to)))
    .orderBy(invoices.sequence)
    .all();
  if (query.format === 'xero' && issued.length > XERO_MAX_INVOICES) {
    const message = `That period holds ${issued.length} invoices; Xero takes at most ${XERO_MAX_INVOICES} in one file. Choose a shorter period.`;
    throw new DomainError('VALIDATION_ERROR', message, { details: { to: [message] } });
  }
  const lines = new Map<number, ReturnType<typeof linesOf>>();
  for (const line of linesOf(db, issued.map((row) => row.id))) lines.set(line.invoiceId, [...(lines.get(line.invoiceId) ?? []), line]);
  const documents: ExportDocument[] = issued.map((row) => ({
    kind: 'invoice',
    number: row.number!,
    credits: null,
    customerName: row.parties!.customer.name,
    customerEmail: row.parties!.customer.email,
    customerAddress: row.parties!.customer.address,
    issuedOn: row.issuedOn!,
    dueOn: row.dueOn!,
    paymentTermsDays: row.parties!.paymentTermsDays,
    vat: chargesVat(row, row.parties!),
    vatRatePercent: row.vatRatePercent,
    lines: (lines.get(row.id) ?? []).map((line) => ({ description: line.description, quantity: line.quantity, netPence: line.netPence, vatPence: line.vatPence })),
  }));
  const notes = db
    .select({ note: creditNotes, invoice: invoices })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(and(eq(creditNotes.userId, userId), gte(creditNotes.issuedOn, query.from), lte(creditNotes.issuedOn, query.to)))
    .orderBy(creditNotes.sequence)
    .all();
  for (const { note, invoice } of notes) {
    documents.push({
      kind: 'credit_note',
      number: note.number,
      credits: invoice.number,
      customerName: invoice.parties!.customer.name,
      customerEmail: invoice.parties!.customer.email,
      customerAddress: invoice.parties!.customer.address,
      issuedOn: note.issuedOn,
      dueOn: note.issuedOn,
      paymentTermsDays: 0,
      vat: chargesVat(invoice, invoice.parties!),
      vatRatePercent: invoice.vatRatePercent,
      lines: [{ description: `Credit: ${note.reason}`, quantity: 1, netPence: note.netPence, vatPence: note.vatPence }],
    });
  }
  if (query.format === 'xero') return xeroCsv(documents, getInvoiceSettings(db, userId).salesAccountCode);
  return query.format === 'quickbooks' ? quickbooksCsv(documents) : quickbooksCreditNotesCsv(documents);
}
