import { describe, expect, it } from 'vitest';
import { costRange, formatCostRange, formatTimeRange, formatTotalTime, totalMinutes } from './format';
import { costForMinutes, formatGbp, parsePence, penceToDecimal } from './money';

describe('formatTimeRange (SPEC 9)', () => {
  it('shows a single value when min equals max', () => {
    expect(formatTimeRange({ min: 45, max: 45 })).toBe('45 min');
    expect(formatTimeRange({ min: 90, max: 90 })).toBe('1h 30m');
  });
  it('shows hours and minutes when both are at or above 60', () => {
    expect(formatTimeRange({ min: 60, max: 150 })).toBe('1h - 2h 30m');
  });
  it('shows a minute range otherwise', () => {
    expect(formatTimeRange({ min: 30, max: 45 })).toBe('30-45 min');
    expect(formatTimeRange({ min: 45, max: 75 })).toBe('45-75 min');
  });
});

describe('total time', () => {
  const t = { cuttingTimeMin: 30, cuttingTimeMax: 45, prepTimeMin: 20, prepTimeMax: 30, cleanupTimeMin: 25, cleanupTimeMax: 40 };
  it('sums the minimums and the maximums', () => {
    expect(totalMinutes(t)).toEqual({ min: 75, max: 115 });
  });
  it('is in hours to one decimal when the minimum is at least 60 minutes', () => {
    expect(formatTotalTime({ min: 75, max: 115 })).toBe('1.3-1.9 hours');
    expect(formatTotalTime({ min: 120, max: 120 })).toBe('2.0 hours');
  });
  it('is in minutes below 60, a single value when equal', () => {
    expect(formatTotalTime({ min: 40, max: 55 })).toBe('40-55 min');
    expect(formatTotalTime({ min: 40, max: 40 })).toBe('40 min');
  });
});

describe('cost (SPEC 9)', () => {
  it('is total hours times the hourly rate, in pence', () => {
    expect(costRange({ min: 90, max: 120 }, 4500)).toEqual({ minPence: 6750, maxPence: 9000 });
    expect(formatCostRange({ minPence: 6750, maxPence: 9000 })).toBe('£67.50 - £90.00');
  });
  it('is a single value when min and max agree', () => {
    expect(formatCostRange(costRange({ min: 60, max: 60 }, 3333)!)).toBe('£33.33');
  });
  it('is absent when the rate is 0', () => {
    expect(costRange({ min: 60, max: 90 }, 0)).toBeNull();
  });
  it('rounds to the nearest penny without float drift', () => {
    expect(costForMinutes(7, 1999)).toBe(233); // 7/60 * 19.99 = 2.332
    expect(costForMinutes(1, 1)).toBe(0);
  });
});

describe('money text', () => {
  it('parses decimal text into pence', () => {
    expect(parsePence('12.5')).toBe(1250);
    expect(parsePence('0.07')).toBe(7);
    expect(parsePence('45')).toBe(4500);
    expect(parsePence('')).toBe(0);
    expect(parsePence('12.345')).toBeUndefined();
    expect(parsePence('-1')).toBeUndefined();
    expect(parsePence('1e3')).toBeUndefined();
  });
  it('formats pence as decimal text and as pounds', () => {
    expect(penceToDecimal(1250)).toBe('12.50');
    expect(penceToDecimal(5)).toBe('0.05');
    expect(formatGbp(123456)).toBe('£1,234.56');
  });
});
