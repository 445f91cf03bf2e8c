import { describe, expect, it } from 'vitest';
import {
  calibratedFromText,
  calibrationFactor,
  chainedFactor,
  installLog,
  MIN_POOLED_ACCOUNTS,
  shrunkLog,
  type PooledTotals,
  combineTotals,
  factorFromTotals,
  FACTOR_BOUNDS,
  LOG_RATIO_SCALE,
  NO_OBSERVATIONS,
  observationTotals,
  PRIOR_JOBS,
  roundHalfAwayFromZero,
  type Observation,
} from './calibration';

describe('calibrationFactor', () => {
  it('is 1 with no feedback', () => {
    expect(calibrationFactor([])).toBe(1);
  });

  it('estimates a crew that is always 30% slower within 10% after 5 jobs', () => {
    const jobs = [40, 90, 150, 60, 200].map((estimated) => ({ estimated, actual: estimated * 1.3 }));
    const factor = calibrationFactor(jobs);
    for (const { estimated, actual } of jobs) {
      expect(Math.abs(estimated * factor - actual) / actual).toBeLessThan(0.1);
    }
  });

  it('moves only part of the way on one job, and further with more', () => {
    const one = calibrationFactor([{ estimated: 100, actual: 200 }]);
    const three = calibrationFactor(Array.from({ length: 3 }, () => ({ estimated: 100, actual: 200 })));
    expect(one).toBeGreaterThan(1);
    expect(one).toBeLessThan(three);
    expect(three).toBeLessThan(2);
  });

  it('works the other way for a faster crew', () => {
    expect(calibrationFactor(Array.from({ length: 5 }, () => ({ estimated: 100, actual: 70 })))).toBeLessThan(0.85);
  });

  it('is bounded and ignores zero or missing values', () => {
    expect(calibrationFactor(Array.from({ length: 50 }, () => ({ estimated: 10, actual: 10_000 })))).toBe(3);
    expect(calibrationFactor([{ estimated: 0, actual: 50 }, { estimated: 50, actual: 0 }])).toBe(1);
  });
});

describe('running totals', () => {
  const jobs: Observation[] = [
    { estimated: 97.5, actual: 140 },
    { estimated: 12.5, actual: 10 },
    { estimated: 45, actual: 45 },
    { estimated: 300, actual: 1 },
    { estimated: 0.5, actual: 100_000 },
  ];
  const sum = (list: Observation[]) => list.map(observationTotals).reduce((a, b) => combineTotals(a, b), NO_OBSERVATIONS);

  it('give the geometric-mean factor to within a millionth of a log', () => {
    const usable = jobs.slice(0, 3);
    const meanLog = usable.reduce((total, o) => total + Math.log(o.actual / o.estimated), 0) / usable.length;
    const exact = Math.exp((usable.length / (usable.length + PRIOR_JOBS)) * meanLog);
    expect(Math.abs(Math.log(calibrationFactor(usable) / exact))).toBeLessThan(1 / LOG_RATIO_SCALE);
  });

  it('are whole numbers, so taking observations out and putting others in equals a recount, in any order', () => {
    for (const job of jobs) expect(Number.isSafeInteger(observationTotals(job).logRatioSum)).toBe(true);
    let running = sum(jobs);
    running = combineTotals(running, observationTotals(jobs[1]!), -1);
    running = combineTotals(running, observationTotals({ estimated: 12.5, actual: 33 }), 1);
    running = combineTotals(running, observationTotals(jobs[4]!), -1);
    const recount = sum([{ estimated: 12.5, actual: 33 }, jobs[3]!, jobs[2]!, jobs[0]!]);
    expect(running).toEqual(recount);
    expect(factorFromTotals(running)).toBe(calibrationFactor([jobs[0]!, { estimated: 12.5, actual: 33 }, jobs[2]!, jobs[3]!]));
  });

  it('round half away from zero, as SQLite round() does in the backfill', () => {
    expect([2.5, -2.5, 2.4999, -2.5001, -0.4, 0].map(roundHalfAwayFromZero)).toEqual([3, -3, 2, -3, 0, 0]);
    expect(Object.is(roundHalfAwayFromZero(-0.4), 0)).toBe(true);
    const up = observationTotals({ estimated: 10, actual: 13 }).logRatioSum;
    expect(observationTotals({ estimated: 13, actual: 10 }).logRatioSum).toBe(-up);
  });

  it('leave a component with no usable observation at factor 1, and stay within bounds', () => {
    expect(factorFromTotals(NO_OBSERVATIONS)).toBe(1);
    expect(observationTotals({ estimated: 0, actual: 30 })).toEqual(NO_OBSERVATIONS);
    expect(factorFromTotals(sum(Array.from({ length: 9 }, () => ({ estimated: 100, actual: 1 }))))).toBe(FACTOR_BOUNDS.min);
  });
});

describe('the calibration chain: kind of job, account, install, 1', () => {
  const totals = (ratios: number[]) =>
    ratios.map((actual) => observationTotals({ estimated: 100, actual: 100 * actual })).reduce((sum, one) => combineTotals(sum, one), NO_OBSERVATIONS);
  const pooled = (accounts: number, ratios: number[]): PooledTotals => ({ accounts, totals: totals(ratios) });

  it('is 1 with nothing anywhere, and equals the single factor for an account with no kinds and no install', () => {
    expect(chainedFactor(NO_OBSERVATIONS, NO_OBSERVATIONS, null)).toBe(1);
    const account = totals([1.4, 1.2, 1.3]);
    expect(chainedFactor(NO_OBSERVATIONS, account, null)).toBeCloseTo(factorFromTotals(account), 12);
  });

  it('follows the account while a kind has few reports, and the kind once it has many', () => {
    const account = totals([...Array(10).fill(0.8), ...Array(2).fill(1.5)]);
    const accountOnly = chainedFactor(NO_OBSERVATIONS, account, null);
    const fewDismantles = chainedFactor(totals([1.5]), account, null);
    const manyDismantles = chainedFactor(totals(Array(20).fill(1.5)), account, null);
    expect(fewDismantles).toBeGreaterThan(accountOnly);
    expect(fewDismantles).toBeLessThan(manyDismantles);
    expect(manyDismantles).toBeGreaterThan(1.3);
    // The straight fells of the same account go the other way.
    expect(chainedFactor(totals(Array(10).fill(0.8)), account, null)).toBeLessThan(accountOnly);
  });

  it('starts a new account from the install only when at least 3 accounts are behind it', () => {
    const install = Array(30).fill(1.4);
    expect(chainedFactor(NO_OBSERVATIONS, NO_OBSERVATIONS, pooled(2, install))).toBe(1);
    const fromInstall = chainedFactor(NO_OBSERVATIONS, NO_OBSERVATIONS, pooled(MIN_POOLED_ACCOUNTS, install));
    expect(fromInstall).toBeGreaterThan(1.3);
    expect(fromInstall).toBeCloseTo(Math.exp(installLog(pooled(3, install))), 12);
    // The account's own jobs pull away from the install's starting point as they add up.
    const own = (n: number) => chainedFactor(NO_OBSERVATIONS, totals(Array(n).fill(0.9)), pooled(3, install));
    expect(own(2)).toBeLessThan(fromInstall);
    expect(own(20)).toBeLessThan(own(2));
    expect(own(20)).toBeLessThan(1);
  });

  it('stays within the bounds whatever the reports say', () => {
    expect(chainedFactor(totals(Array(50).fill(10)), totals(Array(50).fill(10)), null)).toBe(FACTOR_BOUNDS.max);
    expect(chainedFactor(totals(Array(50).fill(0.05)), totals(Array(50).fill(0.05)), null)).toBe(FACTOR_BOUNDS.min);
  });

  it('shrinks in logs with the prior worth k jobs', () => {
    const two = totals([2, 2]);
    expect(shrunkLog(two, 0, 2)).toBeCloseTo(Math.log(2) / 2, 6);
    expect(shrunkLog(NO_OBSERVATIONS, 0.3, 2)).toBe(0.3);
  });

  it('says what an estimate was calibrated from', () => {
    expect(calibratedFromText('climb_dismantle', 6, 20, null)).toBe('Calibrated from 6 of your dismantles and 14 of your other jobs');
    expect(calibratedFromText('straight_fell', 0, 3, null)).toBe('Calibrated from 3 of your jobs');
    expect(calibratedFromText('section_fell', 2, 2, 1)).toBe('Calibrated from 2 of your section fells');
    expect(calibratedFromText('straight_fell', 0, 0, 4)).toBe('Calibrated from the reported jobs of 4 crews on this service');
    expect(calibratedFromText('straight_fell', 0, 0, 2)).toBeNull();
  });
});
