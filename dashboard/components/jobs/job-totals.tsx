import type { VatMode } from '../../../core/price';
import { describeVat, formatQuoteTotal, type LiveTotals } from './job-draft';

/**
 * The quote's total as the customer will read it, with the VAT said plainly, and what it comes to
 * with every optional item. It follows the prices as they are typed, so it says when it is unsaved.
 * Once accepted, it is the accepted total: the included items and the optional ones chosen; once
 * cancelled, it says so, since nothing is owed for it now.
 */
export function JobTotals({ live, vatMode, unsaved, accepted = false, cancelled = false }: { live: LiveTotals; vatMode: VatMode; unsaved: boolean; accepted?: boolean; cancelled?: boolean }) {
  const vat = describeVat(live.totals, vatMode);
  return (
    <section aria-labelledby="job-totals-title" className="rounded-xl bg-green-50 px-4 py-3">
      <h2 id="job-totals-title" className="text-sm font-semibold text-green-900">
        {cancelled ? 'Total agreed, then cancelled' : accepted ? 'Accepted total' : unsaved ? 'Total (not saved yet)' : 'Total'}
      </h2>
      <p className="text-2xl font-bold text-green-900" aria-live="polite" aria-atomic="true">
        {formatQuoteTotal(live.totals, vatMode)}
      </p>
      {vat ? <p className="text-sm text-stone-700">{vat}</p> : null}
      {accepted ? (
        live.hasOptional ? <p className="mt-1 text-sm text-stone-800">With the optional items the customer chose</p> : null
      ) : live.hasOptional ? (
        <p className="mt-1 text-sm text-stone-800">
          {`Up to ${formatQuoteTotal(live.withOptional, vatMode)} with every optional item`}
        </p>
      ) : null}
    </section>
  );
}
