import { cancellationNotice, modelCancellationForm, modelFormFactsOf } from '../../core/consumer-rights';
import { depositWords } from '../../core/card-payments';
import { vatNumberLine } from '../../core/company-profile';
import { formatGbp } from '../../core/money';
import { plainLine } from '../../core/plain-text';
import { formatQuoteDate } from '../../core/quote';
import type { QuoteTotals } from '../../core/quote-totals';
import type { QuoteAnswerKind, QuoteContent } from '../../core/quote-versions';
import type { MailMessage } from './mailer';

/**
 * The e-mails of a quote's way (docs/product.md, Jobs and quotes): the customer's link, the
 * owner's news of a first view or an answer, and the customer's confirmation of an acceptance,
 * which for a consumer carries the cancellation notice and the model form (a durable medium).
 * Plain text with a simple HTML twin; names are made one plain line before a subject.
 */
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const paragraphs = (lines: string[]) => lines.map((line) => `<p style="white-space:pre-line">${escape(line)}</p>`).join('\n');

function totalWords(content: QuoteContent, totals: QuoteTotals): string {
  if (content.vatMode === 'none') return formatGbp(totals.grossPence);
  if (content.vatMode === 'inc') return `${formatGbp(totals.grossPence)} including VAT`;
  return `${formatGbp(totals.netPence)} + VAT (${formatGbp(totals.grossPence)} in all)`;
}

const businessName = (content: QuoteContent) => plainLine(content.business.name) || 'Your tree surgeon';

/**
 * To the customer: their quote, with the link to read and answer it, and the deposit it asks.
 * `withOptional`: the totals with every optional item, which may cross the deposit's threshold.
 */
export function quoteLinkEmail(content: QuoteContent, link: string, totals: QuoteTotals, withOptional: QuoteTotals = totals): MailMessage {
  const name = businessName(content);
  const deposit = depositWords(content.deposit, { grossPence: totals.grossPence, withOptionalPence: withOptional.grossPence }, 'offered', name);
  const lines = [
    `Hello ${plainLine(content.customer.name)},`,
    `${name} has sent you a quote for tree work${content.customer.siteAddress ? ` at ${content.customer.siteAddress.replace(/\n/g, ', ')}` : ''}: ${totalWords(content, totals)}${content.items.some((i) => i.optional) ? ', with optional items you can add' : ''}.`,
    ...(deposit.length > 0 ? [deposit.join('\n')] : []),
    `Read it${content.items.some((i) => i.optional) ? ', choose any optional items' : ''} and accept, decline or ask for a change here:\n${link}`,
    `The quote is valid until ${formatQuoteDate(new Date(content.validUntil))}. Quote ${content.reference}${content.version > 1 ? ` (version ${content.version}, which replaces the one sent before)` : ''}.`,
    'A copy of the quote is attached as a PDF to keep.',
  ];
  return {
    to: content.customer.email ?? '',
    subject: `Your quote from ${name}: ${content.reference}`,
    text: lines.join('\n\n'),
    html: paragraphs(lines),
  };
}

/** To the customer, once, when they have not answered: the same quote, a link of its own. */
export function quoteReminderEmail(content: QuoteContent, link: string, totals: QuoteTotals): MailMessage {
  const name = businessName(content);
  const lines = [
    `Hello ${plainLine(content.customer.name)},`,
    `A reminder of the quote ${name} sent you on ${formatQuoteDate(new Date(content.issuedAt))}: ${totalWords(content, totals)}. It is valid until ${formatQuoteDate(new Date(content.validUntil))}.`,
    `Read it and accept, decline or ask for a change here:\n${link}`,
    "If you have already replied by phone or e-mail, you can ignore this message. We won't remind you again.",
  ];
  return { to: content.customer.email ?? '', subject: `Reminder: your quote from ${name} (${content.reference})`, text: lines.join('\n\n'), html: paragraphs(lines) };
}

export type OwnerNews = 'viewed' | QuoteAnswerKind;

const NEWS: Record<OwnerNews, string> = {
  viewed: 'has opened',
  accepted: 'has accepted',
  declined: 'has declined',
  changes_requested: 'asks for a change to',
};

/** To the owner: the customer opened the quote, or answered it. */
export function ownerQuoteNewsEmail(input: {
  to: string;
  ownerName: string;
  content: QuoteContent;
  news: OwnerNews;
  jobLink: string;
  message?: string | null;
  acceptance?: { name: string; totals: QuoteTotals; startEarly: boolean } | null;
}): MailMessage {
  const { content, news } = input;
  const customer = plainLine(content.customer.name);
  const lines = [
    input.ownerName ? `Hello ${plainLine(input.ownerName)},` : 'Hello,',
    `${customer} ${NEWS[news]} quote ${content.reference}${content.version > 1 ? ` (version ${content.version})` : ''}.`,
    ...(input.acceptance
      ? [
          `Accepted by "${input.acceptance.name}" for ${totalWords(content, input.acceptance.totals)}.`,
          input.acceptance.startEarly
            ? 'They asked for the work to start within their 14-day cancellation period.'
            : 'They did not ask for an early start: the work may begin once their 14-day cancellation period is over, unless they ask.',
        ]
      : []),
    ...(input.message ? [`Their message: ${input.message}`] : []),
    `See the job: ${input.jobLink}`,
  ];
  const subjects: Record<OwnerNews, string> = {
    viewed: `${customer} opened quote ${content.reference}`,
    accepted: `Quote ${content.reference} accepted by ${customer}`,
    declined: `Quote ${content.reference} declined by ${customer}`,
    changes_requested: `${customer} asks for a change to quote ${content.reference}`,
  };
  return { to: input.to, subject: subjects[news], text: lines.join('\n\n'), html: paragraphs(lines) };
}

/** To the customer: their acceptance confirmed, with what they chose, and their rights as a consumer. */
export function acceptanceEmail(input: {
  content: QuoteContent;
  name: string;
  at: Date;
  chosen: readonly number[];
  totals: QuoteTotals;
  startEarly: boolean;
  link: string;
  /** The accepted copy's fingerprint and the app's page on how to check it (core/quote-copy.ts). */
  fingerprint: { hash: string; helpUrl: string };
  /** The last day to cancel (a consumer's), as words. */
  cancelUntil: string | null;
}): MailMessage {
  const { content } = input;
  const name = businessName(content);
  const trader = { name, address: content.business.address, phone: content.business.phone, email: content.business.email };
  const chosen = new Set(input.chosen);
  const items = content.items.filter((item) => !item.optional || chosen.has(item.id)).map((item) => `- ${item.description}: ${formatGbp(item.pricePence)}`);
  const deposit = depositWords(content.deposit, { grossPence: input.totals.grossPence }, 'accepted', name);
  const lines = [
    `Hello ${plainLine(content.customer.name)},`,
    `Thank you: you accepted quote ${content.reference} from ${name} on ${formatQuoteDate(input.at)}, as "${input.name}".`,
    `The work:\n${items.join('\n')}`,
    `Total: ${totalWords(content, input.totals)}.`,
    ...(deposit.length > 0 ? [deposit.join('\n')] : []),
    ...(content.business.vatNumber ? [vatNumberLine(content.business.vatNumber)] : []),
    ...(content.consumer
      ? [
          input.startEarly
            ? 'You asked for the work to start within your 14-day cancellation period.'
            : 'You did not ask for the work to start within your 14-day cancellation period, so it will not start before that period is over unless you ask.',
          cancellationNotice(trader).join('\n\n'),
          ...(input.cancelUntil ? [`You can also cancel online from your quote page until the end of ${input.cancelUntil}: ${input.link}`] : []),
          modelCancellationForm(trader, modelFormFactsOf(content, { chosen: input.chosen, on: formatQuoteDate(input.at), name: input.name })).join('\n'),
        ]
      : []),
    `Terms:\n${content.terms}`,
    `Your quote: ${input.link}`,
    `Fingerprint: ${input.fingerprint.hash}\nHow to check it: ${input.fingerprint.helpUrl}`,
    'The accepted quote is attached as a PDF: please keep it with this e-mail.',
  ];
  return { to: content.customer.email ?? '', subject: `You accepted quote ${content.reference} from ${name}`, text: lines.join('\n\n'), html: paragraphs(lines) };
}
