import { formatGbp } from '../../core/money';
import { plainLine } from '../../core/plain-text';
import type { MailMessage } from './mailer';

/**
 * The owner's e-mails about a card payment's dispute (card-payments/disputes.ts): what happened,
 * and what to do. Plain text with a simple HTML twin, as the invoice e-mails.
 */
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const paragraphs = (lines: string[]) => lines.map((line) => `<p style="white-space:pre-line">${escape(line)}</p>`).join('\n');

export interface DisputeMailFacts {
  to: string;
  ownerName: string;
  customerName: string;
  number: string;
  amountPence: number;
  /** Stripe's reason in words ("the customer does not recognise the payment"). */
  reasonWords: string;
  /** "5 December 2026 at 23:59" (UK time), or null when Stripe gave none. */
  dueWords: string | null;
  /** The dispute in the business's Stripe dashboard. */
  stripeLink: string;
  /** The job in this app. */
  jobLink: string;
}

/** A customer disputed a card payment: respond in Stripe by the evidence due date. */
export function disputeOpenedEmail(facts: DisputeMailFacts): MailMessage {
  const lines = [
    `Hello ${plainLine(facts.ownerName)},`,
    `${plainLine(facts.customerName)}'s bank has disputed a card payment of ${formatGbp(facts.amountPence)} for ${facts.number} (a chargeback). The reason given: ${facts.reasonWords}.`,
    `Stripe has taken the ${formatGbp(facts.amountPence)} (and its dispute fee) from your Stripe balance while the bank decides.`,
    `What to do: respond in your Stripe dashboard${facts.dueWords ? ` by ${facts.dueWords}` : ' as soon as you can'}, with your evidence: the accepted quote and its acceptance record, the invoice, photos of the work done and any messages with the customer (the job's page has them). If you do not respond in time, the dispute is lost and the money stays with the customer.`,
    `The dispute in Stripe:\n${facts.stripeLink}`,
    `The job:\n${facts.jobLink}`,
  ];
  return { to: facts.to, subject: `A card payment was disputed: ${formatGbp(facts.amountPence)} for ${facts.number}`, text: lines.join('\n\n'), html: paragraphs(lines) };
}

/** The dispute is over: won (nothing changes) or lost (recorded as a refund with its credit note). */
export function disputeClosedEmail(facts: Omit<DisputeMailFacts, 'dueWords'> & { won: boolean; creditNoteNumber: string | null }): MailMessage {
  const outcome = facts.won
    ? `The dispute of ${formatGbp(facts.amountPence)} for ${facts.number} is closed in your favour: Stripe returns the money to your balance, and nothing changes on the invoice.`
    : `The dispute of ${formatGbp(facts.amountPence)} for ${facts.number} was lost: the money stays with the customer. It is recorded on the invoice as a refund${facts.creditNoteNumber ? `, with credit note ${facts.creditNoteNumber}` : ''}.`;
  const lines = [`Hello ${plainLine(facts.ownerName)},`, outcome, `The job:\n${facts.jobLink}`];
  return { to: facts.to, subject: `Dispute ${facts.won ? 'won' : 'lost'}: ${formatGbp(facts.amountPence)} for ${facts.number}`, text: lines.join('\n\n'), html: paragraphs(lines) };
}
