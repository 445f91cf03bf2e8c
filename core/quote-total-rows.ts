import { formatGbp } from './money';
import { VAT_STANDARD_RATE_PERCENT, type VatMode } from './price';
import type { QuoteTotals } from './quote-totals';

/**
 * A surgeon's quote's totals as the customer reads them, the same words on the PDF and the
 * quote page: with VAT shown included (a homeowner's quote) the total including VAT and the
 * VAT in it; with VAT added on top (trade) a subtotal, the VAT and the total; when the surgeon
 * is not VAT-registered the total alone. The optional items the customer chose come first, as
 * the part of the total they added.
 */
export interface QuoteTotalRow {
  label: string;
  value: string;
  /** The figure the customer pays, drawn strongest. */
  strong?: boolean;
}

export function quoteTotalRows(
  totals: QuoteTotals,
  vatMode: VatMode,
  optionalChosenPence: number,
  vatRatePercent: number = VAT_STANDARD_RATE_PERCENT,
): QuoteTotalRow[] {
  const rows: QuoteTotalRow[] = optionalChosenPence > 0 ? [{ label: 'Optional items chosen', value: formatGbp(optionalChosenPence) }] : [];
  if (vatMode === 'inc') {
    rows.push(
      { label: 'Total including VAT', value: formatGbp(totals.grossPence), strong: true },
      { label: `Includes VAT at ${vatRatePercent}%`, value: formatGbp(totals.vatPence) },
    );
  } else if (vatMode === 'ex') {
    rows.push(
      { label: 'Subtotal', value: formatGbp(totals.netPence) },
      { label: `VAT at ${vatRatePercent}%`, value: formatGbp(totals.vatPence) },
      { label: 'Total', value: formatGbp(totals.grossPence), strong: true },
    );
  } else {
    rows.push({ label: 'Total', value: formatGbp(totals.grossPence), strong: true });
  }
  return rows;
}

/** What the price beside each item is: "Price inc VAT", "Price ex VAT", or "Price" when no VAT is charged. */
export const ITEM_PRICE_HEADING: Record<VatMode, string> = { inc: 'Price inc VAT', ex: 'Price ex VAT', none: 'Price' };
