import { titleInSentence } from '../../core/invoices';
import { formatGbp } from '../../core/money';
import { plainLine } from '../../core/plain-text';
import type { MailMessage } from './mailer';

/**
 * The e-mails of an invoice (docs/product.md, Getting paid): the invoice with its link and PDF,
 * a receipt for each payment, and the overdue reminders. Sent as the business, replies going to
 * it (server/jobs/quote-flow.ts fromBusiness). Plain text with a simple HTML twin.
 */
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const paragraphs = (lines: string[]) => lines.map((line) => `<p style="white-space:pre-line">${escape(line)}</p>`).join('\n');

/** What the e-mails say of an invoice: facts already worked out (pence, UK days as words). */
export interface InvoiceMailFacts {
  to: string;
  customerName: string;
  businessName: string;
  /** "VAT invoice", "Deposit invoice"... */
  title: string;
  number: string;
  quoteReference: string;
  grossPence: number;
  owedPence: number;
  /** "8 June 2026". */
  dueWords: string;
  link: string;
  /** "Please pay by bank transfer to ... with the reference INV-0001." or whom to ask. */
  howToPay: string;
  /** A business customer's statutory interest, as a sentence, when the account charges it. */
  interest?: string | null;
}

export const hello = (facts: InvoiceMailFacts) => `Hello ${plainLine(facts.customerName)},`;
export const business = (facts: InvoiceMailFacts) => plainLine(facts.businessName) || 'Your tree surgeon';

/** To the customer: the issued invoice, with its link and (attached) its PDF. */
export function invoiceEmail(facts: InvoiceMailFacts): MailMessage {
  const lines = [
    hello(facts),
    `${business(facts)} has sent you ${facts.title.toLowerCase().startsWith('deposit') ? 'a deposit invoice' : 'an invoice'} for the tree work in quote ${facts.quoteReference}: ${formatGbp(facts.grossPence)}${facts.owedPence !== facts.grossPence ? `, of which ${formatGbp(facts.owedPence)} is still to pay` : ''}, due by ${facts.dueWords}.`,
    facts.howToPay,
    `See the invoice, what has been paid and how to pay here:\n${facts.link}`,
    `${facts.title} ${facts.number} is attached as a PDF to keep. To ask about it, reply to this e-mail.`,
  ];
  return { to: facts.to, subject: `${facts.title} ${facts.number} from ${business(facts)}`, text: lines.join('\n\n'), html: paragraphs(lines) };
}

/** To the customer: a payment received, and what is left. */
export function receiptEmail(facts: InvoiceMailFacts & { amountPence: number; paidWords: string }): MailMessage {
  const left = facts.owedPence === 0 ? `${facts.title} ${facts.number} is now paid in full. Thank you.` : `${formatGbp(facts.owedPence)} is still to pay, due by ${facts.dueWords}.`;
  const lines = [hello(facts), `${business(facts)} has received your payment of ${formatGbp(facts.amountPence)} on ${facts.paidWords} towards ${titleInSentence(facts.title)} ${facts.number}.`, left, `The invoice and its payments:\n${facts.link}`];
  return { to: facts.to, subject: `Payment received: ${formatGbp(facts.amountPence)} for ${facts.number}`, text: lines.join('\n\n'), html: paragraphs(lines) };
}

/** To the customer: the invoice is overdue (the first or the second and last reminder). */
export function overdueReminderEmail(facts: InvoiceMailFacts & { which: 'first' | 'second' }): MailMessage {
  const lines = [
    hello(facts),
    `${facts.title} ${facts.number} from ${business(facts)} was due on ${facts.dueWords}, and ${formatGbp(facts.owedPence)} is still to pay.`,
    ...(facts.interest ? [facts.interest] : []),
    facts.howToPay,
    `The invoice and what has been paid:\n${facts.link}`,
    facts.which === 'second'
      ? 'This is our last reminder by e-mail. If you have already paid, or cannot pay yet, please reply to this e-mail.'
      : 'If you have already paid, thank you, and please ignore this message.',
  ];
  return { to: facts.to, subject: `Reminder: ${facts.number} from ${business(facts)} is overdue`, text: lines.join('\n\n'), html: paragraphs(lines) };
}

/** To the owner: a customer paid by card (card-payments/events.ts), and what is left on the invoice. */
export function cardPaymentOwnerEmail(facts: {
  to: string;
  ownerName: string;
  customerName: string;
  title: string;
  number: string;
  amountPence: number;
  owedPence: number;
  link: string;
  demo: boolean;
  /** The invoice's links were withdrawn: the receipt waits until it is sent again (invoices/held-mail.ts). */
  receiptHeld?: boolean;
}): MailMessage {
  const what = facts.title.toLowerCase().startsWith('deposit') ? 'Deposit paid' : 'Card payment received';
  const receipt = facts.receiptHeld
    ? "The invoice's links were withdrawn, so the customer's receipt waits until you send the invoice again to an address you type."
    : 'A receipt has been sent to the customer.';
  const lines = [
    `Hello ${plainLine(facts.ownerName)},`,
    `${plainLine(facts.customerName)} paid ${formatGbp(facts.amountPence)} by card towards ${titleInSentence(facts.title)} ${facts.number}.${facts.demo ? ' (A demo payment: no money moved.)' : ''}`,
    facts.owedPence === 0 ? `${facts.number} is now paid in full. ${receipt}` : `${formatGbp(facts.owedPence)} is still owed on it. ${receipt}`,
    `See the job:\n${facts.link}`,
  ];
  return { to: facts.to, subject: `${what}: ${formatGbp(facts.amountPence)} for ${facts.number}`, text: lines.join('\n\n'), html: paragraphs(lines) };
}

/** To the owner: a card payment that could not be taken as it came, and needs a refund. */
export function cardProblemOwnerEmail(facts: { to: string; ownerName: string; amountPence: number; number: string | null; why: string; link: string }): MailMessage {
  const lines = [
    `Hello ${plainLine(facts.ownerName)},`,
    `A card payment of ${formatGbp(facts.amountPence)}${facts.number ? ` for ${facts.number}` : ''} arrived that could not be recorded: ${facts.why.charAt(0).toLowerCase()}${facts.why.slice(1)}.`,
    'The money is in your Stripe account. Please refund it to the customer from your Stripe dashboard, then mark it as dealt with on the Invoices page:',
    facts.link,
  ];
  return { to: facts.to, subject: `A card payment needs a refund: ${formatGbp(facts.amountPence)}`, text: lines.join('\n\n'), html: paragraphs(lines) };
}
