import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { formatGbp } from '../../core/money';
import { VAT_MODES } from '../../core/price';
import { quoteTotals } from '../../core/quote-totals';
import { TOTALS_JS } from './live-total';

/*
 * The page's live total is a copy of quoteTotals and formatGbp in browser JavaScript
 * (live-total.ts): run here as the browser runs it, it must add up and write money as they do.
 */
const script = runInNewContext(`${TOTALS_JS}; ({ totals: totals, gbp: gbp })`) as {
  totals(shownPence: number, vatMode: string, ratePercent: number): [number, number, number];
  gbp(pence: number): string;
};

describe("the quote page's live total", () => {
  const cases: { items: { pence: number; optional: boolean }[]; chosen: number[] }[] = [
    { items: [{ pence: 60000, optional: false }, { pence: 17500, optional: true }], chosen: [] },
    { items: [{ pence: 60000, optional: false }, { pence: 17500, optional: true }], chosen: [1] },
    { items: [{ pence: 122500, optional: false }], chosen: [] },
    // Odd pence, where VAT falls on a half penny and the 1/6 of an inc total is a fraction.
    { items: [{ pence: 23333, optional: false }, { pence: 45117, optional: false }, { pence: 1, optional: true }, { pence: 7, optional: true }], chosen: [2, 3] },
    { items: [{ pence: 5, optional: false }, { pence: 3, optional: true }], chosen: [1] },
    { items: [{ pence: 100_000_000, optional: false }, { pence: 99_999_999, optional: true }], chosen: [1] },
    { items: [{ pence: 0, optional: false }], chosen: [] },
  ];

  for (const vatMode of VAT_MODES) {
    it(`adds up as quoteTotals does, VAT ${vatMode}`, () => {
      for (const { items, chosen } of cases) {
        const priced = items.map((item, id) => ({ id, pricePence: item.pence, optional: item.optional }));
        const expected = quoteTotals(priced, new Set(chosen), vatMode, 20);
        const shown = priced.filter((item) => !item.optional || chosen.includes(item.id)).reduce((sum, item) => sum + item.pricePence, 0);
        expect(script.totals(shown, vatMode, 20)).toEqual([expected.netPence, expected.vatPence, expected.grossPence]);
      }
    });
  }

  it('writes money as formatGbp does', () => {
    for (const pence of [0, 5, 99, 100, 17500, 102083, 123456, 100_000_000, 199_999_999]) expect(script.gbp(pence)).toBe(formatGbp(pence));
  });
});
