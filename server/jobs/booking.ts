import { eq } from 'drizzle-orm';
import type { ArrivalWindow } from '../../core/arrival-window';
import { BOOKING_MESSAGES, formatBookingDate, siteVisitOf, ukToday, type JobActuals, type JobBooking } from '../../core/job-booking';
import { POSTPONE_REASON_WORDS, SCHEDULE_MESSAGES, type BookingMove, type PostponeReason } from '../../core/schedule';
import { DomainError } from '../../core/errors';
import { jobReference, type JobStatus } from '../../core/jobs';
import type { QuoteContent } from '../../core/quote-versions';
import { immediate, type Db } from '../../db/client';
import { bookingMoves, jobs } from '../../db/schema';
import { saveFeedback } from '../analysis/feedback';
import type { AppDeps } from '../deps';
import { queueMail } from '../mail/outbox';
import { bookingEmail, type BookingDates } from '../mail/booking-email';
import { crewOfTeam } from '../crews/crews';
import { getCompanyProfile, getSettings } from '../settings/settings';
import { bookingHold, keepProtectionConfirmation } from '../protection/protection';
import { nestingCheck, protectionNoticeMessage, refusesBooking } from '../../core/protection';
import { buildCalendar, VISIT_MINUTES, WORKING_DAY_MINUTES, type CalendarEvent } from './ics';
import { itemsOf, type JobRow } from './jobs';
import { acceptedOf } from './quote-links';
import { fromBusiness } from './quote-flow';
import { refuseInsideCancellationPeriod } from './early-start';

/**
 * Booked and done (docs/product.md, Jobs and quotes, Booking and done). An accepted job is booked
 * for a date (and perhaps a site visit before it); the customer is e-mailed the booking with a
 * calendar file. Booking again changes the date and sends again, the calendar's SEQUENCE one
 * higher so it replaces the first. Marking the job done stores each tree's actual times as the
 * analysis's feedback (server/analysis/feedback.ts), which keeps the calibration in step, in the
 * same transaction as the status.
 */
type BookingDeps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'> & {
  /**
   * When the crew should arrive at a job that is not the first of its crew's day (the schedule's
   * server/schedule/arrival.ts, given by the routes: the schedule reads jobs, so jobs does not read
   * it); left out, the e-mail gives the crew's start.
   */
  arrivalWindow?: (db: Db, now: Date, accountId: number, job: JobRow) => ArrivalWindow | null;
};

const BOOKABLE: ReadonlySet<JobStatus> = new Set(['accepted', 'booked']);

function refuseUnlessBookable(status: JobStatus, notYet: string): void {
  if (status === 'done') throw new DomainError('CONFLICT', BOOKING_MESSAGES.alreadyDone);
  if (!BOOKABLE.has(status)) throw new DomainError('CONFLICT', notYet);
}

/** The job as it is now, inside the caller's transaction. */
function reread(db: Db, job: JobRow): JobRow {
  return db.select().from(jobs).where(eq(jobs.id, job.id)).get()!;
}

/** The version the customer accepted and the optional items they chose, when there is one. */
function accepted(db: Db, jobId: number): { content: QuoteContent; chosen: number[] } | undefined {
  const found = acceptedOf(db, jobId);
  return found ? { content: found.version.content, chosen: found.answer.optionalItemIds ?? [] } : undefined;
}

/** The work the customer agreed to: the accepted version's items and the options they chose; else the job's items. */
function agreedWork(db: Db, jobId: number, quote = accepted(db, jobId)): string[] {
  const chosen = new Set(quote?.chosen ?? []);
  return (quote?.content.items ?? itemsOf(db, [jobId])).filter((item) => !item.optional || chosen.has(item.id)).map((item) => item.description);
}

/** The nesting birds line of a booked job's dates and work (core/protection.ts nestingCheck), as the job page shows it; null when not booked. */
export function bookedNestingCheck(db: Db, job: JobRow): string | null {
  return job.bookedFor ? nestingCheck(agreedWork(db, job.id), job.bookedFor, job.bookedDays ?? 1, getSettings(db, job.userId).nestingSeason) : null;
}

const visitText = (visit: JobBooking['siteVisit']) => (visit ? `${visit.date}T${visit.time}` : null);

/**
 * A protected tree's hold on the date (core/protection.ts protectionHold): 409 PROTECTION_NOTICE
 * with the earliest start and what is missing, unless the surgeon confirmed with a reason, which
 * is then kept on the job. Read inside the booking's transaction, so a record changed meanwhile counts.
 */
function checkProtection(tx: Db, now: Date, jobId: number, booking: JobBooking): void {
  const hold = bookingHold(tx, jobId);
  if (!refusesBooking(hold, booking.date)) return;
  if (booking.confirmProtection) {
    keepProtectionConfirmation(tx, now, jobId, booking.confirmProtection.reason);
    return;
  }
  throw new DomainError('PROTECTION_NOTICE', protectionNoticeMessage(hold), {
    details: { earliestStart: hold.earliestStart ? [hold.earliestStart] : [], missing: [...hold.missing] },
  });
}

/** What is saved: a booking (POST /book, a first one or again) or a move of a booked job (PATCH /booking, a postponed day). */
export type BookingRequest = { book: JobBooking } | { move: BookingMove };

/** The booking a move makes of the job as it stands: each field the move leaves out stays as it was. */
function movedBooking(before: JobRow, move: BookingMove): JobBooking {
  return {
    date: move.date ?? before.bookedFor!,
    startTime: move.startTime ?? before.bookedStart!,
    days: move.days ?? before.bookedDays ?? 1,
    siteVisit: siteVisitOf(before.siteVisitAt),
    note: before.bookingNote,
    crewId: move.crewId === undefined ? before.crewId : move.crewId,
    confirmProtection: move.confirmProtection ?? null,
  };
}

const past = (field: string) => new DomainError('VALIDATION_ERROR', BOOKING_MESSAGES.past, { details: { [field]: [BOOKING_MESSAGES.past] } });

/** Whether the customer's calendar changes: the first day, the start or the days. The crew is ours alone. */
const calendarChanges = (before: JobRow, booking: JobBooking) => booking.date !== before.bookedFor || booking.startTime !== before.bookedStart || booking.days !== (before.bookedDays ?? 1);

export interface SavedBooking {
  job: JobRow;
  before: JobRow;
  /** The booking as saved (a move's, with the fields it left out filled from the job). */
  booking: JobBooking;
  /** The dates or the start changed: the customer's calendar is sent again with SEQUENCE one higher. */
  calendarChanged: boolean;
}

/**
 * Stores a booking or a move; the job reads booked. The same refusals for both, read in one
 * immediate transaction: 409 unless the customer has accepted (a move: unless the job was booked),
 * for a done job, inside a consumer's cancellation period they did not ask to start in
 * (early-start.ts), or while a protected tree holds the date; 400 for a day already past; 404 for a
 * crew not of the team. A move that leaves the dates and the start as they were (a change of crew)
 * checks the crew only: the customer's booking is unchanged, so is its SEQUENCE.
 */
export function saveBooking(db: Db, now: Date, job: JobRow, request: BookingRequest, by: number | null = null): SavedBooking {
  const today = ukToday(now);
  if ('book' in request) {
    if (request.book.date < today) throw past('date');
    if (request.book.siteVisit && request.book.siteVisit.date < today) throw past('siteVisit.date');
  }
  return immediate(db, (tx) => {
    const before = reread(tx, job);
    let booking: JobBooking;
    if ('book' in request) {
      refuseUnlessBookable(before.status, BOOKING_MESSAGES.notAccepted);
      booking = request.book;
    } else {
      refuseUnlessBookable(before.status, SCHEDULE_MESSAGES.notBooked);
      if (before.bookedFor === null || before.bookedStart === null) throw new DomainError('CONFLICT', SCHEDULE_MESSAGES.notBooked);
      booking = movedBooking(before, request.move);
    }
    // A first booking or a booking again always sends the calendar; a move only when its dates change.
    const calendarChanged = 'book' in request || calendarChanges(before, booking);
    if ('move' in request && calendarChanged) {
      if (booking.date < today) throw past('date');
      // The visit stays; the work cannot move to or before it (booking again changes the visit).
      if (booking.siteVisit && `${booking.siteVisit.date}T${booking.siteVisit.time}` >= `${booking.date}T${booking.startTime}`) {
        throw new DomainError('VALIDATION_ERROR', BOOKING_MESSAGES.visitBeforeWork, { details: { date: [BOOKING_MESSAGES.visitBeforeWork] } });
      }
    }
    const crewId = booking.crewId === undefined ? before.crewId : booking.crewId;
    if (booking.crewId !== undefined && booking.crewId !== null) crewOfTeam(tx, before.userId, booking.crewId);
    if (calendarChanged) {
      // First: the surgeon cannot book past it with a reason, as they can past a protected tree's hold.
      refuseInsideCancellationPeriod(tx, job.id, booking.date);
      checkProtection(tx, now, job.id, booking);
    }
    const updated = tx
      .update(jobs)
      .set({
        status: 'booked',
        bookedFor: booking.date,
        bookedStart: booking.startTime,
        bookedDays: booking.days,
        siteVisitAt: visitText(booking.siteVisit),
        bookingNote: booking.note,
        crewId,
        ...(calendarChanged && {
          bookedAt: now,
          bookedBy: by,
          // The first booking is SEQUENCE 0; each change after it one more.
          bookingSequence: before.bookedFor === null ? 0 : before.bookingSequence + 1,
        }),
        updatedAt: now,
      })
      .where(eq(jobs.id, job.id))
      .returning()
      .get()!;
    return { job: updated, before, booking, calendarChanged };
  });
}

/** Why a move was made, when a postponed day made it: the reason's words and the surgeon's note go to the customer. */
export interface Postponement {
  reason: PostponeReason;
  note: string | null;
}

/**
 * Keeps a move of a booked job in booking_moves (docs/product.md, Schedule): a change of its dates,
 * start, days or crew, whoever made it. A first booking, or one saved as it was, is no move.
 */
function recordMove(db: Db, now: Date, saved: SavedBooking, by: number | null, notified: boolean, postponed: Postponement | null): void {
  const { before, job } = saved;
  if (before.bookedFor === null || before.bookedStart === null) return;
  if (!saved.calendarChanged && before.crewId === job.crewId) return;
  db.insert(bookingMoves)
    .values({
      jobId: job.id,
      accountId: job.userId,
      fromDate: before.bookedFor,
      toDate: job.bookedFor!,
      fromStart: before.bookedStart,
      toStart: job.bookedStart!,
      fromDays: before.bookedDays ?? 1,
      toDays: job.bookedDays ?? 1,
      fromCrewId: before.crewId,
      toCrewId: job.crewId,
      reason: postponed?.reason ?? null,
      note: postponed?.note ?? null,
      movedBy: by,
      movedAt: now,
      customerNotified: notified,
    })
    .run();
}

interface CalendarFacts {
  host: string;
  businessName: string;
  contact: string;
  work: string[];
  /** The nesting birds line, when it applies (core/protection.ts nestingCheck). */
  nestingCheck: string | null;
}

/** The calendar file of a booked job; `previousVisit` is a visit the booking before had and this one drops. */
export function bookingCalendar(job: JobRow, facts: CalendarFacts, previousVisit: string | null): string {
  const reference = jobReference(job.id);
  const summary = `Tree work: ${reference} — ${facts.businessName}`;
  const note = job.bookingNote ? [`Note: ${job.bookingNote}`] : [];
  const description = [`${facts.businessName}, quote ${reference}.`, ...(facts.work.length ? ['The work:', ...facts.work.map((w) => `- ${w}`)] : []), ...note, ...(facts.nestingCheck ? [facts.nestingCheck] : []), ...(facts.contact ? [`Contact: ${facts.contact}`] : [])].join('\n');
  const events: CalendarEvent[] = [
    {
      uid: `job-${job.id}@${facts.host}`,
      date: job.bookedFor!,
      startTime: job.bookedStart!,
      minutes: WORKING_DAY_MINUTES,
      days: job.bookedDays ?? 1,
      summary,
      location: job.siteAddress,
      description,
    },
  ];
  const visit = siteVisitOf(job.siteVisitAt) ?? siteVisitOf(previousVisit);
  if (visit) {
    events.push({
      uid: `job-${job.id}-visit@${facts.host}`,
      date: visit.date,
      startTime: visit.time,
      minutes: VISIT_MINUTES,
      days: 1,
      summary: `Site visit: ${reference} — ${facts.businessName}`,
      location: job.siteAddress,
      description: [`${facts.businessName} visits the site before the work on ${formatBookingDate(job.bookedFor!, 'long')}.`, ...(facts.contact ? [`Contact: ${facts.contact}`] : [])].join('\n'),
      cancelled: job.siteVisitAt === null,
    });
  }
  return buildCalendar({ stamp: job.bookedAt!, sequence: job.bookingSequence, events });
}

function hostOf(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** What a booking or a move answers: the job, whether the customer was e-mailed, and the nesting birds line. */
export interface BookingAnswer {
  job: JobRow;
  emailed: boolean;
  nestingCheck: string | null;
}

/**
 * Books the job and e-mails the customer (the job's e-mail, else the address the accepted quote
 * went to) the booking with its calendar file, in the background. `emailed` is false when there
 * is no address to send to: the booking stands, the surgeon tells the customer another way.
 * `by`: the person booking it (jobs.booked_by).
 */
export function bookJob(deps: BookingDeps, job: JobRow, booking: JobBooking, by: number | null = null): BookingAnswer {
  // The booking and its e-mail's outbox row in one transaction (saveBooking's own is then a savepoint).
  return immediate(deps.db, () => saveAndTell(deps, job, { book: booking }, by, true, null));
}

/**
 * Moves a booked job as one block (PATCH /api/jobs/{id}/booking): its first day, start, days or
 * crew, each left out staying as it was, with the refusals of booking. When the dates or the start
 * change the calendar's SEQUENCE goes one higher, and unless `notifyCustomer` is false the
 * customer is e-mailed the old and new dates with the calendar file; a change of crew alone tells
 * the customer nothing. The move is kept in booking_moves. `by`: the person moving it.
 */
export function moveBooking(deps: BookingDeps, job: JobRow, move: BookingMove, by: number | null = null): BookingAnswer {
  return immediate(deps.db, () => moveAndTell(deps, job, move, by, null));
}

/** A move inside the caller's transaction (a postponed day moves all its bookings in one), with the reason when a postponed day made it. */
export function moveAndTell(deps: BookingDeps, job: JobRow, move: BookingMove, by: number | null, postponed: Postponement | null): BookingAnswer {
  return saveAndTell(deps, job, { move }, by, move.notifyCustomer, postponed);
}

function saveAndTell(deps: BookingDeps, job: JobRow, request: BookingRequest, by: number | null, notify: boolean, postponed: Postponement | null): BookingAnswer {
  const now = deps.clock.now();
  const saved = saveBooking(deps.db, now, job, request, by);
  const { job: booked, before, booking } = saved;
  const quote = accepted(deps.db, job.id);
  const work = agreedWork(deps.db, job.id, quote);
  const nesting = nestingCheck(work, booking.date, booking.days, getSettings(deps.db, job.userId).nestingSeason);
  const to = booked.customerEmail ?? quote?.content.customer.email ?? null;
  const emailed = notify && saved.calendarChanged && to !== null;
  recordMove(deps.db, now, saved, by, emailed, postponed);
  if (!emailed) return { job: booked, emailed: false, nestingCheck: nesting };
  const profile = getCompanyProfile(deps.db, job.userId);
  const business = quote?.content.business ?? { name: profile.tradingName, phone: profile.phone, email: profile.email };
  const businessName = business.name || 'Your tree surgeon';
  const contact = [business.phone, business.email].filter(Boolean).join(', ');
  const calendar = bookingCalendar(booked, { host: hostOf(deps.config.publicUrl), businessName, contact, work, nestingCheck: nesting }, before.siteVisitAt);
  const was: BookingDates | null = 'move' in request ? { date: before.bookedFor!, startTime: before.bookedStart!, days: before.bookedDays ?? 1 } : null;
  const mail = bookingEmail({
    to: to!,
    customerName: booked.customerName,
    jobId: booked.id,
    business: { name: businessName, phone: business.phone || null, email: business.email || null },
    siteAddress: booked.siteAddress,
    booking,
    rebooked: before.bookedFor !== null,
    moved: was ? { was, reason: postponed ? POSTPONE_REASON_WORDS[postponed.reason] : null, note: postponed?.note ?? null } : null,
    calendar,
    arrival: deps.arrivalWindow?.(deps.db, now, job.userId, booked) ?? null,
  });
  queueMail(deps, fromBusiness(deps, job.userId, { name: businessName, email: business.email }, mail), { label: `booking ${jobReference(job.id)}`, userId: job.userId });
  return { job: booked, emailed: true, nestingCheck: nesting };
}

/**
 * The job is done: each tree's actual times (whole minutes, each optional) go to its analysis's
 * feedback and the calibration totals, and the job reads done, all in one transaction. An item
 * not of this job is a 404, a typed line a 400, and nothing is stored; a tree whose analysis was
 * deleted is skipped.
 */
/**
 * Each tree's actual times to its analysis's feedback and the calibration totals, inside the
 * caller's transaction (Mark as done, and the owner's correction of a done job's times). The trees
 * are the accepted version's (the job's record), not the draft's; an item not of this job is a
 * 404, a typed line a 400, and nothing is stored; a tree whose analysis was deleted is skipped.
 */
export function saveActuals(tx: Db, job: Pick<JobRow, 'id' | 'userId'>, actuals: JobActuals): void {
  const items = new Map((accepted(tx, job.id)?.content.items ?? itemsOf(tx, [job.id])).map((item) => [item.id, item]));
  for (const actual of actuals) {
    const item = items.get(actual.itemId);
    if (!item) throw new DomainError('NOT_FOUND', 'Item not found');
    if (item.kind !== 'tree') throw new DomainError('VALIDATION_ERROR', BOOKING_MESSAGES.lineItem, { details: { actuals: [BOOKING_MESSAGES.lineItem] } });
  }
  for (const actual of actuals) {
    const analysisId = items.get(actual.itemId)!.analysisId;
    const times = { actualCuttingTime: actual.cuttingTime, actualPrepTime: actual.prepTime, actualCleanupTime: actual.cleanupTime };
    if (analysisId === null || Object.values(times).every((v) => v === undefined)) continue;
    // A nested transaction (a savepoint): the times and the totals go with the change or not at all.
    saveFeedback(tx, job.userId, analysisId, times);
  }
}

/** `by`: the person marking it done (jobs.done_by). */
export function markJobDone(db: Db, now: Date, job: JobRow, actuals: JobActuals, by: number | null = null): JobRow {
  return immediate(db, (tx) => {
    const current = reread(tx, job);
    refuseUnlessBookable(current.status, BOOKING_MESSAGES.notDoneYet);
    saveActuals(tx, job, actuals);
    return tx.update(jobs).set({ status: 'done', doneAt: now, doneBy: by, updatedAt: now }).where(eq(jobs.id, job.id)).returning().get()!;
  });
}
