import type { VatMode } from './price';
import { quoteTotals, type QuoteTotals } from './quote-totals';

/**
 * The money of an invoice (docs/product.md, Getting paid), worked out from the accepted quote and
 * nothing typed again: pure, in whole pence, so the server, the dashboard and the customer's page
 * add up the same way.
 *
 * VAT follows the quote's basis (the account's VAT mode when the quote was sent) and, as on the
 * quote, is worked out once on the work's total and rounded to the nearest penny (core/quote-totals.ts).
 * A deposit is a part of what the customer pays, so it is taken as a gross amount and its VAT is
 * the VAT fraction of it; the final invoice works out the VAT of the whole work and takes away
 * each deposit's net, VAT and gross exactly as they were invoiced. So with nothing added on site,
 * the deposits and the final invoice add up to the accepted total to the penny, VAT included.
 */

export interface Money {
  netPence: number;
  vatPence: number;
  grossPence: number;
}

export const ZERO: Money = { netPence: 0, vatPence: 0, grossPence: 0 };

export const addMoney = (a: Money, b: Money): Money => ({ netPence: a.netPence + b.netPence, vatPence: a.vatPence + b.vatPence, grossPence: a.grossPence + b.grossPence });
export const subtractMoney = (a: Money, b: Money): Money => ({ netPence: a.netPence - b.netPence, vatPence: a.vatPence - b.vatPence, grossPence: a.grossPence - b.grossPence });
export const negate = (a: Money): Money => ({ netPence: -a.netPence, vatPence: -a.vatPence, grossPence: -a.grossPence });

/** The basis of an invoice's VAT: the quote's mode and rate. */
export interface VatBasis {
  vatMode: VatMode;
  vatRatePercent: number;
}

/** a / b to the nearest whole number, halves up, for whole a >= 0 and b > 0 (no float rounding). */
function divideRounded(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}

/**
 * A gross amount split into net and VAT by the VAT fraction, rate / (100 + rate), rounded to the
 * penny: how a deposit, a payment's share or a credit is split. No VAT when none is charged.
 */
export function splitGross(grossPence: number, basis: VatBasis): Money {
  if (basis.vatMode === 'none' || grossPence === 0) return { netPence: grossPence, vatPence: 0, grossPence };
  const sign = grossPence < 0 ? -1 : 1;
  const vat = sign * divideRounded(Math.abs(grossPence) * basis.vatRatePercent, 100 + basis.vatRatePercent);
  return { netPence: grossPence - vat, vatPence: vat, grossPence };
}

/** A line of work as priced on the quote: its price as the customer read it (gross for `inc`, net otherwise). */
export interface PricedLine {
  pricePence: number;
}

/**
 * The money of each line and of all of them: the VAT is worked out once on the total (as on the
 * quote) and shared out over the lines in proportion to their price, the pennies left over going
 * to the largest remainders, so the lines always add up to the total exactly.
 */
export function linesMoney(lines: readonly PricedLine[], basis: VatBasis): { lines: Money[]; total: QuoteTotals } {
  const items = lines.map((line, index) => ({ id: index, pricePence: line.pricePence, optional: false }));
  const total = quoteTotals(items, new Set(), basis.vatMode, basis.vatRatePercent);
  const shown = lines.reduce((sum, line) => sum + line.pricePence, 0);
  const vats = shareOut(
    total.vatPence,
    lines.map((line) => line.pricePence),
    shown,
  );
  const money = lines.map((line, index): Money => {
    const vat = vats[index]!;
    return basis.vatMode === 'inc'
      ? { netPence: line.pricePence - vat, vatPence: vat, grossPence: line.pricePence }
      : { netPence: line.pricePence, vatPence: vat, grossPence: line.pricePence + vat };
  });
  return { lines: money, total };
}

/** `amount` shared over `weights` in proportion (largest remainders take the pennies left), for amount, weights >= 0. */
function shareOut(amount: number, weights: readonly number[], weightTotal: number): number[] {
  if (amount === 0 || weightTotal === 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (amount * weight) / weightTotal);
  const shares = exact.map((value) => Math.floor(value));
  let left = amount - shares.reduce((sum, share) => sum + share, 0);
  const order = exact.map((value, index) => ({ index, remainder: value - Math.floor(value) })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}

/** The accepted total a deposit is a part of, in pence as the customer pays it (gross). */
export function depositFromPercent(acceptedGrossPence: number, percent: number): number {
  // percent has at most 2 decimals: work in hundredths of a percent so nothing is a float.
  const hundredths = Math.round(percent * 100);
  return divideRounded(acceptedGrossPence * hundredths, 100 * 100);
}

/**
 * A deposit invoice's money: `grossPence` asked of the customer, split by the VAT fraction
 * (VATTOS5105: a payment in advance is a tax point, so a VAT-registered surgeon invoices its VAT).
 */
export const depositMoney = (grossPence: number, basis: VatBasis): Money => splitGross(grossPence, basis);

/**
 * A final invoice's money: the work (the accepted items and optional items chosen, and lines
 * agreed on site) with its VAT worked out on its total, less each deposit as it was invoiced.
 */
export function finalMoney(work: readonly PricedLine[], deposits: readonly Money[], basis: VatBasis): { work: Money[]; workTotal: Money; total: Money } {
  const { lines, total } = linesMoney(work, basis);
  const workTotal: Money = { netPence: total.netPence, vatPence: total.vatPence, grossPence: total.grossPence };
  const less = deposits.reduce(addMoney, ZERO);
  return { work: lines, workTotal, total: subtractMoney(workTotal, less) };
}

/**
 * A credit note's money: the whole of what is left to credit, or a gross part of it split in
 * the same proportion as the invoice's own VAT (the same VAT treatment as the invoice).
 */
export function creditMoney(creditable: Money, grossPence: number): Money {
  if (grossPence >= creditable.grossPence) return creditable;
  if (creditable.grossPence <= 0) return ZERO;
  const vat = divideRounded(grossPence * creditable.vatPence, creditable.grossPence);
  return { netPence: grossPence - vat, vatPence: vat, grossPence };
}
