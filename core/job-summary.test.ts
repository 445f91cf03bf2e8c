import { describe, expect, it } from 'vitest';
import { acceptedGrossPence, jobListQuerySchema, matchesSearch, quotedGrossPence, ukMonth } from './job-summary';

describe('this month, in the UK', () => {
  const month = (iso: string) => {
    const { start, end } = ukMonth(new Date(iso));
    return [start.toISOString(), end.toISOString()];
  };

  it('runs from midnight on the 1st to the next 1st, British Summer Time or not', () => {
    expect(month('2026-07-15T12:00:00Z')).toEqual(['2026-06-30T23:00:00.000Z', '2026-07-31T23:00:00.000Z']);
    expect(month('2026-01-15T12:00:00Z')).toEqual(['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z']);
    // The months the clocks change in: March starts in GMT and ends in BST, October the other way.
    expect(month('2026-03-31T12:00:00Z')).toEqual(['2026-03-01T00:00:00.000Z', '2026-03-31T23:00:00.000Z']);
    expect(month('2026-10-31T12:00:00Z')).toEqual(['2026-09-30T23:00:00.000Z', '2026-11-01T00:00:00.000Z']);
    expect(month('2026-12-31T23:59:59Z')).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
  });

  it("puts the UK's first hour of a summer month in that month, not the one UTC is still in", () => {
    expect(month('2026-06-30T23:30:00Z')[0]).toBe('2026-06-30T23:00:00.000Z');
    expect(month('2026-06-30T22:59:59Z')[0]).toBe('2026-05-31T23:00:00.000Z');
  });
});

describe("a quote's value", () => {
  const items = [
    { id: 1, pricePence: 33_333, optional: false },
    { id: 2, pricePence: 5_000, optional: true },
  ];

  it('quoted: the included items, with VAT by the quote\'s own mode and rate', () => {
    expect(quotedGrossPence({ items, vatMode: 'ex', vatRatePercent: 20 })).toBe(40_000);
    expect(quotedGrossPence({ items, vatMode: 'inc', vatRatePercent: 20 })).toBe(33_333);
    expect(quotedGrossPence({ items, vatMode: 'none', vatRatePercent: 20 })).toBe(33_333);
  });

  it('accepted: with the optional items chosen, VAT on the total (£383.33 + £76.67)', () => {
    expect(acceptedGrossPence({ items, vatMode: 'ex', vatRatePercent: 20 }, [2])).toBe(46_000);
    expect(acceptedGrossPence({ items, vatMode: 'ex', vatRatePercent: 20 }, [])).toBe(40_000);
  });
});

describe('the search', () => {
  it('finds every word in any case and accent, "%" and "_" literally', () => {
    const wojcik = ['Łukasz Wójcik', 'lukasz@example.com', 'Q-000001'];
    expect(matchesSearch(wojcik, 'wojcik')).toBe(true);
    expect(matchesSearch(wojcik, 'ŁUKASZ')).toBe(true);
    expect(matchesSearch(wojcik, 'lukasz wójcik')).toBe(true);
    expect(matchesSearch(wojcik, 'q-000001')).toBe(true);
    expect(matchesSearch(wojcik, 'wojcik nobody')).toBe(false);
    expect(matchesSearch(['Zoë Ash', null], 'zoe')).toBe(true);
    expect(matchesSearch(['100% Trees_Ltd'], '%')).toBe(true);
    expect(matchesSearch(['Sam Birch'], '%')).toBe(false);
    expect(matchesSearch(['Sam Birch'], 's_m')).toBe(false);
    expect(matchesSearch(['Sam Birch'], '')).toBe(true);
  });

  it('takes at most 100 characters and a known status', () => {
    expect(jobListQuerySchema.parse({ q: '  wojcik ' })).toEqual({ q: 'wojcik' });
    expect(jobListQuerySchema.parse({})).toEqual({ q: '' });
    expect(jobListQuerySchema.safeParse({ q: 'a'.repeat(101) }).success).toBe(false);
    expect(jobListQuerySchema.safeParse({ status: 'lost' }).success).toBe(false);
  });
});
