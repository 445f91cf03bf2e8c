import { plainLine } from '../../core/plain-text';
import type { MailMessage } from './mailer';

/** Which of the business's limits turned the visitor away. */
export type LimitReached = 'daily_cap' | 'rate';

export interface LimitEmailInput {
  to: string;
  ownerName: string;
  businessName: string;
  reached: LimitReached;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  dailyCap: number;
  rate: { points: number; windowSeconds: number };
  /** The day's counts so far. */
  counts: { loads: number; estimates: number; needsDetails: number; leads: number; turnedAway: number };
  publicUrl: string;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/**
 * The owner's e-mail when their website estimator first turns a visitor away in a UTC day
 * (server/businesses/limit-notice.ts): which limit, the day's counts, and what to do, whether the
 * visitors were customers (raise the cap) or a script spending their credits (list their site).
 */
export function limitEmail(input: LimitEmailInput): MailMessage {
  const { counts, rate } = input;
  const base = input.publicUrl.replace(/\/$/, '');
  const name = plainLine(input.businessName);
  const minutes = Math.round(rate.windowSeconds / 60);
  const what =
    input.reached === 'daily_cap'
      ? `reached its daily cap of ${plural(input.dailyCap, 'estimate', 'estimates')} today (${input.day}, UTC), so visitors are told it is busy until midnight UTC.`
      : `reached its limit of ${plural(rate.points, 'estimate', 'estimates')} in ${minutes} minutes, so visitors are told it is busy for a few minutes.`;
  const rows: [string, string][] = [
    ['Estimator loads', counts.loads.toLocaleString('en-GB')],
    ['Estimates (10 credits each)', counts.estimates.toLocaleString('en-GB')],
    ['Asked for sizes (free)', counts.needsDetails.toLocaleString('en-GB')],
    ['Quote requests', counts.leads.toLocaleString('en-GB')],
    ['Visitors turned away so far', counts.turnedAway.toLocaleString('en-GB')],
  ];
  const advice = [
    'If these are your customers, raise the daily cap in Business Admin.',
    "If you don't recognise this traffic, someone may be spending your credits through your estimator: list your own website under Allowed site origins in Business Admin, so no other site can use it.",
  ];
  const greeting = input.ownerName ? `Hello ${plainLine(input.ownerName)},` : 'Hello,';
  const link = `${base}/admin/businesses`;
  const text = [
    greeting,
    '',
    `Your website estimator for ${name} ${what}`,
    '',
    `Today so far:`,
    ...rows.map(([k, v]) => `${k}: ${v}`),
    '',
    ...advice,
    '',
    `Business Admin: ${link}`,
    '',
    'We send this at most once a day.',
  ].join('\n');
  const html = `<p>${escape(greeting)}</p>
<p>Your website estimator for <strong>${escape(name)}</strong> ${escape(what)}</p>
<h3>Today so far</h3>
<table>${rows.map(([k, v]) => `<tr><th align="left">${escape(k)}</th><td>${escape(v)}</td></tr>`).join('')}</table>
${advice.map((line) => `<p>${escape(line)}</p>`).join('\n')}
<p><a href="${escape(link)}">Open Business Admin</a></p>
<p>We send this at most once a day.</p>`;
  return { to: input.to, subject: `Your estimator for ${name} is turning visitors away`, text, html };
}
