import { and, count, eq, gte, inArray, isNotNull, lt, type SQL } from 'drizzle-orm';
import { acceptedGrossPence, quotedGrossPence, ukMonth, JOB_SUMMARY_TIME_ZONE, type JobSummary } from '../../core/job-summary';
import { JOB_STATUSES, type JobStatus } from '../../core/jobs';
import { penceToDecimal } from '../../core/money';
import type { FunnelResponse } from '../../core/business';
import { quoteTotals } from '../../core/quote-totals';
import type { Db } from '../../db/client';
import { jobItems, jobs, quoteAnswers, quoteVersions } from '../../db/schema';
import { funnelWindow } from '../businesses/funnel';
import type { Clock } from '../clock';

/**
 * The sums behind the Jobs page and a business's funnel (docs/product.md, The Jobs pages). What
 * each figure counts is core/job-summary.ts's; this reads the rows for it, a fixed number of
 * queries whatever the number of jobs.
 */

/** A span of time, from `start` (inclusive) to `end` (exclusive). */
export interface Window {
  start: Date;
  end: Date;
}

/** Whose jobs: an account's (the Jobs page) or one business's leads' (its funnel). */
export type JobsOf = { userId: number } | { businessId: number };

const jobsOf = (of: JobsOf): SQL => ('userId' in of ? eq(jobs.userId, of.userId) : eq(jobs.businessId, of.businessId));

export interface Figure {
  count: number;
  grossPence: number;
}

/**
 * Jobs with a version sent in the window, each once, at the newest version sent in it: what the
 * customer was quoted for its included items (with VAT by the version's own mode).
 */
export function quotedIn(db: Db, of: JobsOf, window: Window): Figure {
  const rows = db
    .select({ jobId: quoteVersions.jobId, version: quoteVersions.version, content: quoteVersions.content })
    .from(quoteVersions)
    .innerJoin(jobs, eq(jobs.id, quoteVersions.jobId))
    .where(and(jobsOf(of), gte(quoteVersions.sentAt, window.start), lt(quoteVersions.sentAt, window.end)))
    .all();
  const newest = new Map<number, (typeof rows)[number]>();
  for (const row of rows) if ((newest.get(row.jobId)?.version ?? 0) < row.version) newest.set(row.jobId, row);
  return { count: newest.size, grossPence: [...newest.values()].reduce((sum, row) => sum + quotedGrossPence(row.content), 0) };
}

/** Acceptances in the window: each accepted version's included items and the options chosen. */
export function acceptedIn(db: Db, of: JobsOf, window: Window): Figure {
  const rows = db
    .select({ content: quoteVersions.content, chosen: quoteAnswers.optionalItemIds })
    .from(quoteAnswers)
    .innerJoin(quoteVersions, eq(quoteVersions.id, quoteAnswers.versionId))
    .innerJoin(jobs, eq(jobs.id, quoteVersions.jobId))
    .where(and(jobsOf(of), eq(quoteAnswers.kind, 'accepted'), gte(quoteAnswers.createdAt, window.start), lt(quoteAnswers.createdAt, window.end)))
    .all();
  return { count: rows.length, grossPence: rows.reduce((sum, row) => sum + acceptedGrossPence(row.content, row.chosen ?? []), 0) };
}

/**
 * Jobs marked done in the window, each at what its customer accepted. A done job is an accepted
 * one (core/job-booking.ts), so it has an acceptance; were one ever without, its own items count
 * (the included ones), as its page shows them.
 */
export function doneIn(db: Db, of: JobsOf, window: Window): Figure {
  const done = db
    .select({ id: jobs.id, vatMode: jobs.vatMode })
    .from(jobs)
    .where(and(jobsOf(of), isNotNull(jobs.doneAt), gte(jobs.doneAt, window.start), lt(jobs.doneAt, window.end)))
    .all();
  if (done.length === 0) return { count: 0, grossPence: 0 };
  const ids = done.map((job) => job.id);
  const accepted = new Map(
    db
      .select({ jobId: quoteVersions.jobId, content: quoteVersions.content, chosen: quoteAnswers.optionalItemIds })
      .from(quoteAnswers)
      .innerJoin(quoteVersions, eq(quoteVersions.id, quoteAnswers.versionId))
      .where(and(inArray(quoteVersions.jobId, ids), eq(quoteAnswers.kind, 'accepted')))
      .all()
      .map((row) => [row.jobId, acceptedGrossPence(row.content, row.chosen ?? [])]),
  );
  const unaccepted = done.filter((job) => !accepted.has(job.id));
  const items =
    unaccepted.length === 0
      ? []
      : db
          .select({ jobId: jobItems.jobId, id: jobItems.id, pricePence: jobItems.pricePence, optional: jobItems.optional })
          .from(jobItems)
          .where(inArray(jobItems.jobId, unaccepted.map((job) => job.id)))
          .all();
  const own = (job: (typeof done)[number]) =>
    quoteTotals(
      items.filter((item) => item.jobId === job.id),
      new Set(),
      job.vatMode,
    ).grossPence;
  return { count: done.length, grossPence: done.reduce((sum, job) => sum + (accepted.get(job.id) ?? own(job)), 0) };
}

/** How many of the account's jobs are in each status, every status present. */
export function countByStatus(db: Db, userId: number): Record<JobStatus, number> {
  const counts = Object.fromEntries(JOB_STATUSES.map((status) => [status, 0])) as Record<JobStatus, number>;
  const rows = db.select({ status: jobs.status, n: count() }).from(jobs).where(eq(jobs.userId, userId)).groupBy(jobs.status).all();
  for (const row of rows) if (row.status in counts) counts[row.status] = row.n;
  return counts;
}

const figure = (f: Figure) => ({ count: f.count, gross: penceToDecimal(f.grossPence) });

/** GET /api/jobs/summary: the account's jobs by status, and this UK calendar month's values. */
export function jobSummary(db: Db, userId: number, now: Date): JobSummary {
  const counts = countByStatus(db, userId);
  const month = ukMonth(now);
  const of = { userId };
  return {
    counts,
    total: Object.values(counts).reduce((a, b) => a + b, 0),
    month: {
      timeZone: JOB_SUMMARY_TIME_ZONE,
      start: month.start.toISOString(),
      end: month.end.toISOString(),
      quoted: figure(quotedIn(db, of, month)),
      accepted: figure(acceptedIn(db, of, month)),
      done: figure(doneIn(db, of, month)),
    },
  };
}

/**
 * The quotes of the business's leads over the same last `days` UTC days as its funnel
 * (server/businesses/funnel.ts funnelDays): jobs with a version sent in them, acceptances in
 * them and their value, each counted as quotedIn and acceptedIn say.
 */
export function funnelQuotes(db: Db, clock: Clock, businessId: number, days: number): FunnelResponse['quotes'] {
  const window = funnelWindow(clock, days);
  const sent = quotedIn(db, { businessId }, window);
  const accepted = acceptedIn(db, { businessId }, window);
  return { sent: sent.count, accepted: accepted.count, acceptedValue: penceToDecimal(accepted.grossPence) };
}
