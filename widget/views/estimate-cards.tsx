import { CircleCheck, CircleMinus, Clock, ListChecks, TreeDeciduous } from 'lucide-react';
import type { ReactNode } from 'react';
import type { EmbedAnalysis } from '../../core/embed';
import { formatTimeRange, formatTotalTime, totalMinutes } from '../../core/format';
import { formatPrice, priceRows, type JobPrice } from '../../core/price';
import { diameterText, heightText } from '../../core/units';
import { Card } from '../components/card';
import { useBusinessUnits } from '../units-context';

/** One label and value; `nowrap` keeps a short value such as "1h 10m - 1h 45m" on one line. */
function Row({ label, nowrap, children }: { label: string; nowrap?: boolean; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 border-t border-stone-200 py-2 first:border-t-0">
      <dt className="text-stone-700">{label}</dt>
      <dd className={`text-right font-semibold text-stone-900 ${nowrap ? 'whitespace-nowrap' : ''}`}>{children}</dd>
    </div>
  );
}

/**
 * The price the business's rules made, every line of it, then the totals with VAT said as the
 * business charges it: the same figures and words as its quote and its lead e-mail (core/price.ts).
 */
function PriceLines({ price }: { price: JobPrice }) {
  return (
    <dl aria-label="How the price is made up" className="mb-3 rounded-lg bg-stone-50 px-3 py-1 text-sm">
      {priceRows(price).map((row) => (
        <div key={row.label} className="flex items-baseline justify-between gap-3 border-t border-stone-200 py-1.5 first:border-t-0">
          <dt className={row.strong ? 'font-semibold text-stone-900' : 'text-stone-800'}>
            {row.label}
            {row.detail && <span className="block text-xs text-stone-600">{row.detail}</span>}
          </dt>
          <dd className={`text-right whitespace-nowrap ${row.strong ? 'font-bold text-stone-900' : 'font-semibold text-stone-800'}`}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Total time, the price if the business charges a rate, then the three components. */
export function TimeAndCostCard({ analysis }: { analysis: EmbedAnalysis }) {
  const { price } = analysis;
  return (
    <Card title="Time & Cost Estimation" icon={<Clock aria-hidden="true" className="size-5 text-stone-600" />}>
      <dl className="flex flex-wrap gap-x-8 gap-y-2 pb-3">
        <div>
          <dt className="text-sm text-stone-700">Total time</dt>
          <dd className="text-2xl font-bold text-stone-900">{formatTotalTime(totalMinutes(analysis))}</dd>
        </div>
        {price && (
          <div>
            <dt className="text-sm text-stone-700">Estimated cost</dt>
            <dd className="text-2xl font-bold text-stone-900">{formatPrice(price)}</dd>
          </div>
        )}
      </dl>
      {price && <PriceLines price={price} />}
      <dl>
        <Row label="Cutting" nowrap>{formatTimeRange({ min: analysis.cuttingTimeMin, max: analysis.cuttingTimeMax })}</Row>
        <Row label="Preparation" nowrap>{formatTimeRange({ min: analysis.prepTimeMin, max: analysis.prepTimeMax })}</Row>
        <Row label="Cleanup" nowrap>{formatTimeRange({ min: analysis.cleanupTimeMin, max: analysis.cleanupTimeMax })}</Row>
      </dl>
    </Card>
  );
}

/** Species, diameter and height ("Not sure" when nobody gave one: "What we assumed" says what it was priced as) and density ("N/A"). */
export function TreeAnalysisCard({ analysis }: { analysis: EmbedAnalysis }) {
  const units = useBusinessUnits();
  return (
    <Card title="Tree Analysis" icon={<TreeDeciduous aria-hidden="true" className="size-5 text-stone-600" />}>
      <dl>
        <Row label="Species">{analysis.species || 'Not sure'}</Row>
        <Row label="Diameter">{analysis.diameter != null ? diameterText(analysis.diameter, units) : 'Not sure'}</Row>
        <Row label="Height">{analysis.height != null ? heightText(analysis.height, units) : 'Not sure'}</Row>
        <Row label="Wood density">{analysis.woodDensity || 'N/A'}</Row>
      </dl>
    </Card>
  );
}

/**
 * What the price covers and what it leaves out, from the visitor's answers:
 * stump grinding and waste removal included or not (the server's core/quote.ts includedWork).
 */
export function IncludedCard({ analysis }: { analysis: EmbedAnalysis }) {
  if (analysis.included.length === 0) return null;
  return (
    <Card title="What the price includes" icon={<ListChecks aria-hidden="true" className="size-5 text-stone-600" />}>
      <ul className="flex flex-col gap-2">
        {analysis.included.map((item) => (
          <li key={item.text} className="flex items-start gap-2 text-stone-800">
            {item.included ? (
              <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-visible" />
            ) : (
              <CircleMinus aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-stone-500" />
            )}
            <span>
              {!item.included && <span className="font-semibold text-stone-900">Not included: </span>}
              {item.text}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
