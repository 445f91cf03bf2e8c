import type { WorkSummary } from '../../core/crew-day';
import type { Db } from '../../db/client';

/**
 * The job's timer as the sheet shows it (core/crew-day.ts workSummarySchema): minutes on site by
 * day, the timer's state, and a start without a complete site check. The timers' events are not
 * kept yet, so every job reads as not started.
 */
export function workSummaryOf(_db: Db, _jobId: number): WorkSummary {
  return { minutesOnSite: 0, state: 'not_started', days: [], startedWithoutCheck: null };
}
