import type { PaymentMethod } from '../../core/invoices';
import { immediate } from '../../db/client';
import { fromBusiness } from '../jobs/quote-flow';
import { describeError } from '../log';
import { queueMail } from '../mail/outbox';
import { creditNoteEmail } from '../mail/credit-note-emails';
import { creditNoteOf, creditNotePdfFilename, creditNotePdfOf, refundedToWords, type RefundCard } from './credit-notes';
import type { HeldMailRow } from './held-mail';
import { linkOrHold } from './invoice-links';
import { mailFacts, type FlowDeps } from './invoice-mail';
import { findOwnInvoice, type InvoiceRow } from './invoices';
import { issueCreditNote, paymentOf, refundsOf, type CreditNoteRow, type RefundRow } from './payments';

/**
 * A credit note's way to the customer (docs/product.md, Getting paid: credit notes): issued, then
 * e-mailed as the business with its PDF attached and a link of its own to the invoice page, as a
 * receipt is (invoice-flow.ts sendReceipt); a refund's e-mail says what went back and to which
 * card, with the refund's credit note attached. Nothing is sent for an invoice with no address;
 * while the invoice's links are withdrawn the e-mail is kept instead (held-mail.ts), to go to the
 * address the invoice is next sent to (invoice-flow.ts sendInvoice, releaseHeldCreditNote).
 */
type Refunded = { refund: RefundRow; method: PaymentMethod; card: RefundCard | null };

/** POST /api/invoices/{id}/credit-notes: the credit note, then its e-mail. `by`: the person issuing it. */
export function issueCreditNoteWithEmail(deps: FlowDeps, invoice: Pick<InvoiceRow, 'id' | 'userId'>, input: { amount?: string | undefined; reason: string }, by: number | null = null): CreditNoteRow {
  // The credit note and its e-mail in one transaction (the outbox, server/mail/outbox.ts).
  return immediate(deps.db, () => {
    const note = issueCreditNote(deps.db, deps.clock, invoice, input, by);
    sendCreditNoteEmail(deps, findOwnInvoice(deps.db, invoice.userId, invoice.id), note, null);
    return note;
  });
}

/**
 * A refund recorded (card-payments/refunds.ts, or a refund Stripe reports): the customer is told
 * what went back and where, with its credit note. `card`: the card as Stripe described the charge, if known.
 */
export function sendRefundEmail(deps: FlowDeps, row: InvoiceRow, refund: RefundRow, card: RefundCard | null): void {
  if (refund.creditNoteId === null) return;
  const note = creditNoteOf(deps.db, row.id, refund.creditNoteId);
  const payment = paymentOf(deps.db, row.id, refund.paymentId);
  sendCreditNoteEmail(deps, row, note, { refund, method: payment.method, card });
}

function sendCreditNoteEmail(deps: FlowDeps, row: InvoiceRow, note: CreditNoteRow, refunded: Refunded | null): void {
  const to = row.sentTo ?? row.parties?.customer.email ?? null;
  if (!to || !row.parties) return;
  const held = { kind: 'credit_note' as const, creditNoteId: note.id, refundId: refunded?.refund.id ?? null, card: refunded?.card ?? null };
  const token = immediate(deps.db, (tx) => linkOrHold(tx, row.id, held, deps.clock.now()));
  if (token) queueCreditNoteMail(deps, row, note, refunded, to, token);
}

/** A credit note's e-mail that waited while the invoice's links were withdrawn, to the confirmed address `to`. */
export function releaseHeldCreditNote(deps: FlowDeps, row: InvoiceRow, mail: HeldMailRow, to: string, token: string): void {
  if (mail.creditNoteId === null) return;
  const note = creditNoteOf(deps.db, row.id, mail.creditNoteId);
  const refund = mail.refundId !== null ? refundsOf(deps.db, row.id).find((r) => r.id === mail.refundId) : undefined;
  const refunded = refund ? { refund, method: paymentOf(deps.db, row.id, refund.paymentId).method, card: mail.card ?? null } : null;
  queueCreditNoteMail(deps, row, note, refunded, to, token);
}

function queueCreditNoteMail(deps: FlowDeps, row: InvoiceRow, note: CreditNoteRow, refunded: Refunded | null, to: string, token: string): void {
  const message = creditNoteEmail({
    ...mailFacts(deps, row, to, token),
    creditNoteNumber: note.number,
    creditedPence: note.grossPence,
    reason: refunded ? refunded.refund.reason : note.reason,
    refund: refunded ? { amountPence: refunded.refund.amountPence, toWords: refundedToWords(refunded.method, refunded.card), card: refunded.method === 'card' } : null,
  });
  const parties = row.parties!;
  const asBusiness = fromBusiness(deps, row.userId, { name: parties.supplier.name, email: parties.supplier.email }, message);
  const label = `credit note ${note.number}${refunded ? ' (refund)' : ''}`;
  queueMail(deps, asBusiness, {
    label,
    userId: row.userId,
    attach: async () => {
      try {
        return [{ filename: creditNotePdfFilename(note), content: await creditNotePdfOf(deps, row, note, refunded?.card ?? null), contentType: 'application/pdf' }];
      } catch (err) {
        deps.logger.error({ mail: label, error: describeError(err) }, 'credit note PDF not made: the e-mail goes without it');
        return [];
      }
    },
  });
}
