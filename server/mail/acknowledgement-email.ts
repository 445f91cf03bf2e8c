import { plainLine } from '../../core/plain-text';
import type { MailMessage } from './mailer';

export interface AcknowledgedTree {
  /** core/request-tree.ts requestTreeTitle: "Oak, 8 to 15 m tall" or "Tree 2 (kind not sure)". */
  title: string;
  /** The guide price as the estimator showed it ("about £300 - £450 inc VAT"), or null when it showed none. */
  guide: string | null;
}

export interface AcknowledgementInput {
  to: string;
  visitorName: string;
  businessName: string;
  /** Where a reply goes: the business's e-mail (the e-mail's Reply-To, and said in its words). */
  businessEmail: string;
  /** core/business.ts requestReference: the same one the estimator's thanks showed. */
  reference: string;
  postcode: string | null;
  trees: AcknowledgedTree[];
  /** The trees' guide prices added up, as the estimator's list showed it; null for one tree or none priced. */
  total: string | null;
  /** "by phone, in the evening" from the visitor's answers; null when they did not say. */
  contactWords: string | null;
  /** The visitor sent the request again (changed or added trees): the e-mail says it is the latest. */
  updated: boolean;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * What a visitor receives after asking a business for a quote through its estimator
 * (docs/product.md, Embed widget): from the business (its name in From, replies to it), with the
 * reference the thanks showed, each tree and the guide price they saw, the postcode, and what
 * happens next. Every name in it is one plain line (core/plain-text.ts): the visitor typed theirs,
 * the owner typed the business's, and neither may break a line or reorder what follows.
 */
export function acknowledgementEmail(input: AcknowledgementInput): MailMessage {
  const business = plainLine(input.businessName);
  const name = plainLine(input.visitorName);
  const trees = input.trees.map((tree) => ({ title: plainLine(tree.title), guide: tree.guide ?? `${business} will price it when they see it` }));
  const heading = input.updated
    ? `Thank you, we have your updated request. ${business} will quote from these details.`
    : `Thank you for asking ${business} for a quote.`;
  const next = [
    `${business} will look at your ${trees.length === 1 ? 'photo and answers' : 'photos and answers'} and get back to you${input.contactWords ? ` ${input.contactWords}` : ''}, usually within a few working days.`,
    'The guide prices come from your photos and answers: the quote they send after looking at the job is the price that counts, and nothing is booked until you accept it.',
    `To add something or ask a question, reply to this e-mail: it goes to ${business}. Please give your reference, ${input.reference}.`,
  ];
  const text = [
    `Hello ${name},`,
    '',
    heading,
    `Your reference: ${input.reference}`,
    '',
    'What you sent',
    ...trees.map((tree, i) => `${trees.length > 1 ? `${i + 1}. ` : ''}${tree.title}: ${tree.guide}`),
    ...(input.total ? [`Total for ${trees.length} trees: ${input.total}`] : []),
    ...(input.postcode ? [`Postcode: ${plainLine(input.postcode)}`] : []),
    '',
    'What happens next',
    ...next,
    '',
    business,
  ].join('\n');
  const html = `<p>${escape(`Hello ${name},`)}</p>
<p>${escape(heading)}<br><strong>Your reference: ${escape(input.reference)}</strong></p>
<h3>What you sent</h3>
<table>${trees.map((tree) => `<tr><th align="left" valign="top">${escape(tree.title)}</th><td>${escape(tree.guide)}</td></tr>`).join('')}${
    input.total ? `<tr><th align="left">Total for ${trees.length} trees</th><td>${escape(input.total)}</td></tr>` : ''
  }${input.postcode ? `<tr><th align="left">Postcode</th><td>${escape(plainLine(input.postcode))}</td></tr>` : ''}</table>
<h3>What happens next</h3>
${next.map((line) => `<p>${escape(line)}</p>`).join('\n')}
<p>${escape(business)}</p>`;
  return {
    to: input.to,
    from: business,
    replyTo: input.businessEmail,
    subject: `${input.updated ? 'Your updated quote request' : 'Your quote request'} to ${business} (${input.reference})`,
    text,
    html,
  };
}
