import { describe, expect, it } from 'vitest';
import { summariseFunnel } from './funnel-summary';

const day = (date: string, loads: number, photos: number, estimates: number, needsDetails: number, leads: number) => ({ date, loads, photos, estimates, needsDetails, leads, turnedAway: 0 });

describe('summariseFunnel', () => {
  it('adds the days and gives each step as a share of the one before', () => {
    const summary = summariseFunnel([day('2026-11-24', 30, 12, 8, 2, 1), day('2026-11-25', 10, 4, 2, 1, 1)]);
    expect(summary.totals).toEqual({ loads: 40, photos: 16, estimates: 10, needsDetails: 3, leads: 2 });
    expect(summary.rates).toEqual({ photosPerLoad: 40, estimatesPerPhoto: 63, leadsPerEstimate: 20 });
  });

  it('has no rate where the step before counted nothing', () => {
    expect(summariseFunnel([day('2026-11-25', 0, 0, 0, 0, 0)]).rates).toEqual({ photosPerLoad: null, estimatesPerPhoto: null, leadsPerEstimate: null });
  });
});
