import { and, asc, desc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import { ACCURACY_JOB_LIMIT, JOB_KINDS, type Accuracy, type AccuracyMedians, type AccuracyPoint } from '../../core/accuracy';
import type { JobKind } from '../../core/calibration';
import type { Db } from '../../db/client';
import { jobItems, jobs as jobRows, treeAnalyses } from '../../db/schema';
import { applyCalibration, combineFeedback, feedbackTotals, NO_FEEDBACK, NO_INSTALL, type FeedbackTotals } from './calibration';

/**
 * How close the account's estimates have been to its reported jobs (docs/analysis.md, Accuracy), and
 * how close they would have been calibrated. The gain must be honest: each job's calibrated
 * estimate uses only the jobs reported before it (running prefix totals, added to only after
 * the job is measured), never the job itself, through the same chain the estimates use
 * (core/calibration.ts chainedFactor: kind of job -> account -> 1).
 *
 * The install's starting point is left out (pooled = null): what other accounts had reported
 * at the time of each job, and whether they shared it then, cannot be reconstructed, so the
 * calibrated figure is the account's own experience only. That is what an account on an
 * install with fewer than three sharing accounts gets anyway.
 */
const COMPONENTS = ['cutting', 'prep', 'cleanup'] as const;
type Component = (typeof COMPONENTS)[number];

/** One analysis (one tree) with feedback, as the measurement needs it. */
export interface ReportedJob {
  analysisId: number;
  /** The Jobs job the tree was done in; null for a tree reported from History on its own, itself a job. */
  jobId: number | null;
  reportedAt: Date;
  kind: JobKind | null;
  /** The time model's uncalibrated midpoints, minutes. */
  base: Record<Component, number>;
  /** The reported actual times, minutes; null where a time was not sent. */
  actual: Record<Component, number | null>;
}


/** |estimate - actual| as a percentage of the actual; undefined when the actual is 0 (no percentage of nothing). */
function errorPercent(estimate: number, actual: number): number | undefined {
  return actual > 0 ? (Math.abs(estimate - actual) / actual) * 100 : undefined;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const tenth = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** Per component and for the whole job (the reported components summed): each job's error, where it has one. */
type JobErrors = Partial<Record<Component | 'total', number>>;

function jobErrors(job: ReportedJob, factors: Record<Component, number>): JobErrors {
  const errors: JobErrors = {};
  let estimated = 0;
  let actual = 0;
  for (const part of COMPONENTS) {
    const reported = job.actual[part];
    if (reported === null) continue;
    const estimate = job.base[part] * factors[part];
    estimated += estimate;
    actual += reported;
    const error = errorPercent(estimate, reported);
    if (error !== undefined) errors[part] = error;
  }
  const total = errorPercent(estimated, actual);
  if (total !== undefined) errors.total = total;
  return errors;
}

function medians(errors: JobErrors[]): AccuracyMedians {
  const of = (key: keyof JobErrors) => tenth(median(errors.flatMap((e) => (e[key] === undefined ? [] : [e[key]]))));
  return { cutting: of('cutting'), prep: of('prep'), cleanup: of('cleanup'), total: of('total') };
}

const UNCALIBRATED: Record<Component, number> = { cutting: 1, prep: 1, cleanup: 1 };

/** The accuracy over jobs given in the order they were reported, oldest first. Pure. */
export function measureAccuracy(jobs: ReportedJob[]): Accuracy {
  let account: FeedbackTotals = NO_FEEDBACK;
  const kinds = Object.fromEntries(JOB_KINDS.map((kind) => [kind, NO_FEEDBACK])) as Record<JobKind, FeedbackTotals>;
  const original: JobErrors[] = [];
  const calibrated: JobErrors[] = [];
  const series: AccuracyPoint[] = [];

  jobs.forEach((job, index) => {
    const own = jobErrors(job, UNCALIBRATED);
    original.push(own);
    let calibratedError: number | null = null;
    if (index > 0) {
      // The analysis's own chain (server/analysis/calibration.ts), with the install left out.
      const { factors } = applyCalibration({ account, kinds, install: NO_INSTALL }, job.kind ?? '');
      const adjusted = jobErrors(job, factors);
      calibrated.push(adjusted);
      calibratedError = adjusted.total ?? null;
    }
    series.push({
      analysisId: job.analysisId,
      reportedAt: job.reportedAt.toISOString(),
      kind: job.kind,
      originalError: tenth(own.total ?? null),
      calibratedError: tenth(calibratedError),
    });

    // Only now does the job join the totals: the jobs after it are calibrated from it.
    // As the feedback route adds it (feedbackTotals skips zero times).
    const observed = feedbackTotals({
      baseTimes: job.base,
      actualCuttingTime: job.actual.cutting,
      actualPrepTime: job.actual.prep,
      actualCleanupTime: job.actual.cleanup,
    });
    account = combineFeedback(account, observed);
    if (job.kind) kinds[job.kind] = combineFeedback(kinds[job.kind], observed);
  });

  const inJobs = new Set(jobs.flatMap((job) => (job.jobId === null ? [] : [job.jobId])));
  return {
    trees: jobs.length,
    jobs: inJobs.size + jobs.filter((job) => job.jobId === null).length,
    limit: ACCURACY_JOB_LIMIT,
    original: medians(original),
    calibratedTrees: calibrated.length,
    calibrated: medians(calibrated),
    originalOnCalibratedTrees: medians(original.slice(1)),
    series,
  };
}

const isJobKind = (method: string | null): method is JobKind => JOB_KINDS.includes(method as JobKind);

/**
 * The account's latest ACCURACY_JOB_LIMIT analyses with a stored estimate and at least one
 * actual time, oldest first. No column records when feedback was sent, so a job counts as
 * reported when its analysis was made (created_at, then id): for a crew that reports jobs
 * in the order it does them, the same order. Only the latest jobs are read, so the work is
 * bounded; past the limit, the oldest measured job is calibrated from none of the older ones.
 * The read walks the account's own rows on tree_analyses_user_idx, newest first.
 */
export function readReportedJobs(db: Db, userId: number, limit = ACCURACY_JOB_LIMIT): ReportedJob[] {
  const a = treeAnalyses;
  const rows = db
    .select({
      id: a.id,
      createdAt: a.createdAt,
      method: a.method,
      baseTimes: a.baseTimes,
      actualCuttingTime: a.actualCuttingTime,
      actualPrepTime: a.actualPrepTime,
      actualCleanupTime: a.actualCleanupTime,
    })
    .from(a)
    .where(
      and(
        eq(a.userId, userId),
        isNotNull(a.baseTimes),
        or(isNotNull(a.actualCuttingTime), isNotNull(a.actualPrepTime), isNotNull(a.actualCleanupTime)),
      ),
    )
    .orderBy(desc(a.createdAt), desc(a.id))
    .limit(limit)
    .all();
  const jobOf = jobsOfTrees(db, rows.map((row) => row.id));
  return rows.reverse().flatMap((row) =>
    row.baseTimes
      ? [
          {
            analysisId: row.id,
            jobId: jobOf.get(row.id) ?? null,
            reportedAt: row.createdAt,
            kind: isJobKind(row.method) ? row.method : null,
            base: row.baseTimes,
            actual: { cutting: row.actualCuttingTime, prep: row.actualPrepTime, cleanup: row.actualCleanupTime },
          },
        ]
      : [],
  );
}

/**
 * The Jobs job each tree was done in: the one marked done when the tree is in several (quoted
 * twice, say), else the first made. Trees in no job are left out: each was its own job.
 */
function jobsOfTrees(db: Db, analysisIds: number[]): Map<number, number> {
  if (analysisIds.length === 0) return new Map();
  const links = db
    .select({ analysisId: jobItems.analysisId, jobId: jobItems.jobId, status: jobRows.status })
    .from(jobItems)
    .innerJoin(jobRows, eq(jobRows.id, jobItems.jobId))
    .where(inArray(jobItems.analysisId, analysisIds))
    .orderBy(asc(jobItems.jobId))
    .all();
  const found = new Map<number, number>();
  for (const link of links) if (link.analysisId !== null && link.status === 'done' && !found.has(link.analysisId)) found.set(link.analysisId, link.jobId);
  for (const link of links) if (link.analysisId !== null && !found.has(link.analysisId)) found.set(link.analysisId, link.jobId);
  return found;
}

/** GET /api/accuracy's answer for one account. */
export function loadAccuracy(db: Db, userId: number): Accuracy {
  return measureAccuracy(readReportedJobs(db, userId));
}
