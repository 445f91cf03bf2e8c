import { JOB_SUMMARY_TIME_ZONE } from '../../../core/job-summary';
import { type Job, type JobStatus } from '../../../core/jobs';
import { formatGbp, parsePence } from '../../../core/money';

/**
 * The Jobs page's words and arithmetic (docs/product.md, The Jobs pages): each status's name, what
 * the listed jobs are worth, and the month the figures are for. The search and the counts are the
 * server's (GET /api/jobs?q=, GET /api/jobs/summary). Pure, so it is tested without a browser.
 */

export const JOB_STATUS_LABELS: Record<JobStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  viewed: 'Viewed',
  accepted: 'Accepted',
  declined: 'Declined',
  changes_requested: 'Changes requested',
  expired: 'Expired',
  booked: 'Booked',
  done: 'Done',
};

export type StatusFilter = JobStatus | 'all';

/** What the jobs add up to, as the customers would pay (each job's gross total), in pence. */
export function totalGrossPence(jobs: readonly { totals: Pick<Job['totals'], 'gross'> }[]): number {
  return jobs.reduce((sum, job) => sum + (parsePence(job.totals.gross) ?? 0), 0);
}

/** "£1,234.50" from the API's "1234.50". */
export function formatPounds(text: string): string {
  const pence = parsePence(text);
  return pence === undefined ? text : formatGbp(pence);
}

/** "July 2026": the UK month the summary's figures are for, from its first instant. */
export function monthName(start: string): string {
  return new Date(start).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: JOB_SUMMARY_TIME_ZONE });
}

/** "1 job", "2 quotes": a count with its noun. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
