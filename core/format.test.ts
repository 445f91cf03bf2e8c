import { describe, expect, it } from 'vitest';
import {
  costRange,
  formatCostRange,
  formatDuration,
  formatTimeRange,
  formatTotalTime,
  parseDuration,
  totalMinutes,
} from './format';
import { costForMinutes, formatGbp, parsePence, penceToDecimal } from './money';

describe('formatTimeRange', () => {
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

describe('cost', () => {
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

describe('feedback durations', () => {
  it('reads a bare number as whole minutes', () => {
    expect(parseDuration('45')).toBe(45);
    expect(parseDuration(' 400 ')).toBe(400);
    expect(parseDuration('0')).toBe(0);
  });
  it('reads minutes with a unit', () => {
    expect(parseDuration('45m')).toBe(45);
    expect(parseDuration('45 min')).toBe(45);
    expect(parseDuration('45 Minutes')).toBe(45);
  });
  it('reads hours and minutes the way the estimates are written', () => {
    expect(parseDuration('5h 30m')).toBe(330);
    expect(parseDuration('2h30')).toBe(150);
    expect(parseDuration('2 hours 30 minutes')).toBe(150);
    expect(parseDuration('2 hours and 5 mins')).toBe(125);
    expect(parseDuration('3h')).toBe(180);
    expect(parseDuration('1 hr')).toBe(60);
  });
  it('reads decimal hours and clock time, rounding to the nearest minute', () => {
    expect(parseDuration('2.5h')).toBe(150);
    expect(parseDuration('1.33 hours')).toBe(80);
    expect(parseDuration('2:05')).toBe(125);
  });
  it('refuses what it cannot read, negatives, fractions of a minute and more than the API takes', () => {
    for (const text of ['', 'abc', '-5', '2.5', '2:75', 'h', '5m 2h', '100001', '2000h']) {
      expect(parseDuration(text), text).toBeNull();
    }
    expect(parseDuration('100000')).toBe(100_000);
  });
  it('shows a time again in the form it reads', () => {
    expect(formatDuration(45)).toBe('45 min');
    expect(formatDuration(330)).toBe('5h 30m');
    expect(formatDuration(120)).toBe('2h');
    for (const minutes of [0, 45, 60, 330, 1439]) expect(parseDuration(formatDuration(minutes))).toBe(minutes);
  });
});
