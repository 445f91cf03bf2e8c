import type { Lead } from '../../core/business';
import { CONTACT_METHOD_LABELS, CONTACT_TIME_LABELS } from '../../core/contact-preference';
import { formatTotalTime } from '../../core/format';
import { plainLine } from '../../core/plain-text';
import { formatPrice } from '../../core/price';
import type { MailMessage } from './mailer';

export interface LeadEmailInput {
  to: string;
  ownerName: string;
  businessName: string;
  lead: Lead;
  /** The postcode districts the business lists, named when the request is from outside them. */
  serviceDistricts?: readonly string[];
  /** The public address of the product; links point at the owner's history and Business Admin. */
  publicUrl: string;
  /** The visitor sent the request for this estimate again, with these details (server/businesses/leads.ts saveLead). */
  updated?: boolean;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Rows = [string, string | null][];

/** The sections of the e-mail, each a title (or none) and the rows that have a value. */
function sections(lead: Lead, base: string, districts: readonly string[]): { title: string | null; rows: [string, string][] }[] {
  const estimate = lead.estimate;
  const contact: Rows = [
    ['Name', lead.name],
    ['E-mail', lead.email],
    ['Phone', lead.phone],
    ['Postcode', lead.postcode],
    ['Address', lead.address],
    ['Area', lead.outsideArea ? outsideAreaWords(districts) : null],
    ['Preferred contact', lead.contactMethod ? CONTACT_METHOD_LABELS[lead.contactMethod] : null],
    ['Best time', lead.contactTime ? CONTACT_TIME_LABELS[lead.contactTime] : null],
    ['Note', lead.note],
  ];
  const answers: Rows = estimate ? estimate.answers.map(({ question, answer }) => [question, answer]) : [];
  const estimated: Rows = estimate
    ? [
        ['Tree', estimate.species ?? 'Unknown species'],
        ['Estimated time', formatTotalTime(estimate.totalMinutes)],
        ['Estimated cost', estimate.price ? formatPrice(estimate.price) : null],
        ['Priced for', estimate.assumed.length > 0 ? `${estimate.assumed.join('; ')} (not answered)` : null],
        ['Site visit recommended', estimate.siteVisitReason],
        ['Photo', `${base}${estimate.imageUrl}`],
      ]
    : [];
  const filled = (rows: Rows) => rows.filter((row): row is [string, string] => row[1] !== null);
  return [
    { title: null, rows: filled(contact) },
    { title: 'Their answers', rows: filled(answers) },
    { title: 'The estimate they saw', rows: filled(estimated) },
  ].filter((section) => section.rows.length > 0);
}

/** "Outside the districts you cover (LS1, LS6)": at most 12 named, then how many more. */
export function outsideAreaWords(districts: readonly string[]): string {
  const named = districts.slice(0, 12).join(', ');
  const more = districts.length > 12 ? ` and ${districts.length - 12} more` : '';
  return districts.length > 0 ? `Outside the districts you cover (${named}${more})` : 'Outside the districts you cover';
}

/** "Name: Jo", but a question keeps its own mark: "How tall is the tree? About ...". */
const textRow = ([k, v]: [string, string]) => `${k}${k.endsWith('?') ? '' : ':'} ${v}`;

/**
 * The e-mail a business owner gets for each quote request from their embedded estimator
 * (docs/product.md, Embed widget): who asked, how and when they would like to hear
 * back, where the job is (and whether outside the districts the business covers), their note, every answer they gave, the estimate they saw with its photo, and a link to
 * it. Plain text first; a simple HTML twin.
 */
export function leadEmail({ to, ownerName, businessName, lead, serviceDistricts = [], publicUrl, updated = false }: LeadEmailInput): MailMessage {
  const base = publicUrl.replace(/\/$/, '');
  const link = lead.analysisId ? `${base}/history/${lead.analysisId}` : `${base}/admin/businesses`;
  const parts = sections(lead, base, serviceDistricts);
  const greeting = ownerName ? `Hello ${ownerName},` : 'Hello,';
  const text = [
    greeting,
    '',
    updated
      ? `A visitor to your website sent their quote request to ${businessName} again, with the details below; they replace the ones sent before.`
      : `A visitor to your website asked ${businessName} for a quote through your TreeAnalyzer Pro estimator.`,
    ...parts.flatMap(({ title, rows }) => ['', ...(title ? [title] : []), ...rows.map(textRow)]),
    '',
    `See the estimate and photo: ${link}`,
    `All your quote requests: ${base}/admin/businesses`,
  ].join('\n');
  const table = (rows: [string, string][]) =>
    `<table>${rows.map(([k, v]) => `<tr><th align="left" valign="top">${escape(k)}</th><td style="white-space:pre-line">${escape(v)}</td></tr>`).join('')}</table>`;
  const html = `<p>${escape(greeting)}</p>
<p>${
    updated
      ? `A visitor to your website sent their quote request to <strong>${escape(businessName)}</strong> again, with the details below; they replace the ones sent before.`
      : `A visitor to your website asked <strong>${escape(businessName)}</strong> for a quote through your TreeAnalyzer Pro estimator.`
  }</p>
${parts.map(({ title, rows }) => `${title ? `<h3>${escape(title)}</h3>\n` : ''}${table(rows)}`).join('\n')}
<p><a href="${escape(link)}">See the estimate and photo</a> · <a href="${escape(`${base}/admin/businesses`)}">All your quote requests</a></p>`;
  // A subject is one header line: no visitor's line separator, control or bidi character reaches it (core/plain-text.ts).
  const subject = `${updated ? 'Updated' : 'New'} quote request for ${plainLine(businessName)} from ${plainLine(lead.name)}`;
  return { to, subject, text, html };
}
