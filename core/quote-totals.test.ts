import { describe, expect, it } from 'vitest';
import { quoteTotals, roundToStep, startingPricePence, type PricedItem } from './quote-totals';

const items: PricedItem[] = [
  { id: 1, pricePence: 60_000, optional: false }, // a conifer, £600
  { id: 2, pricePence: 45_000, optional: false }, // a sycamore crown reduction, £450
  { id: 3, pricePence: 17_500, optional: true }, // the hedge, £175, if the customer wants it
];

describe('quoteTotals', () => {
  it('adds the included items; an optional one only when chosen', () => {
    expect(quoteTotals(items, new Set(), 'none')).toEqual({ netPence: 105_000, vatPence: 0, grossPence: 105_000 });
    expect(quoteTotals(items, new Set([3]), 'none')).toEqual({ netPence: 122_500, vatPence: 0, grossPence: 122_500 });
    // An id that is not an optional item's changes nothing.
    expect(quoteTotals(items, new Set([1, 99]), 'none').grossPence).toBe(105_000);
  });

  it('adds VAT on top of an "ex" quote, once on the total', () => {
    expect(quoteTotals(items, new Set([3]), 'ex')).toEqual({ netPence: 122_500, vatPence: 24_500, grossPence: 147_000 });
  });

  it('takes the VAT out of an "inc" quote by the VAT fraction, so the customer pays the figures shown', () => {
    const totals = quoteTotals(items, new Set([3]), 'inc');
    expect(totals.grossPence).toBe(122_500);
    // 122,500 / 6 = 20,416.67 -> 20,417
    expect(totals.vatPence).toBe(20_417);
    expect(totals.netPence + totals.vatPence).toBe(totals.grossPence);
  });

  it('rounds VAT to the nearest penny, halves up, without float drift', () => {
    expect(quoteTotals([{ id: 1, pricePence: 1, optional: false }], new Set(), 'ex').vatPence).toBe(0); // 0.2p
    expect(quoteTotals([{ id: 1, pricePence: 3, optional: false }], new Set(), 'ex').vatPence).toBe(1); // 0.6p
    expect(quoteTotals([{ id: 1, pricePence: 5, optional: false }], new Set(), 'ex').vatPence).toBe(1); // 1.0p
    expect(quoteTotals([{ id: 1, pricePence: 15, optional: false }], new Set(), 'inc').vatPence).toBe(3); // 2.5p
    for (let pence = 0; pence < 2000; pence += 7) {
      const t = quoteTotals([{ id: 1, pricePence: pence, optional: false }], new Set(), 'inc');
      expect(t.netPence + t.vatPence).toBe(pence);
      expect(Number.isInteger(t.vatPence)).toBe(true);
    }
  });
});

describe('roundToStep', () => {
  it('rounds to the nearest £1, £5 or £10, halves up', () => {
    expect(roundToStep(123_449, 100)).toBe(123_400);
    expect(roundToStep(123_450, 100)).toBe(123_500);
    expect(roundToStep(123_249, 500)).toBe(123_000);
    expect(roundToStep(123_250, 500)).toBe(123_500);
    expect(roundToStep(124_999, 1000)).toBe(125_000);
    expect(roundToStep(0, 500)).toBe(0);
  });
});

describe('startingPricePence', () => {
  const estimate = { netMinPence: 50_000, netMaxPence: 70_100 }; // £500.00 - £701.00

  it('starts at the middle of the estimate, rounded by the rule', () => {
    expect(startingPricePence(estimate, 'none', 500)).toBe(60_000); // £600.50 -> £600
    expect(startingPricePence(estimate, 'ex', 100)).toBe(60_100); // £600.50 -> £601
  });

  it('starts including VAT for an "inc" quote', () => {
    expect(startingPricePence(estimate, 'inc', 500)).toBe(72_000); // £720.60 -> £720
    expect(startingPricePence(estimate, 'inc', 1000)).toBe(72_000);
  });

  it('starts at 0 without a price', () => {
    expect(startingPricePence(null, 'inc', 500)).toBe(0);
  });
});
