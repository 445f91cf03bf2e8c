import { describe, expect, it } from 'vitest';
import { cancellationPeriodLine, cancellationPeriodMessage, cancellationPeriodOf, startsInsideCancellationPeriod } from './cancellation-period';

/*
 * The period's days are UK calendar days (core/cancellation-period.ts): an acceptance late in a
 * London evening in summer is already the next day there, and the 14 days run across a month's
 * and a year's end as the calendar does.
 */
describe('cancellationPeriodOf', () => {
  it('ends 14 UK days after the UK day of acceptance; booking is from the day after', () => {
    expect(cancellationPeriodOf(new Date('2026-06-01T09:00:00Z'))).toEqual({ lastDay: '2026-06-15', firstDay: '2026-06-16' });
  });

  it('counts from the London day: 23:30 UTC in June is 00:30 the next day in London, in December it is not', () => {
    expect(cancellationPeriodOf(new Date('2026-06-01T23:30:00Z'))).toEqual({ lastDay: '2026-06-16', firstDay: '2026-06-17' });
    expect(cancellationPeriodOf(new Date('2026-12-01T23:30:00Z'))).toEqual({ lastDay: '2026-12-15', firstDay: '2026-12-16' });
  });

  it('runs across the year end and a leap day', () => {
    expect(cancellationPeriodOf(new Date('2026-12-20T12:00:00Z'))).toEqual({ lastDay: '2027-01-03', firstDay: '2027-01-04' });
    expect(cancellationPeriodOf(new Date('2028-02-20T12:00:00Z'))).toEqual({ lastDay: '2028-03-05', firstDay: '2028-03-06' });
  });
});

describe('startsInsideCancellationPeriod', () => {
  const period = { lastDay: '2026-06-15', firstDay: '2026-06-16' };
  it('holds a start on any day up to the last day, unless the customer asked; never a trade quote', () => {
    expect(startsInsideCancellationPeriod(period, false, '2026-06-15')).toBe(true);
    expect(startsInsideCancellationPeriod(period, false, '2026-06-16')).toBe(false);
    expect(startsInsideCancellationPeriod(period, true, '2026-06-02')).toBe(false);
    expect(startsInsideCancellationPeriod(null, false, '2026-06-02')).toBe(false);
  });

  it('says the days in words', () => {
    expect(cancellationPeriodMessage(period)).toBe(
      "The customer's 14-day cancellation period ends on Monday 15 June 2026; book from Tuesday 16 June 2026, or ask the customer whether they want the work to start sooner.",
    );
  });
});

describe('cancellationPeriodLine', () => {
  const period = { lastDay: '2026-06-15', firstDay: '2026-06-16', earlyStartRequestedAt: null, earlyStartAskedAt: null };
  it('says which applies: the period, an ask waiting, or the customer’s request; nothing once the period is over', () => {
    expect(cancellationPeriodLine(period, '2026-06-03')).toBe('Cancellation period until Monday 15 June 2026: booking from Tuesday 16 June 2026.');
    expect(cancellationPeriodLine({ ...period, earlyStartAskedAt: '2026-06-02T23:30:00Z' }, '2026-06-03')).toBe('Early start asked Wednesday 3 June 2026, waiting for the customer.');
    expect(cancellationPeriodLine({ ...period, earlyStartAskedAt: '2026-06-02T10:00:00Z', earlyStartRequestedAt: '2026-06-04T10:00:00Z' }, '2026-06-20')).toBe(
      'The customer asked to start early on Thursday 4 June 2026.',
    );
    expect(cancellationPeriodLine({ ...period, earlyStartAskedAt: '2026-06-02T10:00:00Z' }, '2026-06-16')).toBeNull();
  });
});
