import type { CancellationPeriod } from '../../core/cancellation-period';
import { CANCELLATION_DAYS } from '../../core/consumer-rights';
import { formatBookingDate, ukToday } from '../../core/job-booking';
import { plainLine } from '../../core/plain-text';
import type { QuoteContent } from '../../core/quote-versions';
import type { MailMessage } from './mailer';

/**
 * The e-mails of an early start (docs/product.md, Jobs and quotes: the cancellation period and
 * early starts): the business's question to the customer with the link to their page, then the
 * customer's request confirmed to them and told to the owner with its evidence. The request's
 * e-mail is the durable medium the Consumer Contracts Regulations 2013 ask for (regulation 36(2)).
 * Plain text with a simple HTML twin, as the quote's other e-mails.
 */
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const paragraphs = (lines: string[]) => lines.map((line) => `<p style="white-space:pre-line">${escape(line)}</p>`).join('\n');
const message = (to: string, subject: string, lines: string[]): MailMessage => ({ to, subject, text: lines.join('\n\n'), html: paragraphs(lines) });

const businessName = (content: QuoteContent) => plainLine(content.business.name) || 'Your tree surgeon';

const LONDON_TIME = { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' } as const;
const when = (at: Date) => `${formatBookingDate(ukToday(at), 'long')} at ${at.toLocaleTimeString('en-GB', LONDON_TIME)} (UK time)`;

/** What the customer's request was, as kept. */
export interface EarlyStartEvidence {
  name: string;
  at: Date;
  wording: string;
  address: string;
  userAgent: string | null;
}

/** To the customer, from the business: would you like the work to start within your 14 days? */
export function earlyStartAskEmail(input: { to: string; content: QuoteContent; period: CancellationPeriod; link: string }): MailMessage {
  const { content, period } = input;
  const name = businessName(content);
  const lines = [
    `Hello ${plainLine(content.customer.name)},`,
    `${name} could start your tree work (quote ${content.reference}) sooner than ${formatBookingDate(period.firstDay, 'long')}, the first day after your ${CANCELLATION_DAYS}-day cancellation period.`,
    'The law lets the work start within those 14 days only if you ask for it. If you do and then cancel, you pay for the work done up to when you tell us; once the work is complete, you can no longer cancel.',
    `If you want the work to start sooner, ask on your quote page: ${input.link}`,
    `If you would rather wait, there is nothing to do: the work will not start before ${formatBookingDate(period.firstDay, 'long')}.`,
    `To ask ${name} anything, reply to this e-mail${content.business.phone ? ` or call ${content.business.phone}` : ''}.`,
  ];
  return message(input.to, `Start your tree work sooner? Quote ${content.reference} from ${name}`, lines);
}

/** To the customer, from the business: their request, kept on a durable medium. */
export function earlyStartRequestEmail(input: { to: string; content: QuoteContent; evidence: EarlyStartEvidence; link: string }): MailMessage {
  const { content, evidence } = input;
  const name = businessName(content);
  const lines = [
    `Hello ${plainLine(content.customer.name)},`,
    `This confirms your request to ${name}, made on your quote page on ${when(evidence.at)} as "${plainLine(evidence.name)}", for quote ${content.reference}:`,
    evidence.wording,
    'You can still cancel within your 14 days: you would then pay for the work done up to when you tell us.',
    `Your quote: ${input.link}`,
    `To ask ${name} anything, reply to this e-mail${content.business.phone ? ` or call ${content.business.phone}` : ''}.`,
  ];
  return message(input.to, `Your request to start early: quote ${content.reference} from ${name}`, lines);
}

/** To the owner: the customer asked to start early, with the evidence kept. */
export function earlyStartOwnerEmail(input: { to: string; ownerName: string; content: QuoteContent; evidence: EarlyStartEvidence; jobLink: string }): MailMessage {
  const { content, evidence } = input;
  const customer = plainLine(content.customer.name);
  const lines = [
    input.ownerName ? `Hello ${plainLine(input.ownerName)},` : 'Hello,',
    `${customer} asked for the work of quote ${content.reference} to start within their ${CANCELLATION_DAYS}-day cancellation period. You can now book it for any day.`,
    `Their request, as they agreed to it: ${evidence.wording}`,
    `Name typed: ${plainLine(evidence.name)}\nWhen: ${when(evidence.at)}\nFrom the address: ${evidence.address}\nBrowser: ${evidence.userAgent ? plainLine(evidence.userAgent) : 'not given'}`,
    'Keep this e-mail: if they cancel after the work has begun, it shows they asked, so they pay for the work done.',
    `See the job: ${input.jobLink}`,
  ];
  return message(input.to, `${customer} asked to start early: quote ${content.reference}`, lines);
}
