import { and, eq } from 'drizzle-orm';
import type { FeedbackInput } from '../../core/analysis';
import { DomainError } from '../../core/errors';
import { immediate, type Db } from '../../db/client';
import { treeAnalyses } from '../../db/schema';
import { addToCalibrationTotals, combineFeedback, FEEDBACK_COLUMNS, feedbackTotals } from './calibration';

export const FEEDBACK_EMPTY_MESSAGE = 'Enter at least one actual time or a comment';

/**
 * Stores the actual times and comment sent for one of the user's analyses (docs/product.md, Analysis) and keeps
 * the user's calibration totals, overall and for the analysis's kind of job, in step, in one
 * write transaction: the row is read inside it, so a replaced actual time takes out exactly
 * what it had added, whatever else is writing.
 * PATCH semantics: what is sent replaces, what is left out stays as it was; sending nothing (or
 * only empty text) is refused. False when the analysis is not the user's.
 */
export function saveFeedback(db: Db, userId: number, analysisId: number, input: FeedbackInput): boolean {
  if (Object.values(input).every((v) => v === undefined || v === '')) {
    throw new DomainError('VALIDATION_ERROR', FEEDBACK_EMPTY_MESSAGE);
  }
  const changes: Partial<typeof treeAnalyses.$inferInsert> = {};
  if (input.actualCuttingTime !== undefined) changes.actualCuttingTime = input.actualCuttingTime;
  if (input.actualPrepTime !== undefined) changes.actualPrepTime = input.actualPrepTime;
  if (input.actualCleanupTime !== undefined) changes.actualCleanupTime = input.actualCleanupTime;
  if (input.feedback !== undefined) changes.feedback = input.feedback || null;
  return immediate(db, (tx) => {
    const own = and(eq(treeAnalyses.id, analysisId), eq(treeAnalyses.userId, userId));
    const before = tx.select({ ...FEEDBACK_COLUMNS, method: treeAnalyses.method }).from(treeAnalyses).where(own).get();
    if (!before) return false;
    tx.update(treeAnalyses).set(changes).where(own).run();
    const after = {
      baseTimes: before.baseTimes,
      actualCuttingTime: input.actualCuttingTime ?? before.actualCuttingTime,
      actualPrepTime: input.actualPrepTime ?? before.actualPrepTime,
      actualCleanupTime: input.actualCleanupTime ?? before.actualCleanupTime,
    };
    // The analysis's contribution is replaced in its user's totals and in those of its kind of job.
    addToCalibrationTotals(tx, userId, combineFeedback(feedbackTotals(after), feedbackTotals(before), -1), before.method);
    return true;
  });
}
