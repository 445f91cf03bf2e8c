import { eq } from 'drizzle-orm';
import type { WorkSummary } from '../../core/crew-day';
import type { Db } from '../../db/client';
import { jobs } from '../../db/schema';
import { jobWorkSummary } from './work';

/**
 * The job's timer as the sheet and the job's page show it (core/crew-day.ts workSummarySchema):
 * minutes on site by UK day, the timer's state, and a start without a complete site check, worked
 * out from the crew's taps (work.ts) as at `now` (a done job's as at when it was done).
 */
export function workSummaryOf(db: Db, jobId: number, now: Date): WorkSummary {
  const job = db.select({ id: jobs.id, doneAt: jobs.doneAt }).from(jobs).where(eq(jobs.id, jobId)).get();
  return job ? jobWorkSummary(db, job, now) : { minutesOnSite: 0, state: 'not_started', days: [], startedWithoutCheck: null };
}
