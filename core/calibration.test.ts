import { describe, expect, it } from 'vitest';
import { calibrationFactor } from './calibration';

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
