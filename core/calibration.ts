/**
 * Calibration from feedback (DECISIONS, Analysis): a crew's actual times scale its
 * later estimates, per component, by the geometric mean of actual / estimated, shrunk
 * toward 1 while feedback is scarce. The shrinkage is the usual empirical-Bayes form
 * n / (n + k) with a prior worth k = 2 jobs at factor 1 (assumption): one odd job moves
 * estimates a third of the way, five consistent jobs about 70 % of the way.
 */
export const PRIOR_JOBS = 2;
/** Never scale by more than this either way: a typo in feedback must not wreck quotes. */
export const FACTOR_BOUNDS = { min: 0.5, max: 3 } as const;

export interface Observation {
  /** The uncalibrated model estimate (minutes, midpoint of the range). */
  estimated: number;
  actual: number;
}

export function calibrationFactor(observations: Observation[]): number {
  const usable = observations.filter((o) => o.estimated > 0 && o.actual > 0);
  if (usable.length === 0) return 1;
  const meanLog = usable.reduce((sum, o) => sum + Math.log(o.actual / o.estimated), 0) / usable.length;
  const weight = usable.length / (usable.length + PRIOR_JOBS);
  const factor = Math.exp(weight * meanLog);
  return Math.min(FACTOR_BOUNDS.max, Math.max(FACTOR_BOUNDS.min, factor));
}
