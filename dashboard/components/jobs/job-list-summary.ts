import { JOB_SUMMARY_TIME_ZONE } from '../../../core/job-summary';
import { JOB_STATUSES, type Job, type JobStatus } from '../../../core/jobs';
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
  cancelled: 'Cancelled',
};

/** A status, all, or `council`: the jobs whose booking waits on the council (docs/product.md, Protected trees). */
export type StatusFilter = JobStatus | 'all' | 'council';

/** What the jobs add up to, as the customers would pay (each job's gross total), in pence. */
export function totalGrossPence(jobs: readonly { totals: Pick<Job['totals'], 'gross'> }[]): number {
  return jobs.reduce((sum, job) => sum + (parsePence(job.totals.gross) ?? 0), 0);
}

/**
 * The quotes a listed value counts: still open (the customer may yet accept) or won. A draft was
 * never offered, and a declined, expired or cancelled quote will not be paid, so adding them would
 * promise money that is not coming.
 */
export const OPEN_STATUSES: ReadonlySet<JobStatus> = new Set(['sent', 'viewed', 'changes_requested']);
export const WON_STATUSES: ReadonlySet<JobStatus> = new Set(['accepted', 'booked', 'done']);

type ListedJob = { status: JobStatus; totals: Pick<Job['totals'], 'gross'> };

export interface ListedValue {
  /** Gross pence of the quotes still open (sent, viewed, a change asked). */
  openPence: number;
  /** Gross pence of the quotes won (accepted, booked, done). */
  wonPence: number;
  /** What is listed but not counted, in words: "1 draft, 2 declined"; "" when nothing is left out. */
  notCounted: string;
}

/** What the listed jobs are worth, open and won apart, and which were left out. */
export function listedValue(jobs: readonly ListedJob[]): ListedValue {
  const notCounted = JOB_STATUSES.filter((status) => !OPEN_STATUSES.has(status) && !WON_STATUSES.has(status))
    .map((status) => [status, jobs.filter((job) => job.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${JOB_STATUS_LABELS[status].toLowerCase()}`)
    .join(', ');
  return {
    openPence: totalGrossPence(jobs.filter((job) => OPEN_STATUSES.has(job.status))),
    wonPence: totalGrossPence(jobs.filter((job) => WON_STATUSES.has(job.status))),
    notCounted,
  };
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
