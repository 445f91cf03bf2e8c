import type { Lead } from '../../core/business';
import { CONTACT_METHOD_LABELS, CONTACT_TIME_LABELS } from '../../core/contact-preference';
import { requestReference } from '../../core/embed';
import { formatTotalTime } from '../../core/format';
import { plainLine } from '../../core/plain-text';
import { formatLeadTotal } from '../../core/lead-total';
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

type Estimate = NonNullable<Lead['estimate']>;

/** What the visitor saw for one tree: species ("Not sure" when they did not know it), time, price, the photo. */
function estimateRows(estimate: Estimate, base: string, analysisId: number | null): Rows {
  return [
    ['Tree', estimate.species ?? 'Not sure'],
    ['Estimated time', formatTotalTime(estimate.totalMinutes)],
    ['Estimated cost', estimate.price ? formatPrice(estimate.price) : null],
    ['Priced for', estimate.assumed.length > 0 ? `${estimate.assumed.join('; ')} (not answered)` : null],
    ['Site visit recommended', estimate.siteVisitReason],
    ['Photo', `${base}${estimate.imageUrl}`],
    ['Estimate', analysisId ? `${base}/history/${analysisId}` : null],
  ];
}

/**
 * The sections of the e-mail, each a title (or none) and the rows that have a value. One tree
 * reads as it always has (its answers, then its estimate); several are numbered "Tree 1 of 2",
 * each with its estimate and answers, then their total.
 */
function sections(lead: Lead, base: string, districts: readonly string[]): { title: string | null; rows: [string, string][] }[] {
  const contact: Rows = [
    // The one the visitor was given (the estimator's thanks, their acknowledgement): a reply quoting it finds this request.
    ['Reference', requestReference(lead.id)],
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
  const answers = (estimate: Estimate | null): Rows => (estimate ? estimate.answers.map(({ question, answer }) => [question, answer]) : []);
  const filled = (rows: Rows) => rows.filter((row): row is [string, string] => row[1] !== null);
  const trees = lead.trees.length > 0 ? lead.trees : [{ analysisId: lead.analysisId, estimate: lead.estimate }];
  const perTree =
    trees.length === 1
      ? [
          { title: 'Their answers', rows: filled(answers(trees[0]!.estimate)) },
          { title: 'The estimate they saw', rows: filled(trees[0]!.estimate ? estimateRows(trees[0]!.estimate, base, null) : []) },
        ]
      : trees.map(({ analysisId, estimate }, i) => ({
          title: `Tree ${i + 1} of ${trees.length}`,
          rows: estimate ? filled([...estimateRows(estimate, base, analysisId), ...answers(estimate)]) : [['Estimate', 'Removed since'] as [string, string]],
        }));
  const total = trees.length > 1 ? formatLeadTotal(trees.map(({ estimate }) => estimate?.price ?? null)) : null;
  return [
    { title: null, rows: filled(contact) },
    ...perTree,
    { title: null, rows: total ? [[`Total for ${trees.length} trees`, total] as [string, string]] : [] },
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
 * back, where the job is (and whether outside the districts the business covers), their note, and
 * for each tree every answer they gave and the estimate they saw with its photo; with several
 * trees, their total. Plain text first; a simple HTML twin.
 */
export function leadEmail({ to, ownerName, businessName, lead, serviceDistricts = [], publicUrl, updated = false }: LeadEmailInput): MailMessage {
  const base = publicUrl.replace(/\/$/, '');
  const link = lead.analysisId ? `${base}/history/${lead.analysisId}` : `${base}/admin/businesses`;
  const several = lead.trees.length > 1;
  const parts = sections(lead, base, serviceDistricts);
  const greeting = ownerName ? `Hello ${ownerName},` : 'Hello,';
  const text = [
    greeting,
    '',
    updated
      ? `A visitor to your website sent their quote request to ${businessName} again, with the details below; they replace the ones sent before.`
      : `A visitor to your website asked ${businessName} for a quote${several ? ` for ${lead.trees.length} trees` : ''} through your TreeAnalyzer Pro estimator.`,
    ...parts.flatMap(({ title, rows }) => ['', ...(title ? [title] : []), ...rows.map(textRow)]),
    '',
    several ? `See the first tree's estimate and photo: ${link}` : `See the estimate and photo: ${link}`,
    `All your quote requests: ${base}/admin/businesses`,
  ].join('\n');
  const table = (rows: [string, string][]) =>
    `<table>${rows.map(([k, v]) => `<tr><th align="left" valign="top">${escape(k)}</th><td style="white-space:pre-line">${escape(v)}</td></tr>`).join('')}</table>`;
  const html = `<p>${escape(greeting)}</p>
<p>${
    updated
      ? `A visitor to your website sent their quote request to <strong>${escape(businessName)}</strong> again, with the details below; they replace the ones sent before.`
      : `A visitor to your website asked <strong>${escape(businessName)}</strong> for a quote${several ? ` for ${lead.trees.length} trees` : ''} through your TreeAnalyzer Pro estimator.`
  }</p>
${parts.map(({ title, rows }) => `${title ? `<h3>${escape(title)}</h3>\n` : ''}${table(rows)}`).join('\n')}
<p><a href="${escape(link)}">${several ? "See the first tree's estimate and photo" : 'See the estimate and photo'}</a> · <a href="${escape(`${base}/admin/businesses`)}">All your quote requests</a></p>`;
  // A subject is one header line: no visitor's line separator, control or bidi character reaches it (core/plain-text.ts).
  const subject = `${updated ? 'Updated' : 'New'} quote request for ${plainLine(businessName)} from ${plainLine(lead.name)}`;
  return { to, subject, text, html };
}
