import { describe, expect, it } from 'vitest';
import { normalUpperTail, overrunChance, paceOf, PRIOR_SPREAD } from './overrun';

describe('normalUpperTail', () => {
  it('matches the standard normal table', () => {
    expect(normalUpperTail(0)).toBeCloseTo(0.5, 6);
    expect(normalUpperTail(1.96)).toBeCloseTo(0.025, 4);
    expect(normalUpperTail(-1)).toBeCloseTo(0.8413, 4);
    expect(normalUpperTail(8)).toBeLessThan(1e-6);
  });
});

describe('paceOf', () => {
  it('is factor 1 with no spread without past jobs', () => {
    expect(paceOf([])).toEqual({ mu: 0, sigma: 0, jobs: 0 });
  });

  it('shrinks a slow crew toward 1 as the calibration does, and its spread toward the prior', () => {
    const one = paceOf([1.3]);
    expect(Math.exp(one.mu)).toBeCloseTo(Math.exp(Math.log(1.3) / 3), 6);
    expect(one.sigma).toBeCloseTo(PRIOR_SPREAD, 6);
    const many = paceOf(Array(20).fill(1.3));
    expect(Math.exp(many.mu)).toBeGreaterThan(1.25);
    expect(many.sigma).toBeLessThan(PRIOR_SPREAD / 2);
  });

  it('holds a typo within the calibration bounds', () => {
    expect(paceOf([100]).mu).toBeCloseTo(Math.log(3) / 3, 6);
    expect(paceOf([0, -1, Number.NaN])).toEqual({ mu: 0, sigma: 0, jobs: 0 });
  });
});

describe('overrunChance', () => {
  it('is null with no bookings', () => {
    expect(overrunChance([], 960)).toBeNull();
  });

  it('is a half when the capacity sits at the middle of the range, and near 0 or 1 far from it', () => {
    expect(overrunChance([{ min: 400, max: 560 }], 480)).toBe(0.5);
    expect(overrunChance([{ min: 200, max: 300 }], 480)).toBe(0);
    expect(overrunChance([{ min: 600, max: 700 }], 480)).toBe(1);
  });

  it('rises with the planned work', () => {
    const light = overrunChance([{ min: 300, max: 500 }], 960)!;
    const heavy = overrunChance([{ min: 300, max: 500 }, { min: 300, max: 500 }], 960)!;
    const heavier = overrunChance([{ min: 300, max: 500 }, { min: 300, max: 500 }, { min: 100, max: 200 }], 960)!;
    expect(light).toBeLessThan(heavy);
    expect(heavy).toBeLessThan(heavier);
  });

  it('is higher for a crew that has run slow than for the ranges alone, lower for a quick one', () => {
    const day = [{ min: 300, max: 420 }, { min: 300, max: 420 }];
    const alone = overrunChance(day, 780)!;
    const slow = overrunChance(day, 780, Array(10).fill(1.25))!;
    const quick = overrunChance(day, 780, Array(10).fill(0.8))!;
    expect(slow).toBeGreaterThan(alone);
    expect(quick).toBeLessThan(alone);
  });

  it('is 0 or 1 exactly for a range with no width and no past jobs, and 1 for work on a day of no capacity', () => {
    expect(overrunChance([{ min: 480, max: 480 }], 480)).toBe(0);
    expect(overrunChance([{ min: 481, max: 481 }], 480)).toBe(1);
    expect(overrunChance([{ min: 60, max: 90 }], 0)).toBe(1);
  });

  it('stays within 0 to 1 for any input', () => {
    for (const [min, max, cap] of [[0, 0, 0], [-5, 10, 3], [1e9, 2e9, 1], [10, 5, 7]] as const) {
      const chance = overrunChance([{ min, max }], cap, [0.5, 3, 1])!;
      expect(chance).toBeGreaterThanOrEqual(0);
      expect(chance).toBeLessThanOrEqual(1);
    }
  });
});
