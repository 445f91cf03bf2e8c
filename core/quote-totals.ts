import { VAT_STANDARD_RATE_PERCENT, type JobPrice, type VatMode } from './price';

/**
 * The money of a surgeon's quote (docs/product.md, Jobs and quotes): each item's price as the
 * surgeon sets it, rounded by their rule, and the totals with VAT, in whole pence. Pure and
 * zod-free, so the server, the dashboard and the customer's quote page add up the same way.
 *
 * An item's price is the figure the customer reads beside it, so it can be a round one: with
 * VAT shown included (`inc`, what a homeowner expects) it is the price including VAT; with VAT
 * added on top (`ex`, trade customers) or none charged (`none`), the price before VAT. The VAT of
 * a quote is worked out once on its total, not per line, and rounded to the nearest penny
 * (HMRC VAT Notice 700, section 16: rounding on the invoice total): added at the rate on top of
 * an `ex` total, and taken out of an `inc` total by the VAT fraction, rate / (100 + rate)
 * (1/6 at 20%).
 */

/** A quote item's money: its price as shown, and whether the customer chooses it. */
export interface PricedItem {
  id: number;
  pricePence: number;
  optional: boolean;
}

export interface QuoteTotals {
  netPence: number;
  vatPence: number;
  grossPence: number;
}

/** a / b to the nearest whole number, halves up, for whole a >= 0 and b > 0 (no float rounding). */
function divideRounded(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}

/** To the nearest multiple of `stepPence` (the rounding rule: 100, 500 or 1000), halves up. */
export function roundToStep(pence: number, stepPence: number): number {
  if (stepPence <= 1) return Math.round(pence);
  return divideRounded(Math.max(0, Math.round(pence)), stepPence) * stepPence;
}

/**
 * The totals of the included items and the optional items chosen (by id); an optional item not
 * chosen adds nothing. Exact in pence: net + VAT = gross always.
 */
export function quoteTotals(
  items: readonly PricedItem[],
  chosenOptional: ReadonlySet<number>,
  vatMode: VatMode,
  vatRatePercent: number = VAT_STANDARD_RATE_PERCENT,
): QuoteTotals {
  const shown = items.filter((item) => !item.optional || chosenOptional.has(item.id)).reduce((sum, item) => sum + item.pricePence, 0);
  if (vatMode === 'none') return { netPence: shown, vatPence: 0, grossPence: shown };
  if (vatMode === 'ex') {
    const vat = divideRounded(shown * vatRatePercent, 100);
    return { netPence: shown, vatPence: vat, grossPence: shown + vat };
  }
  const vat = divideRounded(shown * vatRatePercent, 100 + vatRatePercent);
  return { netPence: shown - vat, vatPence: vat, grossPence: shown };
}

/**
 * Where a tree's price starts: the middle of the estimate's range, on the basis the quote shows
 * (including VAT for an `inc` quote), rounded by the surgeon's rule. The estimate's own figures
 * stay beside it for the surgeon to compare. An estimate without a price (a rate of 0) starts at 0.
 */
export function startingPricePence(
  price: Pick<JobPrice, 'netMinPence' | 'netMaxPence'> | null,
  vatMode: VatMode,
  stepPence: number,
  vatRatePercent: number = VAT_STANDARD_RATE_PERCENT,
): number {
  if (!price) return 0;
  const netMiddle = (price.netMinPence + price.netMaxPence) / 2;
  const shown = vatMode === 'inc' ? (netMiddle * (100 + vatRatePercent)) / 100 : netMiddle;
  return roundToStep(shown, stepPence);
}
