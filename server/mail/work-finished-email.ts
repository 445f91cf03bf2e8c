import { jobReference } from '../../core/jobs';
import { plainLine } from '../../core/plain-text';
import type { MailMessage } from './mailer';

/**
 * To the customer: the tree work is finished (docs/product.md, The crew's day, Photos), with the
 * crew's after photos attached (shrunk, a few at most) and what happens next: the invoice, which
 * follows from the business. No amounts: the invoice is where the money is.
 */
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const paragraphs = (lines: string[]) => lines.map((line) => `<p style="white-space:pre-line">${escape(line)}</p>`).join('\n');

export interface WorkFinishedEmailInput {
  to: string;
  customerName: string;
  jobId: number;
  business: { name: string; phone: string | null; email: string | null };
  siteAddress: string | null;
  /** How many after photos go with it (attached once they are shrunk, after the answer). */
  photos: number;
}

export function workFinishedEmail(input: WorkFinishedEmailInput): MailMessage {
  const name = plainLine(input.business.name) || 'Your tree surgeon';
  const reference = jobReference(input.jobId);
  const contact = [input.business.phone ? `phone ${input.business.phone}` : null, input.business.email ? `e-mail ${input.business.email}` : null].filter(Boolean).join(' or ');
  const where = input.siteAddress ? ` at ${input.siteAddress.replace(/\n/g, ', ')}` : '';
  const lines = [
    `Hello ${plainLine(input.customerName)},`,
    `${name} has finished your tree work${where} (quote ${reference}).`,
    ...(input.photos > 0 ? [input.photos === 1 ? 'A photo of the finished work is attached.' : `${input.photos} photos of the finished work are attached.`] : []),
    `What happens next: ${name} will send you the invoice for the work separately.`,
    contact ? `If anything is not as you expected, contact ${name}: ${contact}.` : `If anything is not as you expected, reply to ${name}.`,
  ];
  return {
    to: input.to,
    subject: `Your tree work is finished (${reference})`,
    text: lines.join('\n\n'),
    html: paragraphs(lines),
  };
}
