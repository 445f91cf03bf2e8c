import { describe, expect, it } from 'vitest';
import { addMonth, remainingShare, upgradeCredits, upgradePricePence } from './billing';

const start = new Date('2026-06-01T09:00:00Z');
const end = new Date('2026-07-01T09:00:00Z');
const at = (days: number) => new Date(start.getTime() + days * 24 * 3600_000);

describe('a plan change’s proration', () => {
  it('is the share of the period still to run, bounded to 0..1', () => {
    expect(remainingShare(start, end, start)).toBe(1);
    expect(remainingShare(start, end, at(15))).toBe(0.5);
    expect(remainingShare(start, end, at(-3))).toBe(1);
    expect(remainingShare(start, end, at(40))).toBe(0);
    expect(remainingShare(end, start, at(1))).toBe(0);
  });

  it('adds that share of the credit difference, to the nearest credit, never less than none', () => {
    expect(upgradeCredits(300, 1000, 1)).toBe(700);
    expect(upgradeCredits(300, 1000, 0.5)).toBe(350);
    expect(upgradeCredits(600, 1000, remainingShare(start, end, at(29)))).toBe(13);
    expect(upgradeCredits(1000, 300, 0.5)).toBe(0);
  });

  it('charges that share of the price difference in whole pence', () => {
    expect(upgradePricePence(3100, 7900, 1)).toBe(4800);
    expect(upgradePricePence(3100, 7900, 0.5)).toBe(2400);
    expect(upgradePricePence(6000, 7900, 1 / 3)).toBe(633);
    expect(upgradePricePence(7900, 3100, 0.5)).toBe(0);
  });
});

describe('addMonth', () => {
  it('is the same day next month, clamped to the end of a shorter month', () => {
    expect(addMonth(new Date('2026-01-15T10:00:00Z')).toISOString()).toBe('2026-02-15T10:00:00.000Z');
    expect(addMonth(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonth(new Date('2028-01-31T00:00:00Z')).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addMonth(new Date('2026-12-31T23:59:00Z')).toISOString()).toBe('2027-01-31T23:59:00.000Z');
  });
});
