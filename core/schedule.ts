import { z } from 'zod';
import { BOOKING_MESSAGES, calendarDateParts, clockMinutes, confirmProtectionSchema, formatBookingDate } from './job-booking';

/*
 * The crews' week (docs/product.md, Schedule): the bodies and answers of GET /api/schedule,
 * PATCH /api/jobs/{id}/booking and POST /api/schedule/postpone, shared by the server, the board
 * (dashboard/pages/schedule) and the tests. Dates are UK calendar days "YYYY-MM-DD" and times UK
 * wall clock "HH:MM", as bookings are kept (core/job-booking.ts).
 */

export const SCHEDULE_LIMITS = { days: { min: 1, max: 42, default: 7 }, postponeNote: 500, postponeSearchDays: 366 } as const;

export const SCHEDULE_MESSAGES = {
  from: 'Give from as a real date, YYYY-MM-DD, for example 2026-12-07',
  days: `days is a whole number from ${SCHEDULE_LIMITS.days.min} to ${SCHEDULE_LIMITS.days.max}`,
  date: 'Enter a real date as YYYY-MM-DD, for example 2026-12-08',
  time: 'Enter a time as HH:MM on the 24-hour clock, for example 08:00',
  bookingDays: 'Days must be a whole number from 1 to 30',
  crewId: BOOKING_MESSAGES.crewId,
  nothingToMove: 'Send date, startTime, days or crewId to move the booking',
  notBooked: 'This job is not booked yet: book it first.',
  crewNotFound: 'That crew is not in your team.',
  reason: 'Choose why the day is postponed: rain, wind, illness, equipment or other',
  note: `The note must be at most ${SCHEDULE_LIMITS.postponeNote} characters`,
  noRoom: 'No working day with room was found in the next year for one of these bookings; move it by hand.',
} as const;

const dateText = (message: string) =>
  z
    .string(message)
    .trim()
    .refine((v) => calendarDateParts(v) !== null, message);

/** GET /api/schedule?from=YYYY-MM-DD&days=N (query strings, so numbers come as text). */
export const scheduleQuerySchema = z.object({
  from: dateText(SCHEDULE_MESSAGES.from),
  days: z.coerce
    .number(SCHEDULE_MESSAGES.days)
    .int(SCHEDULE_MESSAGES.days)
    .min(SCHEDULE_LIMITS.days.min, SCHEDULE_MESSAGES.days)
    .max(SCHEDULE_LIMITS.days.max, SCHEDULE_MESSAGES.days)
    .default(SCHEDULE_LIMITS.days.default),
});
export type ScheduleQuery = z.output<typeof scheduleQuerySchema>;

/** A range of minutes, low and high end, as the estimates give them. */
export const minutesRangeSchema = z.object({ min: z.number().int(), max: z.number().int() });
export type MinutesRange = z.infer<typeof minutesRangeSchema>;

/**
 * What holds a job back from a date: a protected tree's notice or consent (core/protection.ts),
 * or the consumer's cancellation period (core/cancellation-period.ts). `until` is the first day
 * the work may start, or null while it waits on something with no date (a TPO's consent).
 */
export const HOLD_KINDS = ['protection', 'cancellation_period'] as const;
export const scheduleHoldSchema = z.object({
  kind: z.enum(HOLD_KINDS),
  until: z.string().nullable(),
  /** The sentence the refusal gives, for the board's tooltip and the drop's refusal. */
  sentence: z.string(),
});
export type ScheduleHold = z.infer<typeof scheduleHoldSchema>;

/** Deposit asked and paid, asked and not yet paid, or none asked. */
export const DEPOSIT_STATES = ['paid', 'unpaid', 'none'] as const;
export type DepositState = (typeof DEPOSIT_STATES)[number];

/** One day of one booking on the board (a three-day job appears on three days, day 1, 2 and 3). */
export const scheduleBookingSchema = z.object({
  jobId: z.number().int(),
  /** "Q-000123" */
  reference: z.string(),
  customerName: z.string(),
  postcode: z.string().nullable(),
  siteAddress: z.string(),
  crewId: z.number().int().nullable(),
  /** The day on the board, and the booking's first day, start and length. */
  date: z.string(),
  firstDay: z.string(),
  startTime: z.string(),
  dayNumber: z.number().int(),
  days: z.number().int(),
  /** "day 2 of 3", or null for a one-day job. */
  dayLabel: z.string().nullable(),
  /** The crew-minutes this day of the job is estimated to take (the trees' time ranges and the typed lines), split evenly over its days. */
  estimatedMinutes: minutesRangeSchema,
  deposit: z.enum(DEPOSIT_STATES),
  holds: z.array(scheduleHoldSchema),
  /** For the second or later job of a crew's day: when the crew should arrive ("11:00" to "12:30"). */
  arrivalWindow: z.object({ from: z.string(), to: z.string() }).nullable(),
});
export type ScheduleBooking = z.infer<typeof scheduleBookingSchema>;

/** Why a day is not a working day, for the board's column head. */
export const DAY_KINDS = ['working', 'weekend', 'day_off', 'bank_holiday'] as const;
export type DayKind = (typeof DAY_KINDS)[number];

export const scheduleDateSchema = z.object({
  date: z.string(),
  kind: z.enum(DAY_KINDS),
  /** "Christmas Day" for a bank holiday; null otherwise. */
  name: z.string().nullable(),
  today: z.boolean(),
});

/** A day's forecast at the crew's sites during working hours (MET Norway; docs/operations.md, WEATHER_URL). */
export const dayWeatherSchema = z.object({
  /** The highest gust forecast at any of the day's sites during working hours, m/s. */
  gustMs: z.number(),
  /** Rain forecast over the working hours, mm. */
  rainMm: z.number(),
  /** "Gusts to 15 m/s (34 mph) forecast; your MEWP's limit is 12.5 m/s" when the gusts pass the lowest limit of the crew's kit and the climbing limit. */
  warning: z.string().optional(),
});
export type DayWeather = z.infer<typeof dayWeatherSchema>;

export const crewDaySchema = z.object({
  date: z.string(),
  bookings: z.array(scheduleBookingSchema),
  plannedMinutes: minutesRangeSchema,
  /** The crew's members × its day hours, in minutes; 0 on a day nobody works. */
  capacityMinutes: z.number().int(),
  /** The low end of the planned minutes passes the capacity. */
  over: z.boolean(),
  /** The chance (0 to 1) the day's work runs past the crew's day, from the ranges and the crew's past actual times; null with no bookings. */
  overrunChance: z.number().nullable(),
  weather: dayWeatherSchema.optional(),
});
export type CrewDay = z.infer<typeof crewDaySchema>;

export const scheduleCrewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  colour: z.string().nullable(),
  days: z.array(crewDaySchema),
});

/** An accepted job not booked yet, with the first day it may start and its deposit. */
export const waitingJobSchema = z.object({
  jobId: z.number().int(),
  reference: z.string(),
  customerName: z.string(),
  postcode: z.string().nullable(),
  siteAddress: z.string(),
  acceptedAt: z.string(),
  /** The first day the work may start (holds and the cancellation period), from today on. */
  earliestStart: z.string(),
  holds: z.array(scheduleHoldSchema),
  deposit: z.enum(DEPOSIT_STATES),
  estimatedMinutes: minutesRangeSchema,
});
export type WaitingJob = z.infer<typeof waitingJobSchema>;

export const scheduleSchema = z.object({
  from: z.string(),
  days: z.number().int(),
  dates: z.array(scheduleDateSchema),
  crews: z.array(scheduleCrewSchema),
  /** Bookings with no crew, by day (the board's "Unassigned" row). */
  unassigned: z.array(z.object({ date: z.string(), bookings: z.array(scheduleBookingSchema) })),
  waiting: z.array(waitingJobSchema),
  /** "Weather forecast based on data from MET Norway, CC BY 4.0" (core/weather.ts) when any day carries weather; the board shows it. */
  weatherCredit: z.string().nullable(),
});
export type Schedule = z.infer<typeof scheduleSchema>;
export const scheduleResponseSchema = z.object({ schedule: scheduleSchema });

/**
 * PATCH /api/jobs/{id}/booking: moves a booked job as one block. Any of date, start, days, crew
 * (null takes it off its crew); the customer is e-mailed the old and new dates with the calendar
 * file unless `notifyCustomer: false`.
 */
export const bookingMoveSchema = z
  .object({
    date: dateText(SCHEDULE_MESSAGES.date).optional(),
    startTime: z
      .string(SCHEDULE_MESSAGES.time)
      .trim()
      .refine((v) => clockMinutes(v) !== null, SCHEDULE_MESSAGES.time)
      .optional(),
    days: z.number(SCHEDULE_MESSAGES.bookingDays).int(SCHEDULE_MESSAGES.bookingDays).min(1, SCHEDULE_MESSAGES.bookingDays).max(30, SCHEDULE_MESSAGES.bookingDays).optional(),
    crewId: z.number(SCHEDULE_MESSAGES.crewId).int(SCHEDULE_MESSAGES.crewId).positive(SCHEDULE_MESSAGES.crewId).nullable().optional(),
    notifyCustomer: z.boolean().default(true),
    confirmProtection: confirmProtectionSchema.nullable().optional(),
  })
  .refine((v) => v.date !== undefined || v.startTime !== undefined || v.days !== undefined || v.crewId !== undefined, { message: SCHEDULE_MESSAGES.nothingToMove });
export type BookingMoveInput = z.input<typeof bookingMoveSchema>;
export type BookingMove = z.output<typeof bookingMoveSchema>;

/** Why a day is postponed, and how the customer's e-mail says it. */
export const POSTPONE_REASONS = ['rain', 'wind', 'illness', 'equipment', 'other'] as const;
export type PostponeReason = (typeof POSTPONE_REASONS)[number];
export const POSTPONE_REASON_WORDS: Record<PostponeReason, string> = {
  rain: 'heavy rain is forecast, and the ground and the trees would not be safe to work on',
  wind: 'strong winds are forecast, and it would not be safe to work at height',
  illness: 'one of our crew is unwell',
  equipment: 'a piece of our equipment is out of action',
  other: 'we cannot come on that day',
};

/** POST /api/schedule/postpone: every booking of the crew's day (or of every crew's) to that crew's next working day with room. */
export const postponeSchema = z.object({
  date: dateText(SCHEDULE_MESSAGES.date),
  crewId: z.number(SCHEDULE_MESSAGES.crewId).int(SCHEDULE_MESSAGES.crewId).positive(SCHEDULE_MESSAGES.crewId).nullable().optional(),
  reason: z.enum(POSTPONE_REASONS, { error: SCHEDULE_MESSAGES.reason }),
  note: z.string(SCHEDULE_MESSAGES.note).trim().max(SCHEDULE_LIMITS.postponeNote, SCHEDULE_MESSAGES.note).optional(),
});
export type PostponeInput = z.input<typeof postponeSchema>;
export const postponeResponseSchema = z.object({
  moved: z.array(z.object({ jobId: z.number().int(), from: z.string(), to: z.string() })),
  /**
   * Jobs of more than one day already under way that day (begun before it): a booking's days are
   * consecutive, so they stay, each with a sentence saying so, for the surgeon to move by hand.
   */
  kept: z.array(z.object({ jobId: z.number().int(), reference: z.string(), firstDay: z.string(), sentence: z.string() })),
});

/** The sentence for a job under way on a postponed day (postponeResponseSchema `kept`). */
export function keptWords(reference: string, firstDay: string, lastDay: string): string {
  return `${reference} began on ${formatBookingDate(firstDay, 'none')} and runs to ${formatBookingDate(lastDay, 'none')}: it stays as booked. Move it by hand if that day's work is lost.`;
}

/** GET /api/my-days?from=&days=: from today for a week unless asked (the crew's own days). */
export const myDaysQuerySchema = z.object({
  from: dateText(SCHEDULE_MESSAGES.from).optional(),
  days: scheduleQuerySchema.shape.days,
});
export type MyDaysQuery = z.output<typeof myDaysQuerySchema>;

/** A booking as a crew member reads it: the schedule's, with nothing about money (no deposit state either). */
export const myDayBookingSchema = scheduleBookingSchema.omit({ deposit: true });
export type MyDayBooking = z.infer<typeof myDayBookingSchema>;

/** The bookings of the crews the signed-in person is in, by day; another crew's never appear. */
export const myDaysResponseSchema = z.object({ days: z.array(z.object({ date: z.string(), bookings: z.array(myDayBookingSchema) })) });
export type MyDays = z.infer<typeof myDaysResponseSchema>;
