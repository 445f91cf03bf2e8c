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

/**
 * The geometric mean needs only a count and a sum of logs, so a user's feedback is kept as
 * running totals (db/schema.ts calibration_totals) that a PATCH adjusts by subtracting the
 * old observation and adding the new one. Each log ratio is rounded to whole millionths
 * before it is summed: integer sums are exact whatever the order, so totals kept that way
 * are always identical to a recount, where floating-point sums would drift with every
 * replaced value. A millionth of a log is a 0.0001 % change in the factor, far below the
 * whole minutes estimates are shown in. Rounding is half away from zero, as SQLite's
 * round() does, so the migration that backfilled the totals in SQL agrees with this code.
 */
export const LOG_RATIO_SCALE = 1_000_000;

export interface Observation {
  /** The uncalibrated model estimate (minutes, midpoint of the range). */
  estimated: number;
  actual: number;
}

/** One component's feedback so far: usable observations and the sum of their log ratios (millionths). */
export interface ComponentTotals {
  observations: number;
  logRatioSum: number;
}

export const NO_OBSERVATIONS: ComponentTotals = { observations: 0, logRatioSum: 0 };

/** SQLite's round(): halves go away from zero (Math.round takes -2.5 to -2); never -0. */
export function roundHalfAwayFromZero(value: number): number {
  const whole = Math.round(Math.abs(value));
  return value < 0 && whole !== 0 ? -whole : whole;
}

/** What one observation adds to its component's totals; nothing when either time is zero or missing. */
export function observationTotals(observation: Observation): ComponentTotals {
  const { estimated, actual } = observation;
  if (!(estimated > 0 && actual > 0)) return NO_OBSERVATIONS;
  return { observations: 1, logRatioSum: roundHalfAwayFromZero(Math.log(actual / estimated) * LOG_RATIO_SCALE) };
}

/** `a + sign * b`, component-wise: sign -1 takes an earlier observation back out. */
export function combineTotals(a: ComponentTotals, b: ComponentTotals, sign: 1 | -1 = 1): ComponentTotals {
  return { observations: a.observations + sign * b.observations, logRatioSum: a.logRatioSum + sign * b.logRatioSum };
}

export function factorFromTotals(totals: ComponentTotals): number {
  if (totals.observations <= 0) return 1;
  const meanLog = totals.logRatioSum / LOG_RATIO_SCALE / totals.observations;
  const weight = totals.observations / (totals.observations + PRIOR_JOBS);
  const factor = Math.exp(weight * meanLog);
  return Math.min(FACTOR_BOUNDS.max, Math.max(FACTOR_BOUNDS.min, factor));
}

export function calibrationFactor(observations: Observation[]): number {
  return factorFromTotals(observations.map(observationTotals).reduce((sum, one) => combineTotals(sum, one), NO_OBSERVATIONS));
}
