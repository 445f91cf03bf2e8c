import { BarChart3 } from 'lucide-react';
import type { Business, FunnelResponse } from '../../../core/business';
import type { FunnelDay } from '../../../core/embed';
import { formatGbp, parsePence } from '../../../core/money';
import { useFunnel } from '../../api/businesses';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../alert';
import { PageState } from '../page-state';
import { summariseFunnel } from './funnel-summary';

const STEPS = [
  { key: 'loads', label: 'Estimator loads' },
  { key: 'photos', label: 'Photos chosen' },
  { key: 'estimates', label: 'Estimates shown' },
  { key: 'needsDetails', label: 'Asked for sizes' },
  { key: 'leads', label: 'Quote requests' },
  { key: 'trees', label: 'Trees in requests' },
] as const;

const percent = (value: number | null) => (value === null ? '–' : `${value}%`);

/** Estimates (tall bars) over loads (pale bars) a day: the shape of the month at a glance; the numbers are beside it. */
function DailyChart({ days }: { days: FunnelDay[] }) {
  const most = Math.max(1, ...days.map((d) => d.loads), ...days.map((d) => d.estimates));
  const width = 300;
  const height = 64;
  const step = width / days.length;
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="h-16 w-full" aria-hidden="true" preserveAspectRatio="none">
      {days.map((day, i) => {
        const loads = (day.loads / most) * height;
        const estimates = (day.estimates / most) * height;
        return (
          <g key={day.date}>
            <rect x={i * step + 1} y={height - loads} width={Math.max(1, step - 2)} height={loads} className="fill-emerald-100" />
            <rect x={i * step + 1} y={height - estimates} width={Math.max(1, step - 2)} height={estimates} className="fill-emerald-700" />
          </g>
        );
      })}
    </svg>
  );
}

/** What the requests became: quotes sent from them, accepted, and what the accepted ones are worth. */
function QuoteFigures({ quotes }: { quotes: FunnelResponse['quotes'] }) {
  const figures = [
    { label: 'Quotes sent', value: String(quotes.sent) },
    { label: 'Quotes accepted', value: String(quotes.accepted) },
    { label: 'Accepted value', value: formatGbp(parsePence(quotes.acceptedValue) ?? 0), wide: true },
  ];
  return (
    <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
      {figures.map(({ label, value, wide }) => (
        <div key={label} className={`min-w-0 rounded-lg bg-green-50 px-3 py-2 ${wide ? 'col-span-2 sm:col-span-1' : ''}`}>
          <dt className="text-stone-700">{label}</dt>
          <dd className="text-lg font-semibold break-words text-stone-900 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The business's estimator over the last 30 days: counts, conversion, its quotes and a small daily chart. */
export function FunnelCard({ business }: { business: Business }) {
  const funnel = useFunnel(business.id);
  const headingId = `business-${business.id}-funnel`;
  let content;
  if (funnel.isPending) {
    content = <PageState kind="loading" label="Loading the last 30 days" className="py-4" />;
  } else if (funnel.isError) {
    content = <ErrorAlert>{errorMessage(funnel.error, 'The last 30 days could not be loaded.')}</ErrorAlert>;
  } else {
    const { days, quotes } = funnel.data;
    const { totals, rates, treesPerLead } = summariseFunnel(days);
    const turnedAway = days.reduce((sum, day) => sum + day.turnedAway, 0);
    content =
      totals.loads === 0 && totals.estimates === 0 && quotes.sent === 0 ? (
        <p className="rounded-xl bg-stone-50 px-4 py-3 text-sm text-stone-700">
          No visits in the last 30 days. Once the estimator is on your website, each visit, photo, estimate and quote
          request is counted here (no cookies, nothing about the visitor).
        </p>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
            {STEPS.map(({ key, label }) => (
              <div key={key} className="rounded-lg bg-stone-50 px-3 py-2">
                <dt className="text-stone-600">{label}</dt>
                <dd className="text-lg font-semibold text-stone-900">{totals[key]}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-2 text-sm text-stone-700">
            {`${rates.photosPerLoad ?? '–'} photos for every 100 loads (a visit may price several trees), ${percent(rates.estimatesPerPhoto)} of photos got an estimate, ${percent(rates.requestedPerEstimate)} of estimates asked for a quote.`}
            {treesPerLead !== null ? ` A request carried ${treesPerLead} ${treesPerLead === 1 ? 'tree' : 'trees'} on average.` : ''}
          </p>
          <QuoteFigures quotes={quotes} />
          {turnedAway > 0 && (
            <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {`${turnedAway} ${turnedAway === 1 ? 'visitor was' : 'visitors were'} told the estimator was busy (its daily cap or rate was reached). Raise the daily cap if they were customers; list your website under Allowed site origins if you don't recognise them.`}
            </p>
          )}
          <figure className="mt-2">
            <DailyChart days={days} />
            <figcaption className="text-xs text-stone-600">Each day, oldest first: loads (pale) and estimates (dark).</figcaption>
          </figure>
        </>
      );
  }
  return (
    <section aria-labelledby={headingId} className="border-t border-stone-200 pt-4">
      <h3 id={headingId} className="mb-3 flex items-center gap-2 font-semibold text-stone-900">
        <BarChart3 aria-hidden="true" className="size-4" />
        Last 30 days
      </h3>
      {content}
    </section>
  );
}
