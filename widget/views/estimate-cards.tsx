import { CircleCheck, CircleMinus, ListChecks, TreeDeciduous } from 'lucide-react';
import type { ReactNode } from 'react';
import type { EmbedAnalysis } from '../../core/embed-api';
import type { GuideRow } from '../../core/homeowner-guide';
import { diameterText, heightText } from '../../core/units';
import { Card } from '../components/card';
import { useBusinessUnits } from '../units-context';

/** One label and value. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 border-t border-stone-200 py-2 first:border-t-0">
      <dt className="text-stone-700">{label}</dt>
      <dd className="text-right font-semibold text-stone-900">{children}</dd>
    </div>
  );
}

/**
 * "How the price is made up", in a homeowner's words (core/homeowner-guide.ts): what each part is
 * for and about what it costs, the business's rounding, never the trade's working.
 */
export function MadeUpRows({ rows }: { rows: GuideRow[] }) {
  return (
    <dl className="rounded-lg bg-stone-50 px-3 py-1 text-sm">
      {rows.map((row) => (
        <div key={row.label} className="flex flex-wrap items-baseline justify-between gap-x-3 border-t border-stone-200 py-1.5 first:border-t-0">
          <dt className={row.strong ? 'font-semibold text-stone-900' : 'text-stone-800'}>
            {row.label}
            {row.detail && <span className="block text-xs text-stone-600">{row.detail}</span>}
          </dt>
          <dd className={`ml-auto text-right whitespace-nowrap ${row.strong ? 'font-bold text-stone-900' : 'font-semibold text-stone-800'}`}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The tree as the estimate took it: its kind, height and trunk ("Not sure" when nobody gave one: "What we assumed" says what it was priced as). */
export function TreeCard({ analysis }: { analysis: EmbedAnalysis }) {
  const units = useBusinessUnits();
  return (
    <Card title="Your tree" icon={<TreeDeciduous aria-hidden="true" className="size-5 text-stone-600" />}>
      <dl>
        <Row label="Kind of tree">{analysis.species || 'Not sure'}</Row>
        {/* A size chosen as a band reads back as that band ("8 to 15 m"), not the middle the estimate used. */}
        <Row label="Height">{analysis.chosenBands.height ?? (analysis.height != null ? heightText(analysis.height, units, analysis.enteredSizes?.height) : 'Not sure')}</Row>
        <Row label="Trunk">{analysis.chosenBands.diameter ?? (analysis.diameter != null ? diameterText(analysis.diameter, units, analysis.enteredSizes?.diameter) : 'Not sure')}</Row>
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
