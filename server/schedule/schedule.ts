import { and, asc, desc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { arrivalWindow } from '../../core/arrival-window';
import { cancellationPeriodMessage, cancellationPeriodOf } from '../../core/cancellation-period';
import type { StoredEquipment } from '../../core/crews';
import { owedPence } from '../../core/invoices';
import { addDays, BOOKING_LIMITS, ukToday } from '../../core/job-booking';
import { jobReference } from '../../core/jobs';
import { overrunChance } from '../../core/overrun';
import { weatherCredit } from '../../core/weather';
import { postcodeAtEnd, protectionNoticeMessage, type ProtectionHold } from '../../core/protection';
import type { CrewDay, DayWeather, DepositState, MinutesRange, Schedule, ScheduleBooking, ScheduleHold, ScheduleQuery, WaitingJob } from '../../core/schedule';
import type { Db } from '../../db/client';
import { crewMembers, crews, earlyStartRequests, invoices, jobs, leads, quoteAnswers, quoteVersions, teamMembers } from '../../db/schema';
import { bookingHolds } from '../protection/protection';
import { inIds } from '../../db/in-ids';
import { teamCalendar, type TeamCalendar } from './calendar';
import { dayShare, estimatedJobMinutes } from './estimates';
import { crewPaces } from './pace';

/**
 * The schedule (docs/product.md, Schedule): the team's crews as rows and the days as columns, each
 * crew-day's bookings with their estimated minutes against the crew's capacity, the bookings on no
 * crew, and the accepted jobs waiting to be booked. Money stays out of it: the deposit is a state
 * word, never an amount.
 *
 * One query plan (docs/performance.md, The schedule): a fixed number of statements whatever the
 * number of bookings: the settings, the crews with their head counts, the jobs (booked in the
 * window and waiting) with their leads' postcodes, the acceptances with any early start, the
 * protected trees' holds, the deposits, the estimates (estimates.ts, three) and the crews' past
 * pace (pace.ts). server/routes/schedule.test.ts counts them at 10 and at 300 bookings.
 */

/**
 * The weather seam: given the crew-days that have bookings, the forecast for each (keyed
 * `${crewId}:${date}`), or nothing. The lead wires MET Norway's Locationforecast here; a failure
 * leaves the board without weather (the schedule catches it).
 */
export interface WeatherRequest {
  crewId: number;
  date: string;
  /** The day's sites, in the crew's order. */
  sites: { jobId: number; postcode: string | null; siteAddress: string }[];
  /** The crew's kit as kept (core/crews.ts StoredEquipment), for the warning's lowest limit. */
  equipment: readonly StoredEquipment[];
}
export type ScheduleWeather = (requests: readonly WeatherRequest[]) => Promise<ReadonlyMap<string, DayWeather>>;
export const weatherKey = (crewId: number, date: string) => `${crewId}:${date}`;
/** The board's credit line under CC BY 4.0 when any day carries weather (core/weather.ts). */
export const WEATHER_CREDIT = weatherCredit;

interface JobFacts {
  id: number;
  status: string;
  customerName: string;
  siteAddress: string | null;
  crewId: number | null;
  bookedFor: string | null;
  bookedStart: string | null;
  bookedDays: number | null;
  postcode: string | null;
}

interface Acceptance {
  acceptedAt: Date;
  consumer: boolean;
  earlyStartAsked: boolean;
}

interface CrewFacts {
  id: number;
  name: string;
  colour: string | null;
  dayMinutes: number;
  equipment: StoredEquipment[];
  members: number;
}

/** The team's crews that are not deleted, by name, each with its active members counted: one statement. */
function crewsOf(db: Db, accountId: number, only?: readonly number[]): CrewFacts[] {
  if (only && only.length === 0) return [];
  // Written out whole: drizzle leaves a select list's columns unqualified, which a correlated subquery must not be.
  const members = sql<number>`(select count(*) from crew_members cm inner join team_members tm on tm.id = cm.member_id where cm.crew_id = "crews"."id" and tm.status = 'active')`;
  return db
    .select({ id: crews.id, name: crews.name, colour: crews.colour, dayMinutes: crews.dayMinutes, equipment: crews.equipment, members })
    .from(crews)
    .where(and(eq(crews.accountId, accountId), isNull(crews.deletedAt), only ? inIds(crews.id, only) : undefined))
    .orderBy(asc(sql`${crews.name} COLLATE NOCASE`), asc(crews.id))
    .all();
}

/**
 * The account's jobs booked on a day of the window (booked or done; a job of N days from D is on
 * D to D+N-1, as its calendar file repeats it) and, with `waiting`, its accepted jobs not yet
 * booked: one statement, the lead's postcode joined.
 */
function jobsOf(db: Db, accountId: number, first: string, last: string, waiting: boolean, crewIds?: readonly number[]): JobFacts[] {
  const earliestFirstDay = addDays(first, -(BOOKING_LIMITS.days - 1));
  const booked = and(inArray(jobs.status, ['booked', 'done']), gte(jobs.bookedFor, earliestFirstDay), lte(jobs.bookedFor, last), crewIds ? inIds(jobs.crewId, crewIds) : undefined);
  const rows = db
    .select({
      id: jobs.id,
      status: jobs.status,
      customerName: jobs.customerName,
      siteAddress: jobs.siteAddress,
      crewId: jobs.crewId,
      bookedFor: jobs.bookedFor,
      bookedStart: jobs.bookedStart,
      bookedDays: jobs.bookedDays,
      leadPostcode: leads.postcode,
    })
    .from(jobs)
    .leftJoin(leads, eq(leads.id, jobs.leadId))
    .where(and(eq(jobs.userId, accountId), waiting ? or(booked, eq(jobs.status, 'accepted')) : booked))
    .orderBy(asc(jobs.id))
    .all();
  return rows
    .map(({ leadPostcode, ...row }) => ({ ...row, postcode: leadPostcode ?? postcodeAtEnd(row.siteAddress) }))
    .filter((row) => row.status === 'accepted' || (row.bookedFor !== null && addDays(row.bookedFor, (row.bookedDays ?? 1) - 1) >= first));
}

/** Each job's newest acceptance: when, whether the customer is a consumer, whether they asked to start early. One statement. */
function acceptancesOf(db: Db, jobIds: readonly number[]): Map<number, Acceptance> {
  if (jobIds.length === 0) return new Map();
  const rows = db
    .select({
      jobId: quoteVersions.jobId,
      createdAt: quoteAnswers.createdAt,
      startEarly: quoteAnswers.startEarly,
      consumer: sql<number | null>`json_extract(${quoteVersions.content}, '$.consumer')`,
      requestedAt: earlyStartRequests.requestedAt,
    })
    .from(quoteAnswers)
    .innerJoin(quoteVersions, eq(quoteVersions.id, quoteAnswers.versionId))
    .leftJoin(earlyStartRequests, eq(earlyStartRequests.jobId, quoteVersions.jobId))
    .where(and(inIds(quoteVersions.jobId, jobIds), eq(quoteAnswers.kind, 'accepted')))
    .orderBy(desc(quoteAnswers.id))
    .all();
  const out = new Map<number, Acceptance>();
  for (const row of rows) {
    if (out.has(row.jobId)) continue;
    // As server/jobs/early-start.ts reads it: the tick when accepting, or the request from their page since.
    out.set(row.jobId, { acceptedAt: row.createdAt, consumer: row.consumer === 1, earlyStartAsked: row.startEarly === true || row.requestedAt !== null });
  }
  return out;
}

/**
 * Each job's deposit state from its issued deposit invoices (drafts are not asked yet; one
 * credited in full no longer asks anything): paid when one is paid, unpaid when one is issued and
 * none paid, none otherwise. One statement, the payments and credit notes summed in it.
 */
function depositsOf(db: Db, jobIds: readonly number[]): Map<number, DepositState> {
  const out = new Map<number, DepositState>();
  if (jobIds.length === 0) return out;
  const rows = db
    .select({
      jobId: invoices.jobId,
      grossPence: invoices.grossPence,
      paidPence: sql<number>`(select coalesce(sum(p.amount_pence - p.refunded_pence), 0) from invoice_payments p where p.invoice_id = "invoices"."id" and p.removed_at is null)`,
      creditedPence: sql<number>`(select coalesce(sum(n.gross_pence), 0) from credit_notes n where n.invoice_id = "invoices"."id")`,
    })
    .from(invoices)
    .where(and(inIds(invoices.jobId, jobIds), eq(invoices.kind, 'deposit'), sql`${invoices.number} is not null`))
    .all();
  for (const row of rows) {
    if (row.creditedPence >= row.grossPence && row.creditedPence > 0) continue;
    const paid = owedPence(row) === 0;
    if (paid) out.set(row.jobId, 'paid');
    else if (out.get(row.jobId) !== 'paid') out.set(row.jobId, 'unpaid');
  }
  return out;
}

/** What still holds the job back on `today`: a protected tree's hold, the cancellation period. */
function holdsOf(protection: ProtectionHold | undefined, acceptance: Acceptance | undefined, today: string): ScheduleHold[] {
  const holds: ScheduleHold[] = [];
  if (protection && (protection.missing.length > 0 || (protection.earliestStart !== null && protection.earliestStart > today))) {
    holds.push({ kind: 'protection', until: protection.missing.length > 0 ? null : protection.earliestStart, sentence: protectionNoticeMessage(protection) });
  }
  if (acceptance?.consumer && !acceptance.earlyStartAsked) {
    const period = cancellationPeriodOf(acceptance.acceptedAt);
    if (period.firstDay > today) holds.push({ kind: 'cancellation_period', until: period.firstDay, sentence: cancellationPeriodMessage(period) });
  }
  return holds;
}

/** The first day the work may start: today, or the latest dated hold after it. */
function earliestStartOf(holds: readonly ScheduleHold[], protection: ProtectionHold | undefined, today: string): string {
  const dates = [today, ...holds.map((h) => h.until), protection?.earliestStart ?? null].filter((d): d is string => d !== null);
  return dates.reduce((a, b) => (b > a ? b : a));
}

export interface ScheduleOptions {
  /** Only these crews' rows, and neither the unassigned row nor the waiting tray (My days). */
  onlyCrewIds?: readonly number[];
  weather?: ScheduleWeather;
}

/** GET /api/schedule: the account's schedule from `query.from` for `query.days` days. */
export async function scheduleOf(db: Db, now: Date, accountId: number, query: ScheduleQuery, options: ScheduleOptions = {}): Promise<Schedule> {
  const built = buildSchedule(db, now, accountId, query, options.onlyCrewIds);
  return options.weather ? withWeather(built, options.weather) : built.schedule;
}

export interface Built {
  schedule: Schedule;
  requests: WeatherRequest[];
}

export function buildSchedule(db: Db, now: Date, accountId: number, query: ScheduleQuery, only?: readonly number[]): Built {
  const today = ukToday(now);
  const dates = Array.from({ length: query.days }, (_, i) => addDays(query.from, i));
  const last = dates[dates.length - 1]!;
  const calendar: TeamCalendar = teamCalendar(db, accountId);
  const crewRows = crewsOf(db, accountId, only);
  const crewById = new Map(crewRows.map((crew) => [crew.id, crew]));
  const allJobs = only && crewRows.length === 0 ? [] : jobsOf(db, accountId, query.from, last, !only, only ? crewRows.map((c) => c.id) : undefined);
  const ids = allJobs.map((job) => job.id);
  const acceptances = acceptancesOf(db, ids);
  const protection = bookingHolds(db, ids);
  const deposits = depositsOf(db, ids);
  const estimates = estimatedJobMinutes(db, ids);
  const paces = crewPaces(db, accountId, crewRows.map((crew) => crew.id));

  const holdsByJob = new Map(ids.map((id) => [id, holdsOf(protection.get(id), acceptances.get(id), today)]));
  const estimateOf = (id: number): MinutesRange => estimates.get(id) ?? { min: 0, max: 0 };

  // Each booked job's days in the window, on its crew's row or the unassigned row.
  const crewDayBookings = new Map<string, ScheduleBooking[]>();
  const unassignedByDate = new Map<string, ScheduleBooking[]>(dates.map((d) => [d, []]));
  for (const job of allJobs) {
    if (job.status === 'accepted' || job.bookedFor === null) continue;
    const days = job.bookedDays ?? 1;
    const total = estimateOf(job.id);
    const crewId = job.crewId !== null && crewById.has(job.crewId) ? job.crewId : null;
    for (let n = 1; n <= days; n += 1) {
      const date = addDays(job.bookedFor, n - 1);
      if (date < query.from || date > last) continue;
      const booking: ScheduleBooking = {
        jobId: job.id,
        reference: jobReference(job.id),
        customerName: job.customerName,
        postcode: job.postcode,
        siteAddress: job.siteAddress ?? '',
        crewId,
        date,
        firstDay: job.bookedFor,
        startTime: job.bookedStart ?? '08:00',
        dayNumber: n,
        days,
        dayLabel: days > 1 ? `day ${n} of ${days}` : null,
        estimatedMinutes: { min: dayShare(total.min, days, n), max: dayShare(total.max, days, n) },
        deposit: deposits.get(job.id) ?? 'none',
        holds: holdsByJob.get(job.id) ?? [],
        arrivalWindow: null,
      };
      if (crewId === null) unassignedByDate.get(date)!.push(booking);
      else {
        const key = weatherKey(crewId, date);
        crewDayBookings.set(key, [...(crewDayBookings.get(key) ?? []), booking]);
      }
    }
  }

  // A crew-day's order: by start, then the jobs carried over from earlier days, then by job.
  const byStart = (a: ScheduleBooking, b: ScheduleBooking) => a.startTime.localeCompare(b.startTime) || a.firstDay.localeCompare(b.firstDay) || a.jobId - b.jobId;
  const requests: WeatherRequest[] = [];
  const crewsOut = crewRows.map((crew) => ({
    id: crew.id,
    name: crew.name,
    colour: crew.colour,
    days: dates.map((date): CrewDay => {
      const bookings = (crewDayBookings.get(weatherKey(crew.id, date)) ?? []).sort(byStart);
      const start = bookings[0]?.startTime ?? '08:00';
      bookings.forEach((booking, i) => {
        booking.arrivalWindow = arrivalWindow(
          start,
          bookings.slice(0, i).map((b) => b.estimatedMinutes),
          crew.members,
        );
      });
      const planned = bookings.reduce((sum, b) => ({ min: sum.min + b.estimatedMinutes.min, max: sum.max + b.estimatedMinutes.max }), { min: 0, max: 0 });
      const capacityMinutes = calendar(date).kind === 'working' ? crew.members * crew.dayMinutes : 0;
      if (bookings.length > 0) requests.push({ crewId: crew.id, date, sites: bookings.map((b) => ({ jobId: b.jobId, postcode: b.postcode, siteAddress: b.siteAddress })), equipment: crew.equipment });
      return {
        date,
        bookings,
        plannedMinutes: planned,
        capacityMinutes,
        over: planned.min > capacityMinutes,
        overrunChance: overrunChance(
          bookings.map((b) => b.estimatedMinutes),
          capacityMinutes,
          paces.get(crew.id) ?? [],
        ),
      };
    }),
  }));

  const waiting: WaitingJob[] = only
    ? []
    : allJobs
        .filter((job) => job.status === 'accepted')
        .map((job) => {
          const holds = holdsByJob.get(job.id) ?? [];
          return {
            jobId: job.id,
            reference: jobReference(job.id),
            customerName: job.customerName,
            postcode: job.postcode,
            siteAddress: job.siteAddress ?? '',
            acceptedAt: (acceptances.get(job.id)?.acceptedAt ?? now).toISOString(),
            earliestStart: earliestStartOf(holds, protection.get(job.id), today),
            holds,
            deposit: deposits.get(job.id) ?? 'none',
            estimatedMinutes: estimateOf(job.id),
          };
        })
        .sort((a, b) => a.acceptedAt.localeCompare(b.acceptedAt) || a.jobId - b.jobId);

  return {
    schedule: {
      from: query.from,
      days: query.days,
      dates: dates.map((date) => ({ date, ...calendar(date), today: date === today })),
      crews: crewsOut,
      unassigned: only ? [] : dates.map((date) => ({ date, bookings: unassignedByDate.get(date)!.sort(byStart) })),
      waiting,
      weatherCredit: null,
    },
    requests,
  };
}

/** The forecast on each crew-day the seam answers for; none when it fails. */
async function withWeather(built: Built, weather: ScheduleWeather): Promise<Schedule> {
  if (built.requests.length === 0) return built.schedule;
  let forecast: ReadonlyMap<string, DayWeather>;
  try {
    forecast = await weather(built.requests);
  } catch {
    return built.schedule;
  }
  let any = false;
  for (const crew of built.schedule.crews) {
    for (const day of crew.days) {
      const found = forecast.get(weatherKey(crew.id, day.date));
      if (found) {
        day.weather = found;
        any = true;
      }
    }
  }
  return { ...built.schedule, weatherCredit: any ? WEATHER_CREDIT : null };
}

/** The crews a team member is in (not deleted): My days' rows. One statement. */
export function crewIdsOfMember(db: Db, accountId: number, memberId: number | null): number[] {
  if (memberId === null) return [];
  return db
    .select({ id: crews.id })
    .from(crewMembers)
    .innerJoin(crews, eq(crews.id, crewMembers.crewId))
    .innerJoin(teamMembers, eq(teamMembers.id, crewMembers.memberId))
    .where(and(eq(crewMembers.memberId, memberId), eq(crews.accountId, accountId), isNull(crews.deletedAt), eq(teamMembers.status, 'active')))
    .all()
    .map((row) => row.id);
}
