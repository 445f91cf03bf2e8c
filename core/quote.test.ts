import { describe, expect, it } from 'vitest';
import { describeMethod, formatQuoteDate, includedWork, quoteValidUntil, siteAssumptions } from './quote';

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

describe('siteAssumptions', () => {
  it('lists what the estimate took for each unanswered site question, and nothing when all were answered', () => {
    const factors = ['Method: section fell', 'Not answered, assumed: fence or shed within falling distance, side gate only access, no stump grinding', 'Wood and chippings taken away'];
    expect(siteAssumptions(factors)).toEqual(['fence or shed within falling distance', 'side gate only access', 'no stump grinding']);
    expect(siteAssumptions(['Method: straight fell'])).toEqual([]);
  });
});
