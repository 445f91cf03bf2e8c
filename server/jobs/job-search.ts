import { matchesSearch } from '../../core/job-summary';
import { ENDED_STATUSES, jobReference, type JobStatus } from '../../core/jobs';
import type { Db } from '../../db/client';
import { waitingOnCouncil } from '../protection/protection';
import { listOwnJobs, type JobRow } from './jobs';

/**
 * The Jobs list's filter (GET /api/jobs?q=&status=; docs/product.md, The Jobs pages): the account's
 * jobs, newest first, in one status and whose customer's name, e-mail or quote number holds every
 * word searched. The words are matched here on the account's own rows (core/job-summary.ts
 * matchesSearch) rather than with SQL's LIKE, which folds only ASCII letters: "wojcik" must find
 * "Wójcik" and "łukasz" "ŁUKASZ", and "%" or "_" must mean themselves. The rows are small; only
 * those that match are made into views, which is where a job's cost lies.
 */
export function searchOwnJobs(db: Db, userId: number, filter: { q: string; status?: JobStatus; waiting?: 'council' }, today: string): JobRow[] {
  const rows = listOwnJobs(db, userId).filter(
    (row) => (!filter.status || row.status === filter.status) && (!filter.q || matchesSearch([row.customerName, row.customerEmail, jobReference(row.id)], filter.q)),
  );
  if (filter.waiting !== 'council') return rows;
  const open = rows.filter((row) => !ended.has(row.status));
  const waiting = waitingOnCouncil(db, userId, today);
  return open.filter((row) => waiting.has(row.id));
}

/** Jobs no longer to be done wait on nobody. */
const ended: ReadonlySet<JobStatus> = new Set(ENDED_STATUSES);
