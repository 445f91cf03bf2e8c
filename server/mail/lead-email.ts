import type { Lead } from '../../core/business';
import { formatCostRange, formatTotalTime } from '../../core/format';
import { parsePence } from '../../core/money';
import type { MailMessage } from './mailer';

export interface LeadEmailInput {
  to: string;
  ownerName: string;
  businessName: string;
  lead: Lead;
  /** The public address of the product; links point at the owner's history and Business Admin. */
  publicUrl: string;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function costText(cost: { min: string; max: string } | null): string | null {
  const min = cost ? parsePence(cost.min) : undefined;
  const max = cost ? parsePence(cost.max) : undefined;
  return min === undefined || max === undefined ? null : formatCostRange({ minPence: min, maxPence: max });
}

/**
 * The e-mail a business owner gets for each quote request from their embedded estimator
 * (DECISIONS, Embed widget): who asked, how to reach them, their note, the estimate they
 * saw, and a link to it. Plain text first; a simple HTML twin.
 */
export function leadEmail({ to, ownerName, businessName, lead, publicUrl }: LeadEmailInput): MailMessage {
  const base = publicUrl.replace(/\/$/, '');
  const link = lead.analysisId ? `${base}/history/${lead.analysisId}` : `${base}/admin/businesses`;
  const estimate = lead.estimate;
  const cost = estimate ? costText(estimate.cost) : null;
  const rows: [string, string | null][] = [
    ['Name', lead.name],
    ['E-mail', lead.email],
    ['Phone', lead.phone],
    ['Note', lead.note],
    ['Tree', estimate ? (estimate.species ?? 'Unknown species') : null],
    ['Estimated time', estimate ? formatTotalTime(estimate.totalMinutes) : null],
    ['Estimated cost', cost],
  ];
  const facts = rows.filter((row): row is [string, string] => row[1] !== null);
  const greeting = ownerName ? `Hello ${ownerName},` : 'Hello,';
  const text = [
    greeting,
    '',
    `A visitor to your website asked ${businessName} for a quote through your TreeAnalyzer Pro estimator.`,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    `See the estimate and photo: ${link}`,
    `All your quote requests: ${base}/admin/businesses`,
  ].join('\n');
  const html = `<p>${escape(greeting)}</p>
<p>A visitor to your website asked <strong>${escape(businessName)}</strong> for a quote through your TreeAnalyzer Pro estimator.</p>
<table>${facts.map(([k, v]) => `<tr><th align="left" valign="top">${escape(k)}</th><td style="white-space:pre-line">${escape(v)}</td></tr>`).join('')}</table>
<p><a href="${escape(link)}">See the estimate and photo</a> · <a href="${escape(`${base}/admin/businesses`)}">All your quote requests</a></p>`;
  return { to, subject: `New quote request for ${businessName} from ${lead.name}`, text, html };
}
