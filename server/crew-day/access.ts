import { DomainError } from '../../core/errors';
import { JOB_NOT_FOUND } from '../../core/jobs';
import type { TeamRole } from '../../core/team';
import type { Db } from '../../db/client';
import { findOwnJob, type JobRow } from '../jobs/jobs';
import { crewIdsOfMember } from '../schedule/schedule';

/** Who asks, as the session knows them (currentPerson's role and team_members id). */
export interface CrewDayPerson {
  role: TeamRole;
  memberId: number | null;
}

/** The statuses a crew member may open: a job booked on their crew, or done by it. */
export const CREW_VISIBLE_STATUSES = ['booked', 'done'] as const;

/**
 * The team's job `jobId` when the person may work on it (docs/product.md, The crew's day): the
 * owner and the office any of the team's jobs; a crew member only a job booked (or done) on a
 * crew they are in. Anything else answers exactly as another team's job does: 404 "Job not found",
 * so a crew member cannot tell another crew's job from one that does not exist.
 */
export function jobForPerson(db: Db, accountId: number, person: CrewDayPerson, jobId: number): JobRow {
  const job = findOwnJob(db, accountId, jobId);
  if (person.role !== 'crew') return job;
  const visible = (CREW_VISIBLE_STATUSES as readonly string[]).includes(job.status) && job.crewId !== null;
  if (!visible || !crewIdsOfMember(db, accountId, person.memberId).includes(job.crewId!)) throw new DomainError('NOT_FOUND', JOB_NOT_FOUND);
  return job;
}

export { siteCheckMissing } from './site-check';
