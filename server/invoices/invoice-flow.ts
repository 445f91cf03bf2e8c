import type { PaymentCreateInput } from '../../core/invoices';
import { eq } from 'drizzle-orm';
import { immediate } from '../../db/client';
import { invoicePayments } from '../../db/schema';
import { invoiceEmail, overdueReminderEmail, receiptEmail } from '../mail/invoice-emails';
import { releaseHeldCreditNote } from './credit-note-flow';
import { formatDay, lateInterestWords } from './invoice-pdf';
import { linkOrHold, sendInvoiceLink } from './invoice-links';
import { mailFacts, sendWithInvoicePdf, type FlowDeps } from './invoice-mail';
import { toInvoiceView } from './invoice-view';
import type { HeldMailRow } from './held-mail';
import { findOwnInvoice, type InvoiceRow } from './invoices';
import { recordPayment, settledOf, type PaymentRow } from './payments';

/**
 * An invoice's way to the customer (docs/product.md, Getting paid): the steps of invoices.ts,
 * invoice-links.ts and payments.ts with the e-mails that go with them, sent as the business through
 * the outbox (written in the step's transaction, server/mail/outbox.ts) with the invoice's PDF as
 * it stands just after the step (a PDF that cannot be made is logged, and the e-mail goes without
 * it: the link still opens the invoice). The e-mails' parts are invoice-mail.ts's.
 */

/**
 * POST /api/invoices/{id}/send: a new link, and the invoice e-mailed with it and its PDF; then
 * what waited while its links were withdrawn (held-mail.ts), to the same confirmed address: each
 * receipt and credit note, and a reminder only while money is still owed. All in one transaction with the outbox's
 * rows. `takesCards`: as howToPay's.
 */
export function sendInvoice(deps: FlowDeps, invoice: Pick<InvoiceRow, 'id' | 'userId'>, email: string | undefined, takesCards = false, by: number | null = null): InvoiceRow {
  return immediate(deps.db, () => {
    const sent = sendInvoiceLink(deps.db, deps.clock, invoice, email, by);
    const facts = mailFacts(deps, sent.invoice, sent.to, sent.token, takesCards);
    sendWithInvoicePdf(deps, sent.invoice, invoiceEmail(facts), `invoice ${sent.invoice.number}`);
    for (const { mail, token } of sent.released) releaseHeldMail(deps, sent.invoice, mail, sent.to, token, takesCards);
    return sent.invoice;
  });
}

/** One e-mail that waited while the links were withdrawn, to the confirmed address. A new kind of held mail needs its case here. */
function releaseHeldMail(deps: FlowDeps, row: InvoiceRow, mail: HeldMailRow, to: string, token: string, takesCards: boolean): void {
  switch (mail.kind) {
    case 'receipt': {
      const payment = mail.paymentId !== null ? deps.db.select().from(invoicePayments).where(eq(invoicePayments.id, mail.paymentId)).get() : undefined;
      if (payment) sendReceiptMail(deps, row, payment, to, token);
      return;
    }
    case 'reminder':
      // A reminder that waited is news only while money is still owed.
      if (settledOf(deps.db, row).owedPence > 0) sendReminderMail(deps, row, to, token, mail.reminder ?? 'first', takesCards);
      return;
    case 'credit_note':
      releaseHeldCreditNote(deps, row, mail, to, token);
      return;
    default: {
      const unknown: never = mail.kind;
      throw new Error(`held mail of kind ${String(unknown)} has no way out`);
    }
  }
}

/**
 * POST /api/invoices/{id}/payments: the payment recorded, then a receipt to the customer (where
 * the invoice has an address) with a link of its own and the PDF showing the payment. `by`: the
 * person recording it (invoice_payments.recorded_by), not the team's account.
 */
export function recordPaymentWithReceipt(deps: FlowDeps, by: number | null, invoice: Pick<InvoiceRow, 'id' | 'userId'>, input: PaymentCreateInput): void {
  immediate(deps.db, () => {
    const payment = recordPayment(deps.db, deps.clock, by, invoice, input);
    sendReceipt(deps, findOwnInvoice(deps.db, invoice.userId, invoice.id), payment);
  });
}

/**
 * A receipt for `payment` to the customer (where the invoice has an address), with a link of its
 * own and the PDF showing it; kept instead while the invoice's links are withdrawn (held-mail.ts).
 */
export function sendReceipt(deps: FlowDeps, row: InvoiceRow, payment: Pick<PaymentRow, 'id' | 'amountPence' | 'paidOn'>): 'sent' | 'held' | 'no_address' {
  const to = row.sentTo ?? row.parties?.customer.email ?? null;
  if (!to || !row.parties) return 'no_address';
  const token = immediate(deps.db, (tx) => linkOrHold(tx, row.id, { kind: 'receipt', paymentId: payment.id }, deps.clock.now()));
  if (!token) return 'held';
  sendReceiptMail(deps, row, payment, to, token);
  return 'sent';
}

function sendReceiptMail(deps: FlowDeps, row: InvoiceRow, payment: Pick<PaymentRow, 'amountPence' | 'paidOn'>, to: string, token: string): void {
  const facts = mailFacts(deps, row, to, token);
  sendWithInvoicePdf(deps, row, receiptEmail({ ...facts, amountPence: payment.amountPence, paidWords: formatDay(payment.paidOn) }), `receipt ${row.number}`);
}

/** An overdue reminder (reminders.ts), with its link and the PDF as it stands, written to the outbox in the caller's transaction. */
export function sendReminderMail(deps: FlowDeps, row: InvoiceRow, to: string, token: string, which: 'first' | 'second', takesCards: boolean): void {
  const facts = mailFacts(deps, row, to, token, takesCards);
  const interest = toInvoiceView(deps.db, row, deps.clock.now()).lateInterest;
  sendWithInvoicePdf(deps, row, overdueReminderEmail({ ...facts, which, interest: interest ? lateInterestWords(interest, row.dueOn!) : null }), `invoice ${row.number} ${which} reminder`);
}
