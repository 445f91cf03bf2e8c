import { and, eq, isNull } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { creditMoney } from '../../core/invoice-money';
import { CREDIT_NOTE_PREFIX, documentNumber, INVOICE_MESSAGES, owedPence, type PaymentCreateInput } from '../../core/invoices';
import { ukToday } from '../../core/job-booking';
import { formatGbp, parsePence } from '../../core/money';
import { immediate, type Db } from '../../db/client';
import { creditNotes, invoicePayments, invoices } from '../../db/schema';
import type { Clock } from '../clock';
import { takeSequence } from '../settings/invoice-settings';
import { creditedMoney, findOwnInvoice, type InvoiceRow } from './invoices';

/**
 * Money against an issued invoice (docs/product.md, Getting paid): payments the surgeon records
 * (bank transfer, card, cash or cheque; part payments and several), never more than is owed; a
 * payment removed keeps its row with the reason; credit notes numbered from their own sequence.
 * Each reads the invoice and what was paid and credited inside its own immediate transaction, so
 * two payments at once cannot together pay more than is owed.
 */

export type PaymentRow = typeof invoicePayments.$inferSelect;
export type CreditNoteRow = typeof creditNotes.$inferSelect;

export function paymentsOf(db: Db, invoiceId: number): PaymentRow[] {
  return db.select().from(invoicePayments).where(eq(invoicePayments.invoiceId, invoiceId)).orderBy(invoicePayments.paidOn, invoicePayments.id).all();
}

export function creditNotesOf(db: Db, invoiceId: number): CreditNoteRow[] {
  return db.select().from(creditNotes).where(eq(creditNotes.invoiceId, invoiceId)).orderBy(creditNotes.sequence).all();
}

/** What was paid and not removed. */
export const paidPence = (payments: readonly PaymentRow[]): number => payments.filter((p) => p.removedAt === null).reduce((sum, p) => sum + p.amountPence, 0);

/** What an invoice has been paid and credited, and what is still owed on it, in pence. */
export function settledOf(db: Db, row: Pick<InvoiceRow, 'id' | 'grossPence'>): { paidPence: number; creditedPence: number; owedPence: number } {
  const paid = paidPence(paymentsOf(db, row.id));
  const credited = creditedMoney(db, row.id).grossPence;
  return { paidPence: paid, creditedPence: credited, owedPence: owedPence({ grossPence: row.grossPence, paidPence: paid, creditedPence: credited }) };
}

/** The invoice read again in the transaction, refused while a draft. */
function issuedOf(tx: Db, invoice: Pick<InvoiceRow, 'id' | 'userId'>): InvoiceRow {
  const current = findOwnInvoice(tx, invoice.userId, invoice.id);
  if (current.number === null || current.issuedOn === null) throw new DomainError('CONFLICT', INVOICE_MESSAGES.notIssued);
  return current;
}

/** POST /api/invoices/{id}/payments: at most what is owed, dated between the issue and today. */
export function recordPayment(db: Db, clock: Clock, userId: number, invoice: Pick<InvoiceRow, 'id' | 'userId'>, input: PaymentCreateInput): PaymentRow {
  const now = clock.now();
  return immediate(db, (tx) => {
    const current = issuedOf(tx, invoice);
    const owed = settledOf(tx, current).owedPence;
    if (owed === 0) throw new DomainError('CONFLICT', INVOICE_MESSAGES.nothingOwed);
    const amount = parsePence(input.amount)!;
    if (amount > owed) {
      const message = INVOICE_MESSAGES.overpaid(formatGbp(owed));
      throw new DomainError('VALIDATION_ERROR', message, { details: { amount: [message] } });
    }
    if (input.paidOn > ukToday(now)) throw new DomainError('VALIDATION_ERROR', INVOICE_MESSAGES.paymentInFuture, { details: { paidOn: [INVOICE_MESSAGES.paymentInFuture] } });
    return tx
      .insert(invoicePayments)
      .values({ invoiceId: current.id, amountPence: amount, paidOn: input.paidOn, method: input.method, reference: input.reference, recordedBy: userId, createdAt: now })
      .returning()
      .get();
  });
}

/** DELETE /api/invoices/{id}/payments/{paymentId}: the payment stays, marked removed with the reason. */
export function removePayment(db: Db, clock: Clock, invoice: Pick<InvoiceRow, 'id' | 'userId'>, paymentId: number, reason: string): PaymentRow {
  return immediate(db, (tx) => {
    const current = issuedOf(tx, invoice);
    const payment = Number.isSafeInteger(paymentId) ? tx.select().from(invoicePayments).where(and(eq(invoicePayments.id, paymentId), eq(invoicePayments.invoiceId, current.id))).get() : undefined;
    if (!payment) throw new DomainError('NOT_FOUND', 'Payment not found');
    if (payment.removedAt !== null) throw new DomainError('CONFLICT', INVOICE_MESSAGES.paymentRemoved);
    return tx
      .update(invoicePayments)
      .set({ removedAt: clock.now(), removedReason: reason })
      .where(and(eq(invoicePayments.id, payment.id), isNull(invoicePayments.removedAt)))
      .returning()
      .get()!;
  });
}

/**
 * POST /api/invoices/{id}/credit-notes: the whole of what is issued and neither credited nor
 * paid, or a part of it, split into net and VAT as the invoice is. Numbered "CN-0001" from the
 * account's own credit note sequence, inside the transaction.
 */
export function issueCreditNote(db: Db, clock: Clock, invoice: Pick<InvoiceRow, 'id' | 'userId'>, input: { amount?: string | undefined; reason: string }): CreditNoteRow {
  const now = clock.now();
  return immediate(db, (tx) => {
    const current = issuedOf(tx, invoice);
    const credited = creditedMoney(tx, current.id);
    const paid = paidPence(paymentsOf(tx, current.id));
    const creditable = { netPence: current.netPence - credited.netPence, vatPence: current.vatPence - credited.vatPence, grossPence: current.grossPence - credited.grossPence };
    const open = Math.max(0, creditable.grossPence - paid);
    if (open === 0) throw new DomainError('CONFLICT', creditable.grossPence > 0 ? INVOICE_MESSAGES.creditTooLarge(formatGbp(0)) : INVOICE_MESSAGES.nothingToCredit);
    const asked = input.amount !== undefined ? parsePence(input.amount)! : open;
    if (asked > open) {
      const message = INVOICE_MESSAGES.creditTooLarge(formatGbp(open));
      throw new DomainError('VALIDATION_ERROR', message, { details: { amount: [message] } });
    }
    const money = creditMoney(creditable, asked);
    const sequence = takeSequence(tx, current.userId, 'creditNote', now);
    tx.update(invoices).set({ updatedAt: now }).where(eq(invoices.id, current.id)).run();
    return tx
      .insert(creditNotes)
      .values({
        userId: current.userId,
        invoiceId: current.id,
        number: documentNumber(CREDIT_NOTE_PREFIX, sequence),
        sequence,
        issuedOn: ukToday(now),
        reason: input.reason,
        netPence: money.netPence,
        vatPence: money.vatPence,
        grossPence: money.grossPence,
        createdAt: now,
      })
      .returning()
      .get();
  });
}
