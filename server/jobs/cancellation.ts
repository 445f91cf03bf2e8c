import { eq } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import type { CancellationVia } from '../../core/jobs';
import { QUOTE_CANCEL_MESSAGES } from '../../core/quote-versions';
import { immediate, type Db } from '../../db/client';
import { jobs, quoteCancellations } from '../../db/schema';
import type { Clock } from '../clock';
import { formatBookingDate, ukToday } from '../../core/job-booking';
import { rereadOwnJob, type JobRow } from './jobs';
import { acceptedOf, lastDayToCancel, openQuote, type OpenedQuote, type QuoteAnswerRow, type QuoteCancellationRow, type QuoteVersionRow } from './quote-links';

/**
 * Cancelling an accepted quote (docs/product.md, Jobs and quotes: cancelling). A consumer may
 * cancel within 14 days of accepting (Consumer Contracts Regulations 2013, regulation 30): online
 * from their page, with their name, as the model form words it, or by telling the business, which
 * the surgeon then records with the day and how it came. Either way the evidence is kept as for
 * an acceptance (who, when, from where, the accepted copy's fingerprint), the job reads
 * "cancelled" and is locked, and both sides are e-mailed (quote-flow.ts). A done job cannot be
 * cancelled (the service is complete); after the 14 days the online way is closed (410) and says
 * why, while the surgeon can still record a cancellation they agreed to, marked as outside them.
 */


function refuseUnlessCancellable(job: JobRow, accepted: { answer: QuoteAnswerRow } | undefined, existing: QuoteCancellationRow | undefined): asserts accepted is { answer: QuoteAnswerRow } {
  if (existing || job.status === 'cancelled') throw new DomainError('CONFLICT', QUOTE_CANCEL_MESSAGES.alreadyCancelled);
  if (job.status === 'done') throw new DomainError('CONFLICT', QUOTE_CANCEL_MESSAGES.done);
  if (!accepted || (job.status !== 'accepted' && job.status !== 'booked')) throw new DomainError('CONFLICT', QUOTE_CANCEL_MESSAGES.notAccepted);
}

export interface Cancelled {
  job: JobRow;
  version: QuoteVersionRow;
  answer: QuoteAnswerRow;
  cancellation: QuoteCancellationRow;
}

/**
 * The customer cancels online from their link: 409 unless the quote was accepted (and is not done
 * or cancelled already), 410 once the 14 days are over, else recorded with the evidence.
 */
export function cancelOnline(db: Db, clock: Clock, token: string, input: { name: string; address: string; userAgent: string | null }): Cancelled & { opened: OpenedQuote } {
  const now = clock.now();
  return immediate(db, (tx) => {
    const opened = openQuote(tx, clock, token);
    const accepted = opened.answer?.kind === 'accepted' ? { version: opened.version, answer: opened.answer } : undefined;
    refuseUnlessCancellable(opened.job, accepted, opened.cancellation);
    if (!opened.version.content.consumer) throw new DomainError('CONFLICT', QUOTE_CANCEL_MESSAGES.notConsumer);
    const lastDay = lastDayToCancel(accepted.answer.createdAt);
    if (ukToday(now) > lastDay) throw new DomainError('QUOTE_GONE', QUOTE_CANCEL_MESSAGES.periodOver(formatBookingDate(lastDay, 'long')));
    const cancellation = tx
      .insert(quoteCancellations)
      .values({
        jobId: opened.job.id,
        versionId: opened.version.id,
        via: 'online',
        receivedOn: ukToday(now),
        name: input.name,
        note: null,
        withinPeriod: true,
        contentHash: accepted.answer.contentHash,
        address: input.address,
        userAgent: input.userAgent?.slice(0, 500) ?? null,
        recordedBy: null,
        createdAt: now,
      })
      .returning()
      .get();
    const job = tx.update(jobs).set({ status: 'cancelled', updatedAt: now }).where(eq(jobs.id, opened.job.id)).returning().get()!;
    return { opened: { ...opened, job, cancellation }, job, version: opened.version, answer: accepted.answer, cancellation };
  });
}

export interface RecordedCancellation {
  receivedOn: string;
  via: Exclude<CancellationVia, 'online'>;
  note: string | null;
}

const DATE_ORDER = {
  beforeAcceptance: 'The customer accepted after that day: enter the day you were told they were cancelling.',
  future: 'That day has not come yet: enter the day you were told.',
} as const;

/**
 * The surgeon records a cancellation the customer sent by e-mail, letter, phone or in person: the
 * day they were told (not before the acceptance, not after today) and how. Within the 14 days it
 * is the customer's right; after them it is one the surgeon agreed to, kept as such.
 */
export function recordCancellation(db: Db, clock: Clock, job: Pick<JobRow, 'id' | 'userId'>, by: number | null, input: RecordedCancellation): Cancelled {
  const now = clock.now();
  return immediate(db, (tx) => {
    const current = rereadOwnJob(tx, job);
    const accepted = acceptedOf(tx, job.id);
    const existing = tx.select().from(quoteCancellations).where(eq(quoteCancellations.jobId, job.id)).get();
    refuseUnlessCancellable(current, accepted, existing);
    const acceptedOn = ukToday(accepted.answer.createdAt);
    if (input.receivedOn < acceptedOn) throw new DomainError('VALIDATION_ERROR', DATE_ORDER.beforeAcceptance, { details: { receivedOn: [DATE_ORDER.beforeAcceptance] } });
    if (input.receivedOn > ukToday(now)) throw new DomainError('VALIDATION_ERROR', DATE_ORDER.future, { details: { receivedOn: [DATE_ORDER.future] } });
    const cancellation = tx
      .insert(quoteCancellations)
      .values({
        jobId: job.id,
        versionId: accepted.version.id,
        via: input.via,
        receivedOn: input.receivedOn,
        name: null,
        note: input.note,
        withinPeriod: input.receivedOn <= lastDayToCancel(accepted.answer.createdAt),
        contentHash: accepted.answer.contentHash,
        address: null,
        userAgent: null,
        recordedBy: by,
        createdAt: now,
      })
      .returning()
      .get();
    const updated = tx.update(jobs).set({ status: 'cancelled', updatedAt: now }).where(eq(jobs.id, job.id)).returning().get()!;
    return { job: updated, version: accepted.version, answer: accepted.answer, cancellation };
  });
}
