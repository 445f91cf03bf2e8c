import { z } from 'zod';
import { plainText } from './plain-text';
import { jobSchema } from './jobs';
import { calendarDateParts } from './booking-dates';

export { calendarDateParts, formatBookingDate, ukToday } from './booking-dates';

/**
 * Booking an accepted job and marking it done (docs/product.md, Jobs and quotes, Booking and
 * done): the bodies of POST /api/jobs/{id}/book and /done, their messages, and the date words the
 * e-mail, the calendar file and the dashboard share.
 *
 * Dates and times are the UK's wall clock (Europe/London), as the surgeon and the customer read
 * them: "2026-12-08" at "08:00" means 8 a.m. in the garden, GMT or BST by the season. They are
 * kept as that text, never as an instant, so a clock change cannot move a booking, and the
 * calendar file carries them with TZID=Europe/London (server/jobs/ics.ts).
 */

export const BOOKING_LIMITS = { days: 30, note: 500 } as const;
export const BOOKING_DEFAULT_START = '08:00';

export const BOOKING_MESSAGES = {
  notAccepted: 'The customer has not accepted this quote yet, so it cannot be booked.',
  alreadyDone: 'This job is already done.',
  notDoneYet: 'Only an accepted or booked job can be marked done.',
  date: 'Enter a real date as YYYY-MM-DD, for example 2026-12-08',
  time: 'Enter a time as HH:MM on the 24-hour clock, for example 08:00',
  days: `Days must be a whole number from 1 to ${BOOKING_LIMITS.days}`,
  note: `The note must be at most ${BOOKING_LIMITS.note} characters`,
  visitBeforeWork: 'The site visit must be before the work starts.',
  past: 'Choose a date from today on.',
  lineItem: 'Actual times are for trees; this item is a typed line.',
  itemTwice: 'Give each tree its times once.',
  minutes: 'Times are whole minutes from 0 to 100000',
  crewId: 'Choose a crew from your team, or null for no crew',
} as const;

const TIME_TEXT = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "08:00" as minutes after midnight, when it is a 24-hour clock time. */
export function clockMinutes(text: string): number | null {
  const match = TIME_TEXT.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** The date `days` after a real date, as "YYYY-MM-DD" (calendar days: a clock change does not matter). */
export function addDays(date: string, days: number): string {
  const parts = calendarDateParts(date);
  if (!parts) throw new Error(`not a date: ${date}`);
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day + days)).toISOString().slice(0, 10);
}

const dateText = z.string(BOOKING_MESSAGES.date).trim().refine((v) => calendarDateParts(v) !== null, BOOKING_MESSAGES.date);
const timeText = z.string(BOOKING_MESSAGES.time).trim().refine((v) => clockMinutes(v) !== null, BOOKING_MESSAGES.time);

const PROTECTION_REASON = 'Say why the work goes ahead (at most 500 characters)';

/** The booking body's `confirmProtection`: the surgeon goes ahead before a protected tree's earliest start, and says why. */
export const confirmProtectionSchema = z.object({
  reason: z.string(PROTECTION_REASON).overwrite(plainText).trim().min(1, PROTECTION_REASON).max(500, PROTECTION_REASON),
});

/** POST /api/jobs/{id}/book. */
export const jobBookSchema = z
  .object({
    /** The first day of the work, UK calendar. */
    date: dateText,
    /** When the crew arrives, UK wall clock. */
    startTime: timeText.default(BOOKING_DEFAULT_START),
    /** How many days in a row the work takes. */
    days: z.number(BOOKING_MESSAGES.days).int(BOOKING_MESSAGES.days).min(1, BOOKING_MESSAGES.days).max(BOOKING_LIMITS.days, BOOKING_MESSAGES.days).default(1),
    /** A visit to the site before the work, if one is wanted. */
    siteVisit: z
      .object({ date: dateText, time: timeText })
      .nullable()
      .optional()
      .transform((v) => v ?? null),
    /** For the customer: what to expect, what to move out of the way. */
    note: z
      .string()
      .overwrite(plainText)
      .trim()
      .max(BOOKING_LIMITS.note, BOOKING_MESSAGES.note)
      .nullable()
      .optional()
      .transform((v) => (v ? v : null)),
    /**
     * The crew the work is booked on (docs/product.md, Schedule): one of the team's crews, null for
     * none (the board's Unassigned row). Left out, a booking keeps the crew it had (none at first).
     */
    crewId: z.number(BOOKING_MESSAGES.crewId).int(BOOKING_MESSAGES.crewId).positive(BOOKING_MESSAGES.crewId).nullable().optional(),
    /**
     * Booking before a protected tree's earliest start, or while consent or a notice is missing
     * (core/protection.ts), goes ahead only with the surgeon's reason, which is kept on the job.
     */
    confirmProtection: confirmProtectionSchema
      .nullable()
      .optional()
      .transform((v) => v ?? null),
  })
  .superRefine((v, ctx) => {
    // Text of the same shape compares in time order.
    if (v.siteVisit && `${v.siteVisit.date}T${v.siteVisit.time}` >= `${v.date}T${v.startTime}`) {
      ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.visitBeforeWork, path: ['siteVisit', 'date'] });
    }
  });
export type JobBookInput = z.input<typeof jobBookSchema>;
export type JobBooking = z.output<typeof jobBookSchema>;

const minutes = z.number(BOOKING_MESSAGES.minutes).int(BOOKING_MESSAGES.minutes).min(0, BOOKING_MESSAGES.minutes).max(100_000, BOOKING_MESSAGES.minutes).optional();

/**
 * POST /api/jobs/{id}/done: what each tree really took, in whole minutes with the bounds of the
 * analysis feedback (core/analysis.ts feedbackSchema). Every time is optional: a surgeon may not
 * know them, and a tree left out keeps the times it had.
 */
export const jobDoneSchema = z.object({
  actuals: z
    .array(
      z.object({
        itemId: z.number().int().positive(),
        cuttingTime: minutes,
        prepTime: minutes,
        cleanupTime: minutes,
      }),
    )
    .max(50)
    .default([])
    .refine((list) => new Set(list.map((a) => a.itemId)).size === list.length, BOOKING_MESSAGES.itemTwice),
});
export type JobDoneInput = z.input<typeof jobDoneSchema>;
export type JobActuals = z.output<typeof jobDoneSchema>['actuals'];

/** A stored site visit, "YYYY-MM-DDTHH:MM", as the API shows it. */
export function siteVisitOf(text: string | null): { date: string; time: string } | null {
  if (!text) return null;
  const [date, time] = text.split('T');
  return date && time ? { date, time } : null;
}

/** The answer to POST /api/jobs/{id}/book: the job, and whether the customer was e-mailed (false with no address). */
export const jobBookResponseSchema = z.object({
  job: jobSchema,
  emailed: z.boolean(),
  /** "Check for nesting birds before starting" when felling, reductions or hedge work fall in the nesting season (core/protection.ts). */
  nestingCheck: z.string().nullable(),
});
