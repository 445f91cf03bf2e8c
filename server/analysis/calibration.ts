import { and, eq, isNotNull, or, sql } from 'drizzle-orm';
import {
  combineTotals,
  factorFromTotals,
  NO_OBSERVATIONS,
  observationTotals,
  type ComponentTotals,
} from '../../core/calibration';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { calibrationTotals, treeAnalyses } from '../../db/schema';
import type { Calibration } from './estimate';

/**
 * A user's calibration comes from running totals of their feedback (db/schema.ts
 * calibration_totals), read with one primary-key lookup when an analysis is estimated.
 * The feedback route changes them in the same transaction as the actual times
 * (feedback.ts); recountCalibrationTotals is the from-scratch reference they must equal.
 */
const COMPONENTS = ['cutting', 'prep', 'cleanup'] as const;
type Component = (typeof COMPONENTS)[number];

export interface FeedbackTotals extends Record<Component, ComponentTotals> {
  /** Analyses with a base estimate and at least one actual time: "Calibrated from N of your jobs". */
  jobs: number;
}

export const NO_FEEDBACK: FeedbackTotals = { jobs: 0, cutting: NO_OBSERVATIONS, prep: NO_OBSERVATIONS, cleanup: NO_OBSERVATIONS };

/** The columns of an analysis its feedback is judged by, for a select (FeedbackFields is their row). */
export const FEEDBACK_COLUMNS = {
  baseTimes: treeAnalyses.baseTimes,
  actualCuttingTime: treeAnalyses.actualCuttingTime,
  actualPrepTime: treeAnalyses.actualPrepTime,
  actualCleanupTime: treeAnalyses.actualCleanupTime,
};

/** The columns of an analysis its feedback is judged by. */
export type FeedbackFields = Pick<
  typeof treeAnalyses.$inferSelect,
  'baseTimes' | 'actualCuttingTime' | 'actualPrepTime' | 'actualCleanupTime'
>;

/**
 * What one analysis adds to its user's totals. An analysis stored before base estimates
 * were kept has nothing to compare with and adds nothing.
 */
export function feedbackTotals(row: FeedbackFields): FeedbackTotals {
  const base = row.baseTimes;
  const actual: Record<Component, number | null> = {
    cutting: row.actualCuttingTime,
    prep: row.actualPrepTime,
    cleanup: row.actualCleanupTime,
  };
  if (!base || COMPONENTS.every((part) => actual[part] === null)) return NO_FEEDBACK;
  const part = (name: Component) => {
    const value = actual[name];
    return value === null ? NO_OBSERVATIONS : observationTotals({ estimated: base[name], actual: value });
  };
  return { jobs: 1, cutting: part('cutting'), prep: part('prep'), cleanup: part('cleanup') };
}

/** `a + sign * b` for every total. */
export function combineFeedback(a: FeedbackTotals, b: FeedbackTotals, sign: 1 | -1 = 1): FeedbackTotals {
  return {
    jobs: a.jobs + sign * b.jobs,
    cutting: combineTotals(a.cutting, b.cutting, sign),
    prep: combineTotals(a.prep, b.prep, sign),
    cleanup: combineTotals(a.cleanup, b.cleanup, sign),
  };
}

/** Adds `change` to the user's stored totals; the caller holds the write transaction. */
export function addToCalibrationTotals(db: Db, userId: number, change: FeedbackTotals): void {
  if (change.jobs === 0 && COMPONENTS.every((p) => change[p].observations === 0 && change[p].logRatioSum === 0)) return;
  // On conflict each stored total grows by the value this insert would have written.
  const plus = (column: SQLiteColumn) => sql`${column} + excluded.${sql.identifier(column.name)}`;
  db.insert(calibrationTotals)
    .values({
      userId,
      jobs: change.jobs,
      cuttingObservations: change.cutting.observations,
      cuttingLogRatioSum: change.cutting.logRatioSum,
      prepObservations: change.prep.observations,
      prepLogRatioSum: change.prep.logRatioSum,
      cleanupObservations: change.cleanup.observations,
      cleanupLogRatioSum: change.cleanup.logRatioSum,
    })
    .onConflictDoUpdate({
      target: calibrationTotals.userId,
      set: {
        jobs: plus(calibrationTotals.jobs),
        cuttingObservations: plus(calibrationTotals.cuttingObservations),
        cuttingLogRatioSum: plus(calibrationTotals.cuttingLogRatioSum),
        prepObservations: plus(calibrationTotals.prepObservations),
        prepLogRatioSum: plus(calibrationTotals.prepLogRatioSum),
        cleanupObservations: plus(calibrationTotals.cleanupObservations),
        cleanupLogRatioSum: plus(calibrationTotals.cleanupLogRatioSum),
      },
    })
    .run();
}

/** Read before every estimate: built and prepared once per database (issue 10). */
const totalsReads = new WeakMap<Db, ReturnType<typeof prepareTotalsRead>>();

function prepareTotalsRead(db: Db) {
  return calibrationTotalsQuery(db).prepare();
}

/** The read, unprepared: exported so a test can read its query plan. */
export function calibrationTotalsQuery(db: Db) {
  return db.select().from(calibrationTotals).where(eq(calibrationTotals.userId, sql.placeholder('userId')));
}

/** The user's stored totals (all zero before any feedback). */
export function storedCalibrationTotals(db: Db, userId: number): FeedbackTotals {
  let read = totalsReads.get(db);
  if (!read) totalsReads.set(db, (read = prepareTotalsRead(db)));
  const row = read.get({ userId });
  if (!row) return NO_FEEDBACK;
  return {
    jobs: row.jobs,
    cutting: { observations: row.cuttingObservations, logRatioSum: row.cuttingLogRatioSum },
    prep: { observations: row.prepObservations, logRatioSum: row.prepLogRatioSum },
    cleanup: { observations: row.cleanupObservations, logRatioSum: row.cleanupLogRatioSum },
  };
}

/** The user's feedback so far, as per-component calibration factors; null before any feedback. */
export function loadCalibration(db: Db, userId: number): Calibration | null {
  const totals = storedCalibrationTotals(db, userId);
  if (totals.jobs <= 0) return null;
  return {
    jobs: totals.jobs,
    factors: {
      cutting: factorFromTotals(totals.cutting),
      prep: factorFromTotals(totals.prep),
      cleanup: factorFromTotals(totals.cleanup),
    },
  };
}

/**
 * The totals counted from scratch over every analysis of the user's with feedback: what the
 * stored totals must always equal (the tests hold them to it; an operator could rebuild
 * from it). Not on any request's path.
 */
export function recountCalibrationTotals(db: Db, userId: number): FeedbackTotals {
  const rows = db
    .select(FEEDBACK_COLUMNS)
    .from(treeAnalyses)
    .where(
      and(
        eq(treeAnalyses.userId, userId),
        isNotNull(treeAnalyses.baseTimes),
        or(isNotNull(treeAnalyses.actualCuttingTime), isNotNull(treeAnalyses.actualPrepTime), isNotNull(treeAnalyses.actualCleanupTime)),
      ),
    )
    .all();
  return rows.reduce((sum, row) => combineFeedback(sum, feedbackTotals(row)), NO_FEEDBACK);
}
