import { and, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { addDays, BOOKING_LIMITS, BOOKING_MESSAGES, ukToday } from '../../core/job-booking';
import { plainText } from '../../core/plain-text';
import { keptWords, SCHEDULE_LIMITS, SCHEDULE_MESSAGES, type PostponeReason, type postponeResponseSchema } from '../../core/schedule';
import { jobReference } from '../../core/jobs';
import type { z } from 'zod';
import { isWorkingDay, type WorkCalendarSettings } from '../../core/work-calendar';
import { immediate, type Db } from '../../db/client';
import { crewMembers, crews, jobs, teamMembers } from '../../db/schema';
import { crewOfTeam } from '../crews/crews';
import type { AppDeps } from '../deps';
import { moveAndTell } from '../jobs/booking';
import { cancellationHold } from '../jobs/early-start';
import type { JobRow } from '../jobs/jobs';
import { protectionRow } from '../protection/lookup';
import { bookingHold } from '../protection/protection';
import { getScheduleSettings } from '../settings/settings';
import { arrivalWindowOf } from './arrival';
import { dayShare, estimatedJobMinutes } from './estimates';

/**
 * A rained-off day (docs/product.md, Schedule: postponing a day). Every booking that starts on the
 * day (one crew's, or every crew's and the unassigned ones) moves, as one block with its days, to
 * the first day from the next on where:
 * - every day of the block is a working day of the team (core/work-calendar.ts: not a weekend or a
 *   day the team does not work, a day off or a bank holiday of its region), since a booking's days
 *   are consecutive calendar days (the calendar file repeats it daily);
 * - it is not before a hold: a protected tree's earliest start or the consumer's cancellation period
 *   (a hold with no date, a consent or notice still missing, is one the booking already went past
 *   with the surgeon's reason, which is kept and carried over; without one the job cannot move);
 * - the crew has room: on each day of the block, the low end of the minutes already planned for the
 *   crew plus this job's share of its own fit the crew's capacity (its active members × its day),
 *   or nothing is planned that day yet (an empty day takes any one job, however big).
 * Bookings already there never move: the postponed ones go where there is room. A booking on no
 * crew has no capacity to fill, so it takes the first working day past its holds. Jobs are placed
 * in the day's order (start, then job), each counting against the next. All of it is one immediate
 * transaction with the customers' e-mails (one each, the reason in words, the new calendar file):
 * when one booking finds no day within SCHEDULE_LIMITS.postponeSearchDays, nothing moves (409).
 */
type PostponeDeps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>;

export interface PostponeRequest {
  date: string;
  crewId?: number | null;
  reason: PostponeReason;
  note?: string;
}

export interface PostponedBooking {
  jobId: number;
  from: string;
  to: string;
}

/** The bookings that start on `date`: one crew's, or the whole team's (crews and none). In the day's order. */
function bookingsStarting(db: Db, accountId: number, date: string, crewId: number | null): JobRow[] {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, accountId), eq(jobs.status, 'booked'), eq(jobs.bookedFor, date), crewId === null ? undefined : eq(jobs.crewId, crewId)))
    .orderBy(jobs.bookedStart, jobs.id)
    .all();
}

/** Each crew's capacity in minutes a working day: its active members × its day. */
function capacities(db: Db, accountId: number, crewIds: number[]): Map<number, number> {
  if (crewIds.length === 0) return new Map();
  const rows = db
    .select({ id: crews.id, dayMinutes: crews.dayMinutes, members: sql<number>`count(${teamMembers.id})` })
    .from(crews)
    .leftJoin(crewMembers, eq(crewMembers.crewId, crews.id))
    .leftJoin(teamMembers, and(eq(teamMembers.id, crewMembers.memberId), eq(teamMembers.status, 'active')))
    .where(and(eq(crews.accountId, accountId), inArray(crews.id, crewIds)))
    .groupBy(crews.id)
    .all();
  return new Map(rows.map((row) => [row.id, row.members * row.dayMinutes]));
}

/** The crews' planned low-end minutes by day, from their other bookings in the days the search may reach. */
class CrewDays {
  private readonly planned = new Map<string, number>();

  add(crewId: number, first: string, days: number, minutes: number): void {
    for (let n = 1; n <= days; n += 1) {
      const key = `${crewId}:${addDays(first, n - 1)}`;
      this.planned.set(key, (this.planned.get(key) ?? 0) + dayShare(minutes, days, n));
    }
  }

  on(crewId: number, date: string): number {
    return this.planned.get(`${crewId}:${date}`) ?? 0;
  }
}

function plannedMinutes(db: Db, accountId: number, crewIds: number[], from: string, to: string, leaving: Set<number>): CrewDays {
  const plan = new CrewDays();
  if (crewIds.length === 0) return plan;
  // A booking is at most BOOKING_LIMITS.days long: one that began that long before `from` may still reach it.
  const rows = db
    .select({ id: jobs.id, crewId: jobs.crewId, first: jobs.bookedFor, days: jobs.bookedDays })
    .from(jobs)
    .where(and(eq(jobs.userId, accountId), eq(jobs.status, 'booked'), inArray(jobs.crewId, crewIds), isNotNull(jobs.bookedFor), gte(jobs.bookedFor, addDays(from, -31)), lte(jobs.bookedFor, to)))
    .all()
    .filter((row) => !leaving.has(row.id));
  const minutes = estimatedJobMinutes(
    db,
    rows.map((row) => row.id),
  );
  for (const row of rows) plan.add(row.crewId!, row.first!, row.days ?? 1, minutes.get(row.id)?.min ?? 0);
  return plan;
}

/**
 * The first day the job may start after `after`: past its protected tree's earliest start and
 * the cancellation period. A hold with no date (consent or a notice missing) carries the reason
 * the surgeon gave when booking past it; null when there is none, and so no day will do.
 */
function holdsOf(db: Db, jobId: number, after: string): { from: string; confirmProtection: { reason: string } | null } | null {
  let from = after;
  const protection = bookingHold(db, jobId);
  if (protection.earliestStart && protection.earliestStart > from) from = protection.earliestStart;
  const period = cancellationHold(db, jobId);
  if (period && period.firstDay > from) from = period.firstDay;
  if (protection.missing.length === 0) return { from, confirmProtection: null };
  const reason = protectionRow(db, jobId)?.confirmReason;
  return reason ? { from, confirmProtection: { reason } } : null;
}

interface Placing {
  crewId: number | null;
  capacity: number | null;
  days: number;
  minutes: number;
}

/** Whether the block fits from `first`: every day a working day, and room on the crew's days. */
function fits(first: string, job: Placing, calendar: WorkCalendarSettings, plan: CrewDays): boolean {
  for (let n = 1; n <= job.days; n += 1) {
    const date = addDays(first, n - 1);
    if (!isWorkingDay(date, calendar)) return false;
    if (job.crewId === null || job.capacity === null) continue;
    const planned = plan.on(job.crewId, date);
    if (planned > 0 && planned + dayShare(job.minutes, job.days, n) > job.capacity) return false;
  }
  return true;
}

export type PostponeAnswer = z.infer<typeof postponeResponseSchema>;

/**
 * The jobs of more than one day that began before `date` and run over it (one crew's, or the
 * whole team's): they stay as booked, with a sentence for the surgeon (core/schedule.ts keptWords).
 */
function underWay(db: Db, accountId: number, date: string, crewId: number | null): PostponeAnswer['kept'] {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.userId, accountId),
        eq(jobs.status, 'booked'),
        isNotNull(jobs.bookedFor),
        lte(jobs.bookedFor, addDays(date, -1)),
        gte(jobs.bookedFor, addDays(date, -BOOKING_LIMITS.days)),
        crewId === null ? undefined : eq(jobs.crewId, crewId),
      ),
    )
    .orderBy(jobs.bookedFor, jobs.id)
    .all()
    .filter((job) => addDays(job.bookedFor!, (job.bookedDays ?? 1) - 1) >= date)
    .map((job) => ({ jobId: job.id, reference: jobReference(job.id), firstDay: job.bookedFor!, sentence: keptWords(jobReference(job.id), job.bookedFor!, addDays(job.bookedFor!, (job.bookedDays ?? 1) - 1)) }));
}

const noRoom = (jobId: number) => new DomainError('CONFLICT', SCHEDULE_MESSAGES.noRoom, { details: { jobId: [String(jobId)] } });

/**
 * POST /api/schedule/postpone: moves the day's bookings and e-mails their customers, all or
 * nothing. 400 for a day already past; 404 for a crew not of the team; 409 when one booking finds
 * no day with room within the search. `by`: the person postponing (booking_moves.moved_by).
 */
export function postponeDay(deps: PostponeDeps, actor: { accountId: number; personId: number }, request: PostponeRequest): PostponeAnswer {
  const today = ukToday(deps.clock.now());
  if (request.date < today) throw new DomainError('VALIDATION_ERROR', BOOKING_MESSAGES.past, { details: { date: [BOOKING_MESSAGES.past] } });
  const crewId = request.crewId ?? null;
  const note = request.note ? plainText(request.note) : null;
  return immediate(deps.db, (tx) => {
    if (crewId !== null) crewOfTeam(tx, actor.accountId, crewId);
    const day = bookingsStarting(tx, actor.accountId, request.date, crewId);
    const kept = underWay(tx, actor.accountId, request.date, crewId);
    if (day.length === 0) return { moved: [], kept };
    const calendar = getScheduleSettings(tx, actor.accountId);
    const crewIds = [...new Set(day.map((job) => job.crewId).filter((id): id is number => id !== null))];
    const capacity = capacities(tx, actor.accountId, crewIds);
    const after = addDays(request.date, 1);
    const holdsByJob = new Map(
      day.map((job) => {
        const holds = holdsOf(tx, job.id, after);
        if (!holds) throw noRoom(job.id);
        return [job.id, holds] as const;
      }),
    );
    const latest = [...holdsByJob.values()].reduce((a, b) => (b.from > a ? b.from : a), after);
    const plan = plannedMinutes(tx, actor.accountId, crewIds, after, addDays(latest, SCHEDULE_LIMITS.postponeSearchDays + 31), new Set(day.map((job) => job.id)));
    const minutes = estimatedJobMinutes(
      tx,
      day.map((job) => job.id),
    );
    const moved: PostponedBooking[] = [];
    for (const job of day) {
      const holds = holdsByJob.get(job.id)!;
      const placing: Placing = {
        crewId: job.crewId,
        capacity: job.crewId === null ? null : (capacity.get(job.crewId) ?? null),
        days: job.bookedDays ?? 1,
        minutes: minutes.get(job.id)?.min ?? 0,
      };
      let to: string | null = null;
      for (let i = 0; i < SCHEDULE_LIMITS.postponeSearchDays && to === null; i += 1) {
        const first = addDays(holds.from, i);
        if (fits(first, placing, calendar, plan)) to = first;
      }
      if (to === null) throw noRoom(job.id);
      if (placing.crewId !== null) plan.add(placing.crewId, to, placing.days, placing.minutes);
      moveAndTell({ ...deps, arrivalWindow: arrivalWindowOf }, job, { date: to, notifyCustomer: true, confirmProtection: holds.confirmProtection }, actor.personId, { reason: request.reason, note });
      moved.push({ jobId: job.id, from: request.date, to });
    }
    return { moved, kept };
  });
}
