import { formatBookingDate } from '../../../core/job-booking';
import { PAYMENT_METHOD_WORDS, type Invoice, type InvoiceKind } from '../../../core/invoices';
import { formatPounds } from '../jobs/job-list-summary';
import { byPerson, recordedBy } from '../by-person';

/**
 * An invoice's words for the dashboard and its history, oldest first (docs/product.md, Getting
 * paid): issued, sent, opened, reminded, paid, a payment removed and why, credited; in a team, who
 * issued, sent, recorded and credited it (by-person.ts). Pure, so it is tested without a browser.
 */

export const INVOICE_KIND_WORDS: Record<InvoiceKind, string> = { deposit: 'Deposit invoice', final: 'Final invoice' };

/** "£1,110.00" from "1110.00", and "-£240.00" from a deposit taken off ("-240.00"). */
export function moneyWords(text: string): string {
  return text.startsWith('-') ? `-${formatPounds(text.slice(1))}` : formatPounds(text);
}

/** "INV-0007", or "Draft" before it is issued. */
export const invoiceName = (invoice: Pick<Invoice, 'number'>): string => invoice.number ?? 'Draft';

/** "Tue 8 December 2026" from a UK day; "" for none. */
export const dayWords = (day: string | null): string => (day ? formatBookingDate(day) : '');

/** The UK day ("2026-12-08") of an instant; null for no instant. */
function ukDayOf(at: string): string | null {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? null : date.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

/** "Tue 8 December 2026, 14:05" from an instant, on the UK clock. */
export function momentWords(at: string): string {
  const date = new Date(at);
  const day = ukDayOf(at);
  if (day === null) return at;
  const time = date.toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });
  return `${formatBookingDate(day)}, ${time}`;
}

export interface HistoryEvent {
  /** Sorts the events: an instant, or a UK day with the time of day it stands for. */
  at: string;
  text: string;
}

/**
 * A day's events stand at its start (issued), or its end (a credit note, dated but not timed, comes
 * after what was recorded that day); the instants of sending, reminders and payments sit between.
 */
const startOf = (day: string) => `${day}T00:00:00.000Z`;
const endOf = (day: string) => `${day}T23:59:59.999Z`;

/** Everything that happened to the invoice, oldest first. */
export function invoiceHistory(invoice: Invoice): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  if (invoice.issuedOn && invoice.number) {
    events.push({ at: startOf(invoice.issuedOn), text: `Issued as ${invoice.number}${byPerson(invoice.issuedBy)} on ${dayWords(invoice.issuedOn)}${invoice.dueOn ? `, due ${dayWords(invoice.dueOn)}` : ''}` });
  }
  if (invoice.sentAt) {
    events.push({ at: invoice.sentAt, text: `Sent to ${invoice.sentTo ?? 'the customer'}${byPerson(invoice.sentBy)} on ${momentWords(invoice.sentAt)}` });
    // The answer carries no time of opening, only the status while nothing else has happened since.
    if (invoice.status === 'viewed') events.push({ at: invoice.sentAt, text: 'Opened by the customer' });
  }
  invoice.remindersSent.forEach((at, index) => {
    events.push({ at, text: `${index === 0 ? 'First' : 'Second'} overdue reminder sent on ${momentWords(at)}` });
  });
  for (const payment of [...invoice.payments, ...invoice.removedPayments]) {
    events.push({ at: payment.recordedAt, text: `${paymentWords(payment)}${recordedBy(payment.recordedBy)}` });
  }
  for (const removed of invoice.removedPayments) {
    events.push({ at: removed.removedAt, text: `Payment of ${formatPounds(removed.amount)} removed on ${momentWords(removed.removedAt)}: ${removed.reason}` });
  }
  for (const dispute of invoice.disputes) {
    events.push({ at: dispute.openedAt, text: `Card payment of ${formatPounds(dispute.amount)} disputed on ${momentWords(dispute.openedAt)}: ${dispute.reasonWords}` });
    if (dispute.closedAt) events.push({ at: dispute.closedAt, text: disputeWords(dispute) });
  }
  if (invoice.linksWithdrawnAt) events.push({ at: invoice.linksWithdrawnAt, text: `Links withdrawn on ${momentWords(invoice.linksWithdrawnAt)}` });
  for (const note of invoice.creditNotes) {
    events.push({ at: endOf(note.issuedOn), text: `Credit note ${note.number} for ${formatPounds(note.gross)} on ${dayWords(note.issuedOn)}${note.issuedBy ? `, issued by ${note.issuedBy}` : ''}: ${note.reason}` });
  }
  // Stable: events at the same moment keep the order above (sent before opened).
  return events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** How a payment was made: "Bank transfer", or "Card (online)" for one the customer paid on their invoice's page. */
export const paymentMethodWords = (payment: Pick<Invoice['payments'][number], 'method' | 'online'>): string =>
  payment.online ? 'Card (online)' : PAYMENT_METHOD_WORDS[payment.method];

/** "£120.00 paid by bank transfer on Tue 8 December 2026 (INV-0001)"; "… paid by card (online) on …". */
export function paymentWords(payment: Invoice['payments'][number]): string {
  return `${formatPounds(payment.amount)} paid by ${paymentMethodWords(payment).toLowerCase()} on ${dayWords(payment.paidOn)}${payment.reference ? ` (${payment.reference})` : ''}`;
}

/** "£25.00 refunded on Sat 28 November 2026: the hedge was left (credit note CN-0001)"; in a team "… 2026 by Sam Field: …". */
export function refundWords(refund: Invoice['refunds'][number]): string {
  return `${formatPounds(refund.amount)} refunded on ${dayWords(ukDayOf(refund.at) ?? refund.at)}${byPerson(refund.recordedBy)}: ${refund.reason}${refund.creditNoteNumber ? ` (credit note ${refund.creditNoteNumber})` : ''}`;
}

/**
 * A dispute as the surgeon reads it: open, what to do and by when (docs/payments.md, Webhooks:
 * refunds and disputes); closed, how it ended.
 */
export function disputeWords(dispute: Invoice['disputes'][number]): string {
  if (dispute.status === 'open') {
    const by = dispute.evidenceDueBy ? ` by ${momentWords(dispute.evidenceDueBy)}` : '';
    return `Disputed by the customer's bank: ${formatPounds(dispute.amount)} (${dispute.reasonWords}). Respond in your Stripe dashboard${by} with your evidence.`;
  }
  const on = dispute.closedAt ? ` on ${momentWords(dispute.closedAt)}` : '';
  return dispute.status === 'won' ? `Dispute of ${formatPounds(dispute.amount)} won${on}: the payment stands` : `Dispute of ${formatPounds(dispute.amount)} lost${on}: recorded as a refund`;
}

/** What waits while the links are withdrawn: "2 receipts, 1 credit note and 1 reminder". */
export function heldMailWords(held: Invoice['heldMail']): string {
  const count = (kind: Invoice['heldMail'][number]['kind'], one: string): string => {
    const n = held.filter((mail) => mail.kind === kind).length;
    return n ? `${n} ${one}${n === 1 ? '' : 's'}` : '';
  };
  const parts = [count('receipt', 'receipt'), count('credit_note', 'credit note'), count('reminder', 'reminder')].filter(Boolean);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}
