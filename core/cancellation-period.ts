import { z } from 'zod';
import { CANCELLATION_DAYS, cancellationLastDay } from './consumer-rights';
import { addDays, formatBookingDate, ukToday } from './job-booking';
import { plainLine } from './plain-text';

/**
 * No work inside a consumer's cancellation period unless they asked (docs/product.md, Jobs and
 * quotes: the cancellation period and early starts). The Consumer Contracts Regulations 2013 give
 * a consumer 14 days after accepting to cancel (regulation 30); the trader may begin the service
 * inside them only at the consumer's express request, made on a durable medium for an off-premises
 * contract (regulation 36(1) and (2)), and a consumer who then cancels pays for what was done in
 * proportion to the whole (regulation 36(4); Schedule 3, Part A's model instructions). Without
 * that request, a consumer who cancels after work began owes nothing for it (regulation 36(6)).
 *
 * So a booking's first day must be after the period, unless the customer asked for an early start:
 * by the tick when they accepted, or later on their quote page when the surgeon asked them. Dates
 * are UK calendar days (Europe/London), as the booking's are (core/job-booking.ts).
 */

/** A consumer's cancellation period: its last UK day, and the first UK day after it. */
export interface CancellationPeriod {
  lastDay: string;
  firstDay: string;
}

/** The period of a consumer who accepted at `acceptedAt` (the acceptance's UK day, plus 14 days). */
export function cancellationPeriodOf(acceptedAt: Date): CancellationPeriod {
  const lastDay = cancellationLastDay(ukToday(acceptedAt));
  return { lastDay, firstDay: addDays(lastDay, 1) };
}

/**
 * Whether work starting on `date` would begin inside the period without the customer's request:
 * `period` null is a trade quote (no right to cancel); `earlyStartAsked` is the customer's request.
 */
export function startsInsideCancellationPeriod(period: CancellationPeriod | null, earlyStartAsked: boolean, date: string): boolean {
  return period !== null && !earlyStartAsked && date < period.firstDay;
}

/** The 409 CANCELLATION_PERIOD's sentence. */
export function cancellationPeriodMessage(period: CancellationPeriod): string {
  return `The customer's ${CANCELLATION_DAYS}-day cancellation period ends on ${formatBookingDate(period.lastDay, 'long')}; book from ${formatBookingDate(period.firstDay, 'long')}, or ask the customer whether they want the work to start sooner.`;
}

/**
 * The customer's express request to start early, as their quote page words it and the e-mails
 * keep it: the request (regulation 36(1)(a)), what they pay if they cancel (Schedule 3, Part A:
 * "an amount which is in proportion to what has been provided until you have communicated us your
 * cancellation from this contract, in comparison with the full coverage of the contract"), and
 * that the right ends once the work is complete (regulation 36(6)(c)), in plain English.
 */
export const EARLY_START_REQUEST_WORDS = [
  'I expressly request that the work begins during my 14-day cancellation period.',
  'I understand that if I cancel after the work has begun, I must pay for the work done up to the time I tell you I am cancelling, in proportion to the whole of the work agreed.',
  'I understand that once the work is complete, I can no longer cancel.',
] as const;

/** The request as one text, kept with the evidence. */
export const EARLY_START_REQUEST_TEXT = EARLY_START_REQUEST_WORDS.join(' ');

const NAME = 'Type your full name';

/** POST /quote/{token}/start-early: the customer's name typed and the tick. */
export const earlyStartRequestSchema = z.object({
  name: z.string(NAME).overwrite(plainLine).min(2, NAME).max(100, 'Your name must be at most 100 characters'),
  confirm: z.literal(true, 'Please tick to confirm you want the work to start early'),
});

/** Why an early start cannot be asked for or requested now. */
export const EARLY_START_MESSAGES = {
  notAccepted: 'Only an accepted quote that is not done or cancelled has a cancellation period to start inside.',
  notConsumer: 'This quote was made to a business customer: it has no cancellation period, so the work can be booked for any day.',
  periodOver: (period: CancellationPeriod) => `The cancellation period ended on ${formatBookingDate(period.lastDay, 'long')}: the work can be booked for any day from today.`,
  alreadyRequested: (on: string) => `The customer already asked for the work to start early, on ${formatBookingDate(on, 'long')}.`,
  noAddress: "Add the customer's e-mail address to ask them.",
  notAsked: 'The business has not asked whether you want the work to start early. Please contact them.',
  requested: (on: string) => `You asked for the work to start within your 14-day cancellation period on ${formatBookingDate(on, 'long')}.`,
} as const;

/** What a job's booking is held to, as the job page shows it (core/jobs.ts `cancellationPeriod`). */
export interface JobCancellationPeriod extends CancellationPeriod {
  /** When the customer asked for an early start: at acceptance or later from their page (ISO). */
  earlyStartRequestedAt: string | null;
  /** When the surgeon last asked them (ISO), if they did. */
  earlyStartAskedAt: string | null;
}

/**
 * The job page's line: which applies on `today` (UK day), or null once the period is over and
 * nothing was asked.
 */
export function cancellationPeriodLine(period: JobCancellationPeriod, today: string): string | null {
  if (period.earlyStartRequestedAt) return `The customer asked to start early on ${formatBookingDate(ukToday(new Date(period.earlyStartRequestedAt)), 'long')}.`;
  if (today > period.lastDay) return null;
  if (period.earlyStartAskedAt) return `Early start asked ${formatBookingDate(ukToday(new Date(period.earlyStartAskedAt)), 'long')}, waiting for the customer.`;
  return `Cancellation period until ${formatBookingDate(period.lastDay, 'long')}: booking from ${formatBookingDate(period.firstDay, 'long')}.`;
}
