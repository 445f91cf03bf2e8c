import type { PaymentMethod } from '../../core/invoices';
import { immediate } from '../../db/client';
import type { AppDeps } from '../deps';
import { fromBusiness } from '../jobs/quote-flow';
import { describeError } from '../log';
import { queueMail } from '../mail/outbox';
import { creditNoteEmail } from '../mail/credit-note-emails';
import { creditNoteOf, creditNotePdfFilename, creditNotePdfOf, refundedToWords, type RefundCard } from './credit-notes';
import { mailFacts } from './invoice-flow';
import { newInvoiceLink } from './invoice-links';
import { findOwnInvoice, type InvoiceRow } from './invoices';
import { issueCreditNote, paymentOf, type CreditNoteRow, type RefundRow } from './payments';

/**
 * A credit note's way to the customer (docs/product.md, Getting paid: credit notes): issued, then
 * e-mailed as the business with its PDF attached and a link of its own to the invoice page, as a
 * receipt is (invoice-flow.ts sendReceipt); a refund's e-mail says what went back and to which
 * card, with the refund's credit note attached. Nothing is sent for an invoice with no address.
 */
type FlowDeps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config' | 'logger' | 'photos'>;

/** POST /api/invoices/{id}/credit-notes: the credit note, then its e-mail. */
export function issueCreditNoteWithEmail(deps: FlowDeps, invoice: Pick<InvoiceRow, 'id' | 'userId'>, input: { amount?: string | undefined; reason: string }): CreditNoteRow {
  // The credit note and its e-mail in one transaction (the outbox, server/mail/outbox.ts).
  return immediate(deps.db, () => {
    const note = issueCreditNote(deps.db, deps.clock, invoice, input);
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

function sendCreditNoteEmail(deps: FlowDeps, row: InvoiceRow, note: CreditNoteRow, refunded: { refund: RefundRow; method: PaymentMethod; card: RefundCard | null } | null): void {
  const to = row.sentTo ?? row.parties?.customer.email ?? null;
  if (!to || !row.parties) return;
  const token = immediate(deps.db, (tx) => newInvoiceLink(tx, row.id, deps.clock.now()));
  const message = creditNoteEmail({
    ...mailFacts(deps, row, to, token),
    creditNoteNumber: note.number,
    creditedPence: note.grossPence,
    reason: refunded ? refunded.refund.reason : note.reason,
    refund: refunded ? { amountPence: refunded.refund.amountPence, toWords: refundedToWords(refunded.method, refunded.card), card: refunded.method === 'card' } : null,
  });
  const parties = row.parties;
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
