import { FACTOR_BOUNDS, PRIOR_JOBS } from './calibration';
import type { MinutesRange } from './schedule';

/**
 * The chance a crew's day runs past its capacity (docs/product.md, Schedule: the overrun chance).
 *
 * The model, kept simple enough to say in a sentence on the board:
 * - Each booking's minutes that day are uniform over its estimate's range [min, max] (mean the
 *   midpoint, variance (max - min)² / 12), independent of each other.
 * - The crew's pace is one factor F on the whole day (the same people all day, so a slow crew is
 *   slow on every job: the factor is shared, not independent per job). F is log-normal, from the
 *   crew's past done jobs' actual / estimated ratios: the mean of their logs shrunk toward 0
 *   (factor 1) as the calibration shrinks (core/calibration.ts, a prior worth PRIOR_JOBS jobs),
 *   and their spread shrunk toward PRIOR_SPREAD. Each ratio is held within FACTOR_BOUNDS, against
 *   typos. With no past jobs, F is 1: the ranges alone.
 * - The day's total T = F × S, S the sum of the bookings' minutes: E[T] = E[F]·E[S] and
 *   Var[T] = E[F²]·Var[S] + Var[F]·E[S]². P(T > capacity) by the normal approximation.
 *
 * Minutes are person-minutes, as the capacity is (members × the crew's day).
 */

/** The spread (sd of log actual/estimated) assumed for a crew with few past jobs: about ±20 % from one job to the next. Assumption. */
export const PRIOR_SPREAD = 0.2;

/** The pace factor's log-normal parameters (mu, sigma of log F); 0 and 0 with no past jobs. */
export function paceOf(ratios: readonly number[]): { mu: number; sigma: number; jobs: number } {
  const logs = ratios.filter((r) => Number.isFinite(r) && r > 0).map((r) => Math.log(Math.min(FACTOR_BOUNDS.max, Math.max(FACTOR_BOUNDS.min, r))));
  const n = logs.length;
  if (n === 0) return { mu: 0, sigma: 0, jobs: 0 };
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  const squares = logs.reduce((sum, l) => sum + (l - mean) ** 2, 0);
  return {
    mu: (n / (n + PRIOR_JOBS)) * mean,
    sigma: Math.sqrt((squares + PRIOR_JOBS * PRIOR_SPREAD ** 2) / (n - 1 + PRIOR_JOBS)),
    jobs: n,
  };
}

/** The standard normal's upper tail P(Z > z) (Abramowitz and Stegun 7.1.26 on erf; error under 1.5e-7). */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  const upper = 0.5 * (1 - erf);
  return z >= 0 ? upper : 1 - upper;
}

/**
 * P(the day's minutes pass `capacityMinutes`), 0 to 1 rounded to two decimals; null with no
 * bookings. `pastRatios`: the crew's past actual / estimated ratios (empty for none).
 */
export function overrunChance(bookings: readonly MinutesRange[], capacityMinutes: number, pastRatios: readonly number[] = []): number | null {
  if (bookings.length === 0) return null;
  let mean = 0;
  let variance = 0;
  for (const b of bookings) {
    const low = Math.max(0, Math.min(b.min, b.max));
    const high = Math.max(0, b.min, b.max);
    mean += (low + high) / 2;
    variance += (high - low) ** 2 / 12;
  }
  const { mu, sigma } = paceOf(pastRatios);
  const meanF = Math.exp(mu + sigma ** 2 / 2);
  const meanF2 = Math.exp(2 * mu + 2 * sigma ** 2);
  const totalMean = meanF * mean;
  const totalVariance = meanF2 * variance + (meanF2 - meanF ** 2) * mean ** 2;
  const capacity = Math.max(0, capacityMinutes);
  let chance: number;
  if (totalVariance <= 1e-9) chance = totalMean > capacity ? 1 : 0;
  else chance = normalUpperTail((capacity - totalMean) / Math.sqrt(totalVariance));
  return Math.round(Math.min(1, Math.max(0, chance)) * 100) / 100;
}
