import { JOB_STATUSES, type Job, type JobStatus } from '../../../core/jobs';
import { formatGbp, parsePence } from '../../../core/money';

/**
 * The Jobs page's arithmetic (docs/product.md, Jobs and quotes): counts per status, the jobs a
 * filter and a search leave, and what they are worth. Pure, so it is tested without a browser.
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

/** How many jobs are in each status, every status present (0 when none). */
export function countByStatus(jobs: readonly Pick<Job, 'status'>[]): Record<JobStatus, number> {
  const counts = Object.fromEntries(JOB_STATUSES.map((status) => [status, 0])) as Record<JobStatus, number>;
  for (const job of jobs) counts[job.status] += 1;
  return counts;
}

/** Lower case without accents, so "wojcik" finds "Wójcik" and "zoe" finds "Zoë". */
function searchable(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLocaleLowerCase('en-GB');
}

/** The jobs in `status` (or all) whose customer's name or quote number holds every word searched. */
export function filterJobs<J extends Pick<Job, 'status' | 'reference'> & { customer: Pick<Job['customer'], 'name'> }>(
  jobs: readonly J[],
  status: StatusFilter,
  search: string,
): J[] {
  const words = searchable(search).split(/\s+/).filter(Boolean);
  return jobs.filter((job) => {
    if (status !== 'all' && job.status !== status) return false;
    const haystack = searchable(`${job.customer.name} ${job.reference}`);
    return words.every((word) => haystack.includes(word));
  });
}

/** What the jobs add up to, as the customers would pay (each job's gross total), in pence. */
export function totalGrossPence(jobs: readonly { totals: Pick<Job['totals'], 'gross'> }[]): number {
  return jobs.reduce((sum, job) => sum + (parsePence(job.totals.gross) ?? 0), 0);
}

/** "£1,234.50" from the API's "1234.50". */
export function formatPounds(text: string): string {
  const pence = parsePence(text);
  return pence === undefined ? text : formatGbp(pence);
}
