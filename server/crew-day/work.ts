import { and, asc, eq } from 'drizzle-orm';
import { WORK_CLOCK_SKEW_MINUTES, WORK_MESSAGES, SITE_CHECK_MESSAGES, type WorkEvent, type WorkSummary } from '../../core/crew-day';
import { DomainError } from '../../core/errors';
import { BOOKING_MESSAGES } from '../../core/job-booking';
import { personName } from '../../core/team';
import { ukDayOf, workSummary } from '../../core/work-timer';
import { immediate, type Db } from '../../db/client';
import { jobs, users, workEvents } from '../../db/schema';
import type { JobRow } from '../jobs/jobs';

/**
 * The crew's timer on a job (docs/product.md, The crew's day, Timers and the finish): each tap is
 * kept once by the phone's id for it, checked against the server's clock and the booking, and the
 * summary is worked out from all of them (core/work-timer.ts), never from the order they arrived in.
 */

/** What is missing from the day's site check, in words; none when it is complete and signed. */
export type SiteCheckMissing = (db: Db, jobId: number, date: string) => string[];

export interface WorkTap {
  event: WorkEvent;
  /** The phone's moment of the tap, ISO with its offset. */
  at: string;
  clientId: string;
  reason?: string | undefined;
}

export interface Tapper {
  /** The person's users row (the `by`). */
  userId: number;
  /** Their team_members row. */
  memberId: number | null;
}

const invalidAt = (message: string) => new DomainError('VALIDATION_ERROR', message, { details: { at: [message] } });

/** The name of a person by their users row, or null when none. */
export function nameOfUser(db: Db, userId: number | null): string | null {
  if (userId === null) return null;
  const row = db.select({ firstName: users.firstName, lastName: users.lastName, username: users.username }).from(users).where(eq(users.id, userId)).get();
  return row ? personName(row) : null;
}

/** The job's timer as at `now` (a done job's as at when it was done: nothing runs after it). */
export function jobWorkSummary(db: Db, job: Pick<JobRow, 'id' | 'doneAt'>, now: Date): WorkSummary {
  const rows = db.select().from(workEvents).where(eq(workEvents.jobId, job.id)).orderBy(asc(workEvents.at), asc(workEvents.id)).all();
  const withReason = rows.find((row) => row.reason !== null);
  const startedWithoutCheck = withReason ? { reason: withReason.reason!, by: nameOfUser(db, withReason.by) ?? 'Someone no longer in the team', at: withReason.at.toISOString() } : null;
  return workSummary(
    rows.map((row) => ({ event: row.event, at: row.at, received: row.id })),
    job.doneAt ?? now,
    startedWithoutCheck,
    job.doneAt !== null,
  );
}

/**
 * Keeps one tap of the job's timer and answers the timer. The same `clientId` again answers the
 * timer as it is, storing nothing (a phone sending again after losing signal). Refused: a job not
 * booked (409) or done (409); `at` more than WORK_CLOCK_SKEW_MINUTES ahead of the server's clock,
 * or before the booking's first UK day (400); a start on a day whose site check is not complete and
 * signed (409 SITE_CHECK_MISSING with what is missing), unless the lead gives a reason, which is kept.
 */
export function recordWorkTap(db: Db, now: Date, job: JobRow, tap: WorkTap, by: Tapper, siteCheckMissing: SiteCheckMissing): WorkSummary {
  return immediate(db, (tx) => {
    const current = tx.select().from(jobs).where(eq(jobs.id, job.id)).get()!;
    const replay = tx.select({ id: workEvents.id }).from(workEvents).where(and(eq(workEvents.jobId, job.id), eq(workEvents.clientId, tap.clientId))).get();
    if (replay) return jobWorkSummary(tx, current, now);
    if (current.status === 'done') throw new DomainError('CONFLICT', BOOKING_MESSAGES.alreadyDone);
    if (current.status !== 'booked' || current.bookedFor === null) throw new DomainError('CONFLICT', WORK_MESSAGES.notBooked);
    const at = new Date(tap.at);
    if (at.getTime() > now.getTime() + WORK_CLOCK_SKEW_MINUTES * 60_000) throw invalidAt(WORK_MESSAGES.future);
    const day = ukDayOf(at);
    if (day < current.bookedFor) throw invalidAt(WORK_MESSAGES.beforeBooking);
    let reason: string | null = null;
    if (tap.event === 'start') {
      const missing = siteCheckMissing(tx, job.id, day);
      if (missing.length > 0) {
        if (!tap.reason) throw new DomainError('SITE_CHECK_MISSING', SITE_CHECK_MESSAGES.missing, { details: { missing } });
        reason = tap.reason;
      }
    }
    tx.insert(workEvents)
      .values({ jobId: job.id, accountId: current.userId, memberId: by.memberId, event: tap.event, at, clientId: tap.clientId, reason, by: by.userId, receivedAt: now })
      .run();
    return jobWorkSummary(tx, current, now);
  });
}
