import { z } from 'zod';
import type { JobKind } from './calibration';

/**
 * GET /api/accuracy (docs/analysis.md, Accuracy): how far the account's estimates have been from the
 * actual times its crew reported, before and after calibration. Times are reported per tree (a
 * job of three trees reports three), so each figure is a median over trees: errors are absolute
 * percentages of the actual time (|estimate - actual| / actual x 100), and one wild tree (a
 * typo, a day the chipper broke) cannot swamp them. The jobs those trees came from are counted
 * as jobs: a tree's Jobs job, or the tree alone when its times were sent from History.
 */

/** Only the latest trees with feedback are measured, so a request's work stays bounded. */
export const ACCURACY_JOB_LIMIT = 500;

/** The kinds of job calibration tells apart (core/calibration.ts JOB_KIND_PLURALS). */
export const JOB_KINDS = ['straight_fell', 'section_fell', 'climb_dismantle'] as const satisfies readonly JobKind[];

/** A median absolute percentage error, to 0.1 %; null when no job had that time to compare. */
const errorPercent = z.number().min(0).nullable();

/** One median per time component, and for the tree's work as a whole (the components reported, summed). */
export const accuracyMediansSchema = z.object({
  cutting: errorPercent,
  prep: errorPercent,
  cleanup: errorPercent,
  total: errorPercent,
});
export type AccuracyMedians = z.infer<typeof accuracyMediansSchema>;

/** One tree with feedback, in the order trees were reported: its whole error before and after calibration. */
export const accuracyPointSchema = z.object({
  analysisId: z.number().int(),
  /** When the tree counts as reported (ISO 8601); server/analysis/accuracy.ts says which time that is. */
  reportedAt: z.string(),
  /** The method the estimate chose; null on analyses stored before methods were kept. */
  kind: z.enum(JOB_KINDS).nullable(),
  originalError: errorPercent,
  /** Null on the first tree: nothing was reported before it, so nothing calibrated it. */
  calibratedError: errorPercent,
});
export type AccuracyPoint = z.infer<typeof accuracyPointSchema>;

export const accuracySchema = z.object({
  /** Trees with a stored estimate and at least one actual time (at most `limit`, the latest). */
  trees: z.number().int().min(0),
  /** The jobs those trees came from: each Jobs job once, and a tree reported from History on its own. */
  jobs: z.number().int().min(0),
  limit: z.number().int(),
  /** The model's own estimate against the actual times, over every tree. */
  original: accuracyMediansSchema,
  /** Trees that had earlier reports to be calibrated from: every tree but the first. */
  calibratedTrees: z.number().int().min(0),
  /** Each of those trees estimated with the calibration from only the trees reported before it. */
  calibrated: accuracyMediansSchema,
  /** The model's own estimate over the same trees as `calibrated`, so the gain compares like with like. */
  originalOnCalibratedTrees: accuracyMediansSchema,
  /** Every tree measured, oldest report first, for a chart. */
  series: z.array(accuracyPointSchema),
});
export type Accuracy = z.infer<typeof accuracySchema>;
