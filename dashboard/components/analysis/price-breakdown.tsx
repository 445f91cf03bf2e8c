import { priceRows, type JobPrice } from '../../../core/price';

/**
 * How the price is made up: every line with its working, the minimum charge when it applied and
 * the totals as the contractor charges VAT (core/price.ts priceRows), the same rows the PDF quote
 * and the website estimator show. Under it, what the estimate assumed for the site questions left
 * unanswered or answered "Not sure" and the sizes nobody gave (core/site-assumptions.ts), one
 * sentence each, so whoever reads the price knows what it was priced for.
 */
export function PriceBreakdown({ price, assumed }: { price: JobPrice; assumed: string[] }) {
  return (
    <section aria-labelledby="price-breakdown-title">
      <h3 id="price-breakdown-title" className="mb-2 font-semibold text-stone-900">
        Price Breakdown
      </h3>
      <dl className="rounded-xl bg-stone-50 px-4 py-1">
        {priceRows(price).map((row) => (
          <div
            key={row.label}
            className={`flex items-baseline justify-between gap-3 border-t border-stone-200 py-2 first:border-t-0 ${row.strong ? 'text-base' : 'text-sm'}`}
          >
            <dt className={row.strong ? 'font-semibold text-stone-900' : 'text-stone-800'}>
              {row.label}
              {row.detail ? <span className="block text-xs font-normal text-stone-600">{row.detail}</span> : null}
            </dt>
            <dd className={`text-right whitespace-nowrap ${row.strong ? 'font-bold text-green-900' : 'font-semibold text-stone-900'}`}>{row.value}</dd>
          </div>
        ))}
      </dl>
      {assumed.length > 0 ? (
        <div className="mt-2 text-sm text-stone-700">
          <p className="font-semibold">What we assumed</p>
          <ul className="list-disc pl-5">
            {assumed.map((sentence) => (
              <li key={sentence}>{sentence}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
