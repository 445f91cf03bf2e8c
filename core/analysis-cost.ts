/**
 * What one analysis costs, zod-free so the widget and the upload texts can read it
 * (core/credits.ts re-exports it for everyone else).
 */

/** docs/product.md, Constants: each analysis costs 10 credits; the badge shows floor(credits / 10) analyses. */
export const ANALYSIS_COST_CREDITS = 10;

export function analysesAvailable(credits: number): number {
  return Math.max(0, Math.floor(credits / ANALYSIS_COST_CREDITS));
}
