import { formatGbp } from '../../core/money';
import { plainLine } from '../../core/plain-text';
import { business, hello, paragraphs, type InvoiceMailFacts } from './invoice-emails';
import type { MailMessage } from './mailer';

/**
 * To the customer: a credit note issued against their invoice (docs/product.md, Getting paid:
 * credit notes), its PDF attached by the sender; or a refund, which always comes with its own
 * credit note: what went back, to which card, and the credit note. Sent as the business.
 */
export interface CreditNoteMailFacts extends InvoiceMailFacts {
  creditNoteNumber: string;
  creditedPence: number;
  reason: string;
  /** The money that went back with it: how much, and where to ("to your Visa card ending 4242"). */
  refund: { amountPence: number; toWords: string; card: boolean } | null;
}

/**
 * Card refunds reach the customer's account in 5 to 10 business days (Stripe, "Refund and cancel
 * payments": https://docs.stripe.com/refunds#refund-timing).
 */
const CARD_REFUND_DAYS = '5 to 10 working days';

/** The reason as typed, as the end of a sentence (one full stop, whatever it ended with). */
const reasonWords = (reason: string) => plainLine(reason).replace(/[.!?]+$/, '');

export function creditNoteEmail(facts: CreditNoteMailFacts): MailMessage {
  const invoice = `${facts.title} ${facts.number}`;
  const left =
    facts.owedPence === 0 ? `Nothing is owed on ${facts.number} now.` : `${formatGbp(facts.owedPence)} is still to pay on ${facts.number}, due by ${facts.dueWords}.`;
  const lines = facts.refund
    ? [
        hello(facts),
        `${business(facts)} has refunded ${formatGbp(facts.refund.amountPence)} ${facts.refund.toWords}, for ${invoice}. Reason: ${reasonWords(facts.reason)}.`,
        ...(facts.refund.card ? [`A card refund usually shows on your statement within ${CARD_REFUND_DAYS}.`] : []),
        `The refund comes with credit note ${facts.creditNoteNumber} for ${formatGbp(facts.creditedPence)}, attached as a PDF to keep with the invoice. ${left}`,
        `The invoice, its payments, refunds and credit notes:\n${facts.link}`,
      ]
    : [
        hello(facts),
        `${business(facts)} has issued credit note ${facts.creditNoteNumber} for ${formatGbp(facts.creditedPence)} against ${invoice}. Reason: ${reasonWords(facts.reason)}.`,
        left,
        `The invoice, its payments and credit notes:\n${facts.link}`,
        `Credit note ${facts.creditNoteNumber} is attached as a PDF to keep with the invoice. To ask about it, reply to this e-mail.`,
      ];
  const subject = facts.refund
    ? `Refund of ${formatGbp(facts.refund.amountPence)} for ${facts.number} from ${business(facts)}`
    : `Credit note ${facts.creditNoteNumber} for ${facts.number} from ${business(facts)}`;
  return { to: facts.to, subject, text: lines.join('\n\n'), html: paragraphs(lines) };
}
