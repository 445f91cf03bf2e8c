import { addDays, formatBookingDate, type JobBooking } from '../../core/job-booking';
import { plainLine } from '../../core/plain-text';
import { jobReference } from '../../core/jobs';
import type { MailMessage } from './mailer';

/**
 * To the customer: their tree work is booked (docs/product.md, Jobs and quotes, Booking and done),
 * with the dates, the site visit, the note and how to reach the business, and the calendar file
 * (server/jobs/ics.ts) attached. A changed booking says it replaces the one before.
 */
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const paragraphs = (lines: string[]) => lines.map((line) => `<p style="white-space:pre-line">${escape(line)}</p>`).join('\n');

export interface BookingEmailInput {
  to: string;
  customerName: string;
  jobId: number;
  business: { name: string; phone: string | null; email: string | null };
  siteAddress: string | null;
  booking: JobBooking;
  /** A changed date: the e-mail says so. */
  rebooked: boolean;
  /**
   * A move of the booking (PATCH /api/jobs/{id}/booking, a postponed day): the dates it had, which
   * the e-mail names beside the new ones, and a postponed day's reason in words and note.
   */
  moved?: { was: BookingDates; reason: string | null; note: string | null } | null;
  /** The .ics text. */
  calendar: string;
  /**
   * For the second or a later job of the crew's first day: when the crew should arrive, from the
   * earlier jobs' estimates (core/arrival-window.ts), said instead of the crew's start.
   */
  arrival?: { from: string; to: string } | null;
}

/** A booking's dates: its first day, start and how many days. */
export type BookingDates = Pick<JobBooking, 'date' | 'startTime' | 'days'>;

/**
 * "Fri 4 December 2026", or a span "Fri 4 December 2026 to Sun 6 December 2026" for more days;
 * with the start when `withStart` ("…, from 08:00").
 */
export function bookingSpan(dates: BookingDates, withStart = false): string {
  const first = formatBookingDate(dates.date);
  const span = dates.days === 1 ? first : `${first} to ${formatBookingDate(addDays(dates.date, dates.days - 1))}`;
  return withStart ? `${span}, from ${dates.startTime}` : span;
}

/** "was Fri 4 December 2026, now Mon 7 December 2026", the start named too when it changed. */
export function movedWords(was: BookingDates, now: BookingDates): string {
  const withStart = was.startTime !== now.startTime;
  return `was ${bookingSpan(was, withStart)}, now ${bookingSpan(now, withStart)}`;
}

/** booking-Q-000012.ics */
export const bookingFilename = (jobId: number) => `booking-${jobReference(jobId)}.ics`;

/**
 * "Tuesday 8 December 2026 at 08:00", or with more days "for 3 days, Tuesday 8 to Thursday 10
 * December 2026, from 08:00 each day"; with an arrival window, "Tuesday 8 December 2026, arriving
 * between 11:00 and 12:30" (the crew comes from an earlier job that day).
 */
export function bookingWhen(booking: Pick<JobBooking, 'date' | 'startTime' | 'days'>, arrival: { from: string; to: string } | null = null): string {
  const between = arrival ? `arriving between ${arrival.from} and ${arrival.to}` : null;
  if (booking.days === 1) return between ? `${formatBookingDate(booking.date, 'long')}, ${between} (we come from an earlier job that day)` : `${formatBookingDate(booking.date, 'long')} at ${booking.startTime}`;
  const last = addDays(booking.date, booking.days - 1);
  const span = `${booking.days} days, from ${formatBookingDate(booking.date, 'long')} to ${formatBookingDate(last, 'long')}`;
  return between ? `${span}, ${between} on the first day (we come from an earlier job) and starting at ${booking.startTime} each day after` : `${span}, starting at ${booking.startTime} each day`;
}

export function bookingEmail(input: BookingEmailInput): MailMessage {
  const name = plainLine(input.business.name) || 'Your tree surgeon';
  const reference = jobReference(input.jobId);
  const { booking } = input;
  const contact = [input.business.phone ? `phone ${input.business.phone}` : null, input.business.email ? `e-mail ${input.business.email}` : null].filter(Boolean).join(' or ');
  const lines = [
    `Hello ${plainLine(input.customerName)},`,
    input.moved
      ? `${name} has moved your tree work (quote ${reference}): ${movedWords(input.moved.was, booking)}. This replaces the booking sent before.`
      : input.rebooked
        ? `${name} has changed the date of your tree work (quote ${reference}). This replaces the booking sent before.`
        : `${name} has booked your tree work (quote ${reference}).`,
    ...(input.moved?.reason ? [`We are sorry: we have had to move it because ${input.moved.reason}.`] : []),
    ...(input.moved?.note ? [`${name} adds:\n${input.moved.note}`] : []),
    `When: ${bookingWhen(booking, input.arrival ?? null)}.`,
    ...(input.siteAddress ? [`Where: ${input.siteAddress.replace(/\n/g, ', ')}.`] : []),
    ...(booking.siteVisit ? [`Site visit first: ${formatBookingDate(booking.siteVisit.date, 'long')} at ${booking.siteVisit.time}.`] : []),
    ...(booking.note ? [`A note from ${name}:\n${booking.note}`] : []),
    'The calendar file attached adds the booking to your calendar (times are UK time).',
    contact ? `To change the date or ask anything, contact ${name}: ${contact}.` : `To change the date or ask anything, reply to ${name}.`,
  ];
  return {
    to: input.to,
    subject: input.rebooked ? `New date for your tree work: ${formatBookingDate(booking.date)} (${reference})` : `Your tree work is booked: ${formatBookingDate(booking.date)} (${reference})`,
    text: lines.join('\n\n'),
    html: paragraphs(lines),
    attachments: [{ filename: bookingFilename(input.jobId), content: input.calendar, contentType: 'text/calendar; charset=utf-8; method=PUBLISH' }],
  };
}
