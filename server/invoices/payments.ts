import { and, eq, isNull } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { creditMoney } from '../../core/invoice-money';
import { CREDIT_NOTE_PREFIX, documentNumber, INVOICE_MESSAGES, owedPence, paymentDayProblem, type PaymentCreateInput } from '../../core/invoices';
import { ukToday } from '../../core/job-booking';
import { formatGbp, parsePence } from '../../core/money';
import { immediate, type Db } from '../../db/client';
import { creditNotes, invoicePayments, invoices, paymentRefunds, quoteAnswers } from '../../db/schema';
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

export type RefundRow = typeof paymentRefunds.$inferSelect;

/** What was paid and not removed, less what of it was refunded. */
export const paidPence = (payments: readonly PaymentRow[]): number => payments.filter((p) => p.removedAt === null).reduce((sum, p) => sum + p.amountPence - p.refundedPence, 0);

export function refundsOf(db: Db, invoiceId: number): RefundRow[] {
  return db.select().from(paymentRefunds).where(eq(paymentRefunds.invoiceId, invoiceId)).orderBy(paymentRefunds.id).all();
}

/** What an invoice has been paid and credited, and what is still owed on it, in pence. */
export function settledOf(db: Db, row: Pick<InvoiceRow, 'id' | 'grossPence'>): { paidPence: number; creditedPence: number; owedPence: number } {
  const paid = paidPence(paymentsOf(db, row.id));
  const credited = creditedMoney(db, row.id).grossPence;
  return { paidPence: paid, creditedPence: credited, owedPence: owedPence({ grossPence: row.grossPence, paidPence: paid, creditedPence: credited }) };
}

/** The invoice read again in the transaction, refused while a draft. */
export function issuedOf(tx: Db, invoice: Pick<InvoiceRow, 'id' | 'userId'>): InvoiceRow {
  const current = findOwnInvoice(tx, invoice.userId, invoice.id);
  if (current.number === null || current.issuedOn === null) throw new DomainError('CONFLICT', INVOICE_MESSAGES.notIssued);
  return current;
}

/** The UK day the customer accepted the version an invoice is for; null when no acceptance is on record. */
function acceptedOnOf(tx: Db, versionId: number): string | null {
  const accepted = tx
    .select({ at: quoteAnswers.createdAt })
    .from(quoteAnswers)
    .where(and(eq(quoteAnswers.versionId, versionId), eq(quoteAnswers.kind, 'accepted')))
    .get();
  return accepted ? ukToday(accepted.at) : null;
}

/**
 * POST /api/invoices/{id}/payments: at most what is owed, dated no earlier than the job's
 * acceptance (a year back without one) and not after today (core/invoices.ts paymentDayProblem).
 */
export function recordPayment(db: Db, clock: Clock, by: number | null, invoice: Pick<InvoiceRow, 'id' | 'userId'>, input: PaymentCreateInput): PaymentRow {
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
    const dayProblem = paymentDayProblem(input.paidOn, ukToday(now), acceptedOnOf(tx, current.versionId));
    if (dayProblem) throw new DomainError('VALIDATION_ERROR', dayProblem, { details: { paidOn: [dayProblem] } });
    return tx
      .insert(invoicePayments)
      .values({ invoiceId: current.id, amountPence: amount, paidOn: input.paidOn, method: input.method, reference: input.reference, recordedBy: by, createdAt: now })
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
    if (payment.refundedPence > 0) throw new DomainError('CONFLICT', INVOICE_MESSAGES.paymentRefunded);
    // A card payment taken online is money the provider holds: it goes back by a refund, never by hiding it.
    if (payment.providerPaymentId !== null) throw new DomainError('CONFLICT', INVOICE_MESSAGES.onlinePaymentStays);
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
export function issueCreditNote(db: Db, clock: Clock, invoice: Pick<InvoiceRow, 'id' | 'userId'>, input: { amount?: string | undefined; reason: string }, by: number | null = null): CreditNoteRow {
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
    return insertCreditNote(tx, current, creditMoney(creditable, asked), input.reason, now, by);
  });
}

/** A credit note of `money` against the issued invoice `current`, numbered inside the caller's transaction; `by` the person issuing it. */
function insertCreditNote(tx: Db, current: InvoiceRow, money: { netPence: number; vatPence: number; grossPence: number }, reason: string, now: Date, by: number | null): CreditNoteRow {
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
      reason,
      netPence: money.netPence,
      vatPence: money.vatPence,
      grossPence: money.grossPence,
      issuedBy: by,
      createdAt: now,
    })
    .returning()
    .get();
}

/** A payment of the invoice, read again in the caller's transaction: 404 for one not on it. */
export function paymentOf(tx: Db, invoiceId: number, paymentId: number): PaymentRow {
  const payment = Number.isSafeInteger(paymentId) ? tx.select().from(invoicePayments).where(and(eq(invoicePayments.id, paymentId), eq(invoicePayments.invoiceId, invoiceId))).get() : undefined;
  if (!payment) throw new DomainError('NOT_FOUND', 'Payment not found');
  return payment;
}

/** What of a payment can still be refunded, in pence; throws the sentence why when nothing can. */
export function refundableOf(payment: PaymentRow): number {
  if (payment.removedAt !== null) throw new DomainError('CONFLICT', INVOICE_MESSAGES.refundRemoved);
  const left = payment.amountPence - payment.refundedPence;
  if (left <= 0) throw new DomainError('CONFLICT', INVOICE_MESSAGES.nothingToRefund);
  return left;
}

/**
 * A refund of `amountPence` of a payment, recorded in the caller's transaction (card-payments/
 * refunds.ts makes it through Stripe first for a card payment): the payment pays that much less,
 * and a credit note of the same amount is issued where the invoice was, split into net and VAT as
 * the invoice is, so what is owed does not move and the books show why the money went back.
 * The same provider refund recorded twice (a retried request) is the first one.
 */
export function recordRefund(
  tx: Db,
  clock: Clock,
  invoice: Pick<InvoiceRow, 'id' | 'userId'>,
  input: { paymentId: number; amountPence: number; reason: string; providerRefundId: string | null; recordedBy: number | null },
): RefundRow {
  const now = clock.now();
  const current = issuedOf(tx, invoice);
  if (input.providerRefundId) {
    const known = tx.select().from(paymentRefunds).where(and(eq(paymentRefunds.invoiceId, current.id), eq(paymentRefunds.providerRefundId, input.providerRefundId))).get();
    if (known) return known;
  }
  const payment = paymentOf(tx, current.id, input.paymentId);
  const left = refundableOf(payment);
  if (input.amountPence > left) {
    const message = INVOICE_MESSAGES.refundTooLarge(formatGbp(left));
    throw new DomainError('VALIDATION_ERROR', message, { details: { amount: [message] } });
  }
  tx.update(invoicePayments).set({ refundedPence: payment.refundedPence + input.amountPence }).where(eq(invoicePayments.id, payment.id)).run();
  const credited = creditedMoney(tx, current.id);
  const creditable = { netPence: current.netPence - credited.netPence, vatPence: current.vatPence - credited.vatPence, grossPence: current.grossPence - credited.grossPence };
  const note = insertCreditNote(tx, current, creditMoney(creditable, input.amountPence), `Refund: ${input.reason}`, now, input.recordedBy);
  return tx
    .insert(paymentRefunds)
    .values({
      paymentId: payment.id,
      invoiceId: current.id,
      creditNoteId: note.id,
      amountPence: input.amountPence,
      reason: input.reason,
      providerRefundId: input.providerRefundId,
      recordedBy: input.recordedBy,
      createdAt: now,
    })
    .returning()
    .get();
}

/**
 * A card payment taken for an issued invoice (card-payments/events.ts), inserted in the caller's
 * transaction after its checks: the payment's PaymentIntent keeps it once.
 */
export function insertCardPayment(tx: Db, clock: Clock, invoice: InvoiceRow, input: { amountPence: number; providerPaymentId: string; providerAccount: string | null; reference: string }): PaymentRow {
  const now = clock.now();
  return tx
    .insert(invoicePayments)
    .values({
      invoiceId: invoice.id,
      amountPence: input.amountPence,
      paidOn: ukToday(now),
      method: 'card',
      reference: input.reference,
      recordedBy: null,
      providerPaymentId: input.providerPaymentId,
      providerAccount: input.providerAccount,
      createdAt: now,
    })
    .returning()
    .get();
}
