import { describe, expect, it } from 'vitest';
import { accuracySchema } from '../../core/accuracy';
import { chainedFactor, NO_OBSERVATIONS, observationTotals, combineTotals, type JobKind } from '../../core/calibration';
import { measureAccuracy, median, type ReportedJob } from './accuracy';

/*
 * The accuracy a contractor sees. Medians of absolute percentage errors, and
 * the calibrated estimate of each job from only the jobs reported before it.
 */
const DAY = 86_400_000;
const START = Date.parse('2026-03-02T08:00:00Z');

function job(
  index: number,
  actual: Partial<Record<'cutting' | 'prep' | 'cleanup', number | null>>,
  options: { kind?: JobKind | null; base?: Record<'cutting' | 'prep' | 'cleanup', number>; jobId?: number | null } = {},
): ReportedJob {
  return {
    analysisId: index + 1,
    jobId: options.jobId ?? null,
    reportedAt: new Date(START + index * DAY),
    kind: options.kind === undefined ? 'straight_fell' : options.kind,
    base: options.base ?? { cutting: 60, prep: 20, cleanup: 40 },
    actual: { cutting: actual.cutting ?? null, prep: actual.prep ?? null, cleanup: actual.cleanup ?? null },
  };
}

const exact = (estimate: number, actual: number) => (Math.abs(estimate - actual) / actual) * 100;
/** As the answer gives it: to 0.1 %. */
const percent = (estimate: number, actual: number) => Math.round(exact(estimate, actual) * 10) / 10;
const meanOfTwo = (a: number, b: number) => Math.round(((a + b) / 2) * 10) / 10;

describe('median', () => {
  it('is the middle value, or the mean of the middle two, whatever the order; null for none', () => {
    expect(median([])).toBeNull();
    expect(median([7])).toBe(7);
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 30, 20])).toBe(25);
  });
});

describe('measureAccuracy', () => {
  it('answers nothing to compare before any feedback', () => {
    const none = { cutting: null, prep: null, cleanup: null, total: null };
    const answer = measureAccuracy([]);
    expect(accuracySchema.parse(answer)).toEqual({
      trees: 0,
      jobs: 0,
      limit: 500,
      original: none,
      calibratedTrees: 0,
      calibrated: none,
      originalOnCalibratedTrees: none,
      series: [],
    });
  });

  it('measures one job against its own estimate, and calibrates nothing from it', () => {
    const answer = measureAccuracy([job(0, { cutting: 90, prep: 20, cleanup: 30 })]);
    expect(answer.trees).toBe(1);
    expect(answer.jobs).toBe(1);
    // 60 vs 90 cutting, 20 vs 20 prep, 40 vs 30 cleanup; 120 vs 140 in all.
    expect(answer.original).toEqual({ cutting: percent(60, 90), prep: 0, cleanup: percent(40, 30), total: percent(120, 140) });
    expect(answer.calibratedTrees).toBe(0);
    expect(answer.calibrated.total).toBeNull();
    expect(answer.series).toEqual([
      { analysisId: 1, reportedAt: new Date(START).toISOString(), kind: 'straight_fell', originalError: percent(120, 140), calibratedError: null },
    ]);
  });

  it('compares the total over the components reported only, and skips a component whose actual is 0', () => {
    const answer = measureAccuracy([job(0, { cutting: 30 }), job(1, { cutting: 45, prep: 0 })]);
    // Job 1: cutting only, 60 vs 30. Job 2: cutting 60 vs 45; prep 20 vs 0 has no percentage, but counts in the total: 80 vs 45.
    expect(answer.series[0]!.originalError).toBe(percent(60, 30));
    expect(answer.series[1]!.originalError).toBe(percent(80, 45));
    expect(answer.original.cutting).toBe(meanOfTwo(exact(60, 30), exact(60, 45)));
    expect(answer.original.prep).toBeNull();
    expect(answer.original.cleanup).toBeNull();
  });

  it('calibrates each job from the jobs reported before it only, through the chain kind -> account -> 1', () => {
    const jobs = [
      job(0, { cutting: 120 }, { kind: 'climb_dismantle' }),
      job(1, { cutting: 30 }, { kind: 'straight_fell' }),
      job(2, { cutting: 150 }, { kind: 'climb_dismantle' }),
    ];
    const answer = measureAccuracy(jobs);
    const ratio = (actual: number) => observationTotals({ estimated: 60, actual });
    // Job 2 (a fell) knows only job 1 (a dismantle): no fells yet, so the account's factor.
    const second = 60 * chainedFactor(NO_OBSERVATIONS, ratio(120), null);
    // Job 3 (a dismantle) knows jobs 1 and 2; its kind's totals are job 1's.
    const third = 60 * chainedFactor(ratio(120), combineTotals(ratio(120), ratio(30)), null);
    expect(answer.series.map((p) => p.calibratedError)).toEqual([null, percent(second, 30), percent(third, 150)]);
    expect(answer.calibratedTrees).toBe(2);
    expect(answer.calibrated.cutting).toBe(meanOfTwo(exact(second, 30), exact(third, 150)));
    // The same two jobs, as the model estimated them.
    expect(answer.originalOnCalibratedTrees.cutting).toBe(meanOfTwo(exact(60, 30), exact(60, 150)));
  });

  it('never lets a job calibrate itself or anything reported before it', () => {
    const jobs = [job(0, { cutting: 90, prep: 25 }), job(1, { cutting: 80, prep: 30 }), job(2, { cutting: 100, cleanup: 50 })];
    const answer = measureAccuracy(jobs);
    // Whatever the last job's actual times, every earlier job's figures stay as they were...
    const changed = measureAccuracy([...jobs.slice(0, 2), job(2, { cutting: 1000, cleanup: 5 })]);
    expect(changed.series.slice(0, 2)).toEqual(answer.series.slice(0, 2));
    // ...and its own calibrated estimate is the same minutes, measured against its new actual.
    const factor = chainedFactor(
      combineTotals(observationTotals({ estimated: 60, actual: 90 }), observationTotals({ estimated: 60, actual: 80 })),
      combineTotals(observationTotals({ estimated: 60, actual: 90 }), observationTotals({ estimated: 60, actual: 80 })),
      null,
    );
    expect(changed.series[2]!.calibratedError).toBe(percent(60 * factor + 40, 1005));
    expect(answer.series[2]!.calibratedError).toBe(percent(60 * factor + 40, 150));
  });

  it('shows the gain on a crew with a steady bias, and separates opposite biases by kind of job', () => {
    // Fells take 0.7x the estimate and dismantles 1.5x, alternately.
    const jobs = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? job(i, { cutting: 42, prep: 14, cleanup: 28 }, { kind: 'straight_fell' })
        : job(i, { cutting: 90, prep: 30, cleanup: 60 }, { kind: 'climb_dismantle' }),
    );
    const answer = accuracySchema.parse(measureAccuracy(jobs));
    expect(answer.trees).toBe(20);
    expect(answer.calibratedTrees).toBe(19);
    // Ten fells 42.9 % off and ten dismantles 33.3 % off: the median is the mean of the middle two.
    expect(answer.original.total).toBe(meanOfTwo(exact(120, 84), exact(120, 180)));
    expect(answer.calibrated.total!).toBeLessThan(answer.originalOnCalibratedTrees.total!);
    // Each kind's estimates close in on its own times with every report (fells from below, dismantles from above)...
    for (const kind of ['straight_fell', 'climb_dismantle'] as const) {
      const errors = answer.series.filter((p) => p.kind === kind && p.calibratedError !== null).map((p) => p.calibratedError!);
      expect(errors, kind).toEqual([...errors].sort((a, b) => b - a));
      expect(new Set(errors).size, kind).toBe(errors.length);
      // ...and by the last report of each, the error is well under the model's own (the
      // shrinkage's priors set how far; core/calibration.ts).
      expect(errors.at(-1)!, kind).toBeLessThan(answer.series.find((p) => p.kind === kind)!.originalError! * 0.6);
    }
  });

  it('counts trees as trees and jobs as jobs: three trees of one job, and a tree reported on its own', () => {
    // Seen before: "Over your 3 jobs" for three trees of one job.
    const oneJob = [0, 1, 2].map((i) => job(i, { cutting: 60 }, { jobId: 7 }));
    expect(measureAccuracy(oneJob)).toMatchObject({ trees: 3, jobs: 1, calibratedTrees: 2 });
    expect(measureAccuracy([...oneJob, job(3, { cutting: 60 }), job(4, { cutting: 60 }, { jobId: 9 })])).toMatchObject({ trees: 5, jobs: 3 });
  });

  it('calibrates a job of no known kind from the account as a whole', () => {
    const answer = measureAccuracy([job(0, { cutting: 120 }, { kind: 'climb_dismantle' }), job(1, { cutting: 120 }, { kind: null })]);
    const factor = chainedFactor(NO_OBSERVATIONS, observationTotals({ estimated: 60, actual: 120 }), null);
    expect(answer.series[1]).toMatchObject({ kind: null, calibratedError: percent(60 * factor, 120) });
  });
});
