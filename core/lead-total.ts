import { formatCostRange, type CostRange } from './format';
import { headlineRange, VAT_SUFFIX, type JobPrice } from './price';

/**
 * The total of a quote request's trees (docs/product.md, Embed widget: Several trees, one
 * request): the sum of the price ranges the visitor was shown, lower ends and higher ends apart,
 * in pence. A tree without a price adds nothing; null when none has one.
 */
export function leadTotal(prices: readonly (JobPrice | null)[]): CostRange | null {
  const priced = prices.filter((price): price is JobPrice => price !== null);
  if (priced.length === 0) return null;
  return priced.map(headlineRange).reduce((sum, range) => ({ minPence: sum.minPence + range.minPence, maxPence: sum.maxPence + range.maxPence }));
}

/**
 * The total as formatPrice words a single price: "£1,840.00 - £2,728.00 inc VAT", the VAT words
 * when every priced tree was priced the same way (one business's rules, so always, unless its
 * VAT setting changed between two estimates); "for 2 of 3 trees" when some had no price.
 */
export function formatLeadTotal(prices: readonly (JobPrice | null)[]): string | null {
  const total = leadTotal(prices);
  if (!total) return null;
  const priced = prices.filter((price): price is JobPrice => price !== null);
  const modes = new Set(priced.map((price) => price.vatMode));
  const [mode] = modes;
  const saysVat = modes.size === 1 && mode !== undefined && !(mode === 'none' && priced.every((price) => price.crewSize === 0));
  const range = `${formatCostRange(total)}${saysVat ? ` ${VAT_SUFFIX[mode]}` : ''}`;
  return priced.length === prices.length ? range : `${range} (for ${priced.length} of ${prices.length} trees)`;
}
