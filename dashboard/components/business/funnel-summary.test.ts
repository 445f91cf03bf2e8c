import { describe, expect, it } from 'vitest';
import { summariseFunnel } from './funnel-summary';

const day = (date: string, loads: number, photos: number, estimates: number, needsDetails: number, leads: number, trees = leads) => ({
  date,
  loads,
  photos,
  estimates,
  needsDetails,
  leads,
  trees,
  turnedAway: 0,
});

describe('summariseFunnel', () => {
  it('adds the days and gives each step as a share of the one before', () => {
    const summary = summariseFunnel([day('2026-11-24', 30, 12, 8, 2, 1), day('2026-11-25', 10, 4, 2, 1, 1)]);
    expect(summary.totals).toEqual({ loads: 40, photos: 16, estimates: 10, needsDetails: 3, leads: 2, trees: 2 });
    expect(summary.rates).toEqual({ photosPerLoad: 40, estimatesPerPhoto: 63, requestedPerEstimate: 20 });
    expect(summary.treesPerLead).toBe(1);
  });

  it('counts the trees of requests that carry several, and how many a request carries on average', () => {
    const summary = summariseFunnel([day('2026-11-24', 20, 9, 7, 0, 2, 5), day('2026-11-25', 5, 3, 3, 0, 1, 2)]);
    expect(summary.totals).toMatchObject({ leads: 3, trees: 7 });
    expect(summary.treesPerLead).toBe(2.3);
    expect(summary.rates.requestedPerEstimate).toBe(70);
  });

  it('has no rate where the step before counted nothing', () => {
    const summary = summariseFunnel([day('2026-11-25', 0, 0, 0, 0, 0)]);
    expect(summary.rates).toEqual({ photosPerLoad: null, estimatesPerPhoto: null, requestedPerEstimate: null });
    expect(summary.treesPerLead).toBeNull();
  });
});
