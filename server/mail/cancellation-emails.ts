import { REFUND_DUTY } from '../../core/consumer-rights';
import { formatBookingDate } from '../../core/job-booking';
import type { CancellationVia } from '../../core/jobs';
import { plainLine } from '../../core/plain-text';
import type { QuoteContent } from '../../core/quote-versions';
import type { MailMessage } from './mailer';

/**
 * The e-mails of a cancelled agreement (docs/product.md, Jobs and quotes: cancelling): the
 * customer's confirmation, from the business, and the owner's notice with their duty to refund.
 * Plain text with a simple HTML twin, as the quote's other e-mails.
 */
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const paragraphs = (lines: string[]) => lines.map((line) => `<p style="white-space:pre-line">${escape(line)}</p>`).join('\n');

export interface CancellationFacts {
  via: CancellationVia;
  /** The UK day the business was told. */
  receivedOn: string;
  /** The name the customer typed when they cancelled online. */
  name: string | null;
  note: string | null;
  withinPeriod: boolean;
  /** The fingerprint of the accepted copy the cancellation ends. */
  contentHash: string;
}

const HOW: Record<CancellationVia, string> = {
  online: 'online from your quote page',
  email: 'by e-mail',
  letter: 'by letter',
  phone: 'by phone',
  in_person: 'in person',
};

const OWNER_HOW: Record<CancellationVia, string> = {
  online: 'online from their quote page',
  email: 'by e-mail (recorded by you)',
  letter: 'by letter (recorded by you)',
  phone: 'by phone (recorded by you)',
  in_person: 'in person (recorded by you)',
};

const businessName = (content: QuoteContent) => plainLine(content.business.name) || 'Your tree surgeon';

/** To the customer: their cancellation confirmed, on a durable medium. */
export function cancellationConfirmationEmail(input: { content: QuoteContent; cancellation: CancellationFacts; acceptedOn: string; link: string }): MailMessage {
  const { content, cancellation } = input;
  const name = businessName(content);
  const lines = [
    `Hello ${plainLine(content.customer.name)},`,
    `This confirms that your agreement with ${name} for quote ${content.reference}, accepted on ${formatBookingDate(input.acceptedOn, 'long')}, is cancelled: you told us ${HOW[cancellation.via]} on ${formatBookingDate(cancellation.receivedOn, 'long')}${cancellation.name ? `, as "${cancellation.name}"` : ''}.`,
    'If you have paid anything for this work, it will be repaid within 14 days of the day you told us, by the same means you paid. If you asked for the work to start within your 14-day cancellation period, you pay for any work done up to when you told us.',
    `Fingerprint of the quote you cancelled (SHA-256): ${cancellation.contentHash}`,
    `Your quote: ${input.link}`,
    `To ask ${name} anything, reply to this e-mail${content.business.phone ? ` or call ${content.business.phone}` : ''}.`,
  ];
  return { to: content.customer.email ?? '', subject: `Cancelled: quote ${content.reference} from ${name}`, text: lines.join('\n\n'), html: paragraphs(lines) };
}

/** To the owner: the customer cancelled (or the owner recorded it), and what is owed now. */
export function cancellationOwnerEmail(input: { to: string; ownerName: string; content: QuoteContent; cancellation: CancellationFacts; jobLink: string }): MailMessage {
  const { content, cancellation } = input;
  const customer = plainLine(content.customer.name);
  const lines = [
    input.ownerName ? `Hello ${plainLine(input.ownerName)},` : 'Hello,',
    `${customer} cancelled quote ${content.reference}${content.version > 1 ? ` (version ${content.version})` : ''} ${OWNER_HOW[cancellation.via]} on ${formatBookingDate(cancellation.receivedOn, 'long')}${cancellation.name ? `, as "${cancellation.name}"` : ''}.`,
    cancellation.withinPeriod
      ? `This came within their 14-day cancellation period. ${REFUND_DUTY}`
      : 'This came after their 14-day cancellation period, so it is a cancellation you agreed to: any refund is as you and the customer agree.',
    ...(cancellation.note ? [`Your note: ${cancellation.note}`] : []),
    'If the job was booked, the booking no longer stands: tell your team and free the day.',
    `See the job: ${input.jobLink}`,
  ];
  return { to: input.to, subject: `Quote ${content.reference} cancelled by ${customer}`, text: lines.join('\n\n'), html: paragraphs(lines) };
}
