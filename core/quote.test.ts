import { describe, expect, it } from 'vitest';
import { describeMethod, formatQuoteDate, includedWork, quoteValidUntil, vatBreakdown } from './quote';

describe('vatBreakdown', () => {
  it('adds 20% in whole pence: price ex VAT, VAT, total inc VAT', () => {
    expect(vatBreakdown(10_000)).toEqual({ netPence: 10_000, vatPence: 2_000, grossPence: 12_000 });
    expect(vatBreakdown(6_753)).toEqual({ netPence: 6_753, vatPence: 1_351, grossPence: 8_104 });
    expect(vatBreakdown(10_502)).toEqual({ netPence: 10_502, vatPence: 2_100, grossPence: 12_602 });
    expect(vatBreakdown(0)).toEqual({ netPence: 0, vatPence: 0, grossPence: 0 });
  });

  it('rounds a half penny up (at 20% a whole-penny price never lands on one; at 5% it can)', () => {
    expect(vatBreakdown(10, 5).vatPence).toBe(1);
    expect(vatBreakdown(30, 5).vatPence).toBe(2);
    expect(vatBreakdown(29, 5).vatPence).toBe(1);
    expect(vatBreakdown(1, 20).vatPence).toBe(0);
    expect(vatBreakdown(3, 20).vatPence).toBe(1);
  });

  it('is exact at the largest price a decimal(10,2) rate can give (no float drift)', () => {
    // £99,999,999.99: VAT 1,999,999,999.8p rounds to 2,000,000,000p.
    expect(vatBreakdown(9_999_999_999)).toEqual({ netPence: 9_999_999_999, vatPence: 2_000_000_000, grossPence: 11_999_999_999 });
  });
});

describe('quoteValidUntil', () => {
  const day = (d: Date) => formatQuoteDate(d);

  it('adds the validity in calendar days to the UK date of issue', () => {
    expect(day(quoteValidUntil(new Date('2026-11-22T10:30:00Z'), 30))).toBe('22 December 2026');
    expect(day(quoteValidUntil(new Date('2026-01-31T12:00:00Z'), 1))).toBe('1 February 2026');
    expect(day(quoteValidUntil(new Date('2028-02-28T12:00:00Z'), 1))).toBe('29 February 2028');
    expect(day(quoteValidUntil(new Date('2026-06-01T09:00:00Z'), 365))).toBe('1 June 2027');
  });

  it('takes the London date, not the UTC one, around midnight in summer time', () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London.
    expect(day(new Date('2026-06-30T23:30:00Z'))).toBe('1 July 2026');
    expect(day(quoteValidUntil(new Date('2026-06-30T23:30:00Z'), 30))).toBe('31 July 2026');
  });

  it('is not moved by a clock change inside the period', () => {
    // British Summer Time starts on 29 March 2026 and ends on 25 October 2026.
    expect(day(quoteValidUntil(new Date('2026-03-28T23:30:00Z'), 1))).toBe('29 March 2026');
    expect(day(quoteValidUntil(new Date('2026-10-24T23:30:00Z'), 7))).toBe('1 November 2026');
  });
});

describe('describeMethod', () => {
  it("turns the time model's method into a customer's sentence", () => {
    expect(describeMethod('straight_fell')?.title).toBe('Straight fell');
    expect(describeMethod('section_fell')?.sentence).toMatch(/in sections from the ground/);
    expect(describeMethod('climb_dismantle')).toMatchObject({ title: 'Climb and dismantle', sentence: expect.stringMatching(/lowering each piece on ropes/) });
    expect(describeMethod(null)).toBeNull();
    expect(describeMethod('helicopter')).toBeNull();
  });
});

describe('includedWork', () => {
  const flags = (items: ReturnType<typeof includedWork>) => items.filter((i) => !i.included).map((i) => i.text);

  it('follows the site answers', () => {
    expect(flags(includedWork({ stumpGrinding: true, wasteRemoval: true }))).toEqual([]);
    expect(flags(includedWork({ stumpGrinding: false, wasteRemoval: false }))).toEqual([
      'Stump grinding (stump left low at ground level)',
      'Waste removal (wood left on site in rounds)',
    ]);
  });

  it("takes the estimate's assumptions for unanswered questions: no grinding, waste taken away", () => {
    expect(flags(includedWork({}))).toEqual(['Stump grinding (stump left low at ground level)']);
    expect(flags(includedWork(null))).toEqual(['Stump grinding (stump left low at ground level)']);
  });

  it("trusts what the time model says it included over the answers", () => {
    const items = includedWork({}, ['Stump grinding included in cleanup', 'Wood left on site in rounds']);
    expect(flags(items)).toEqual(['Waste removal (wood left on site in rounds)']);
  });
});
