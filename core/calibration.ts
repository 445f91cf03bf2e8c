/**
 * Calibration from feedback (docs/analysis.md, Calibration): a crew's actual times scale its
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

// ---- Calibration by kind of job --------------------------------------------------------------

/**
 * A crew is rarely uniformly slow: it may fell small trees in the open faster than the model
 * says and dismantle big ones near houses slower. So feedback is also kept per kind of job (the
 * method the time model chose, stored on every analysis: a fell, a section fell, a climb and
 * dismantle; the method already folds in size, targets and power lines, so it separates the
 * jobs a crew is differently fast at better than a size class would), and each estimate is
 * scaled by a chain of shrunk factors, in logs:
 *
 *   install  = pooled log mean of every sharing account, shrunk toward 0 (factor 1), used only
 *              when at least MIN_POOLED_ACCOUNTS accounts are behind it;
 *   account  = the account's log mean over all its jobs, shrunk toward the install;
 *   kind     = the account's log mean over jobs of this kind, shrunk toward the account.
 *
 * Each shrink is (sum of logs + k * prior) / (n + k): the prior counts as k jobs, so a kind
 * with few reports follows the account, an account with few follows the install, and with
 * no install figure the account shrinks toward 1 exactly as factorFromTotals always has.
 * The kind's prior of 6 jobs comes from the learning bench (`npm run bench -- learning`): it
 * keeps 0.73x of the single factor's error on a crew with opposite biases after 20 reports,
 * and is not worse on a uniformly slow crew after 5 (at 4 it tied within noise; at 2 it lost).
 */
export const KIND_PRIOR_JOBS = 6;
/** A pooled figure needs this many accounts behind it, so it never reveals one account's jobs. */
export const MIN_POOLED_ACCOUNTS = 3;

/** Jobs pooled across the install's sharing accounts, per component. */
export interface PooledTotals {
  accounts: number;
  totals: ComponentTotals;
}

/** The log of a factor: the mean log ratio shrunk toward `priorLog`, the prior worth `priorJobs` jobs. */
export function shrunkLog(totals: ComponentTotals, priorLog: number, priorJobs: number): number {
  if (totals.observations <= 0) return priorLog;
  return (totals.logRatioSum / LOG_RATIO_SCALE + priorJobs * priorLog) / (totals.observations + priorJobs);
}

const bounded = (factor: number) => Math.min(FACTOR_BOUNDS.max, Math.max(FACTOR_BOUNDS.min, factor));

/** The install's starting point for one component: factor 1 unless enough accounts share. */
export function installLog(pooled: PooledTotals | null): number {
  if (!pooled || pooled.accounts < MIN_POOLED_ACCOUNTS) return 0;
  return shrunkLog(pooled.totals, 0, PRIOR_JOBS);
}

/** One component's factor from the chain kind -> account -> install -> 1, within FACTOR_BOUNDS. */
export function chainedFactor(kind: ComponentTotals, account: ComponentTotals, pooled: PooledTotals | null): number {
  const accountLog = shrunkLog(account, installLog(pooled), PRIOR_JOBS);
  return bounded(Math.exp(shrunkLog(kind, accountLog, KIND_PRIOR_JOBS)));
}

/** Plural names of the kinds of job, for "Calibrated from 6 of your dismantles". */
export const JOB_KIND_PLURALS = {
  straight_fell: 'straight fells',
  section_fell: 'section fells',
  climb_dismantle: 'dismantles',
} as const;
export type JobKind = keyof typeof JOB_KIND_PLURALS;

/**
 * What an estimate says it was calibrated from: "Calibrated from 6 of your dismantles and 14 of
 * your other jobs", "Calibrated from 3 of your jobs" ("1 of your jobs" reads as "one of"), with the install's starting point named
 * while it is in use. Null when nothing calibrated it.
 */
export function calibratedFromText(kind: JobKind, kindJobs: number, accountJobs: number, installAccounts: number | null): string | null {
  const pooled = installAccounts !== null && installAccounts >= MIN_POOLED_ACCOUNTS;
  const others = accountJobs - kindJobs;
  const own =
    kindJobs > 0 && others > 0
      ? `${kindJobs} of your ${JOB_KIND_PLURALS[kind]} and ${others} of your other jobs`
      : kindJobs > 0
        ? `${kindJobs} of your ${JOB_KIND_PLURALS[kind]}`
        : accountJobs > 0
          ? `${accountJobs} of your jobs`
          : null;
  const install = pooled ? `the reported jobs of ${installAccounts} crews on this service` : null;
  if (!own && !install) return null;
  return `Calibrated from ${[own, install].filter(Boolean).join(' and ')}`;
}
