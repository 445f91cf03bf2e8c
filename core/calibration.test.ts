import { describe, expect, it } from 'vitest';
import {
  calibrationFactor,
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
