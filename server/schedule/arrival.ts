import type { ArrivalWindow } from '../../core/arrival-window';
import type { Db } from '../../db/client';
import { buildSchedule } from './schedule';

/**
 * The arrival window the customer's booking e-mail gives (docs/product.md, Schedule: arrival
 * windows): for a job that is the second or a later one of its crew's first day, the window the
 * board shows on it ("between 11:00 and 12:30"), from the same figures; null for the day's first
 * job, a job on no crew, or a crew the schedule does not show. Read inside the booking's
 * transaction, so the job's new day is the one counted.
 */
export function arrivalWindowOf(db: Db, now: Date, accountId: number, job: { id: number; crewId: number | null; bookedFor: string | null }): ArrivalWindow | null {
  if (job.crewId === null || job.bookedFor === null) return null;
  const { schedule } = buildSchedule(db, now, accountId, { from: job.bookedFor, days: 1 }, [job.crewId]);
  const day = schedule.crews.find((crew) => crew.id === job.crewId)?.days[0];
  return day?.bookings.find((booking) => booking.jobId === job.id)?.arrivalWindow ?? null;
}
