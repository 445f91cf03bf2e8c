import { ukToday } from '../../core/job-booking';
import { SCHEDULE_LIMITS, type MyDayBooking, type MyDays, type ScheduleBooking, type ScheduleQuery } from '../../core/schedule';
import type { Db } from '../../db/client';
import { buildSchedule, crewIdsOfMember } from './schedule';

/** A booking as a crew member reads it: every field of the schedule's but the deposit (crews never see money). */
function withoutMoney({ deposit: _deposit, ...booking }: ScheduleBooking): MyDayBooking {
  return booking;
}

/**
 * My days: the bookings of the crews `memberId` is in (another crew's never appear), by day, in
 * each crew's order; a person in two crews sees both, by start. The schedule's own reading
 * (schedule.ts), so the estimates and arrival windows are the board's.
 */
export function myDaysOf(db: Db, now: Date, accountId: number, memberId: number | null, query: ScheduleQuery): MyDays {
  const crewIds = crewIdsOfMember(db, accountId, memberId);
  const { schedule } = buildSchedule(db, now, accountId, query, crewIds);
  return {
    days: schedule.dates.map(({ date }, i) => ({
      date,
      bookings: schedule.crews
        .flatMap((crew) => crew.days[i]!.bookings)
        .sort((a, b) => a.startTime.localeCompare(b.startTime) || a.jobId - b.jobId)
        .map(withoutMoney),
    })),
  };
}

/** My days as GET /api/my-days answers without a query: from today (in the UK) for the schedule's default week. */
export function myDaysFromToday(db: Db, now: Date, accountId: number, memberId: number | null): MyDays {
  return myDaysOf(db, now, accountId, memberId, { from: ukToday(now), days: SCHEDULE_LIMITS.days.default });
}
