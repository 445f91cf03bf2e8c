import type { FunnelDay, FunnelStep } from '../../../core/embed';

export type FunnelTotals = Record<FunnelStep, number>;

/**
 * What a business owner reads off the funnel: the totals and the share of each step that went on
 * to the next. An estimate goes on when it is one of a quote request's trees, so that share is of
 * trees, not requests (one request may carry several).
 */
export interface FunnelSummary {
  totals: FunnelTotals;
  /** Whole percentages; null where the step before had nothing to divide by. */
  rates: { photosPerLoad: number | null; estimatesPerPhoto: number | null; requestedPerEstimate: number | null };
  /** Trees per quote request, to one decimal place; null before any request. */
  treesPerLead: number | null;
}

const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((100 * part) / whole));

export function summariseFunnel(days: FunnelDay[]): FunnelSummary {
  const totals: FunnelTotals = { loads: 0, photos: 0, estimates: 0, needsDetails: 0, leads: 0, trees: 0 };
  for (const day of days) {
    for (const step of Object.keys(totals) as FunnelStep[]) totals[step] += day[step];
  }
  return {
    totals,
    rates: {
      photosPerLoad: share(totals.photos, totals.loads),
      estimatesPerPhoto: share(totals.estimates, totals.photos),
      requestedPerEstimate: share(totals.trees, totals.estimates),
    },
    treesPerLead: totals.leads === 0 ? null : Math.round((10 * totals.trees) / totals.leads) / 10,
  };
}
