import { Camera, Clock, Gauge, PoundSterling, ShieldAlert, TrendingUp, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { Analysis } from '../../../core/analysis';
import { formatDuration, formatTimeRange, formatTotalTime, totalMinutes } from '../../../core/format';
import { formatPrice } from '../../../core/price';
import { formatGbp, parsePence } from '../../../core/money';
import { VALUE_SOURCE_LABELS, type ValueSource } from '../../../core/tree-details';
import { sizesShown } from '../../../core/band-ranges';
import { DEFAULT_UNIT_SYSTEM } from '../../../core/units';
import { usePreferredUnits } from '../../api/units';
import { SafetyDisclaimer } from '../page-layout';
import { cardStyles, linkStyles } from '../ui';
import { MeasuredPhoto } from './measure-lines';
import { PriceBreakdown } from './price-breakdown';
import { SizeWarnings } from './size-warnings';
import { StageHeading } from './stage-heading';

/** The three components of the breakdown tiles, with their actual-time fields. */
export const TIME_COMPONENTS = [
  { label: 'Actual Cutting', reported: 'Actual cutting', min: 'cuttingTimeMin', max: 'cuttingTimeMax', actual: 'actualCuttingTime' },
  { label: 'Prep & Setup', reported: 'Actual prep & setup', min: 'prepTimeMin', max: 'prepTimeMax', actual: 'actualPrepTime' },
  { label: 'Cleanup', reported: 'Actual cleanup', min: 'cleanupTimeMin', max: 'cleanupTimeMax', actual: 'actualCleanupTime' },
] as const;

function Detail({ term, children, source }: { term: string; children: ReactNode; source?: ValueSource | null }) {
  return (
    <div className="rounded-xl bg-stone-50 px-4 py-3">
      <dt className="text-xs font-medium tracking-wide text-stone-600 uppercase">{term}</dt>
      <dd className="mt-0.5 text-base font-semibold break-words text-stone-900 sm:text-lg">{children}</dd>
      {source ? (
        <dd className="mt-0.5 text-xs text-stone-600" data-testid={`source-${term.toLowerCase()}`}>
          <span className="sr-only">Source: </span>
          {VALUE_SOURCE_LABELS[source]}
        </dd>
      ) : null}
    </div>
  );
}

/**
 * Where this estimate's numbers came from, in a line. The analysis's own provider decides
 * it (History shows estimates made before a model was configured, or since it was removed).
 */
function basisNote(analysis: Analysis): string {
  return analysis.provider === 'local'
    ? 'Worked out from the details and measurements you gave; the photo was checked for quality only.'
    : 'Worked out from the photo by the AI model, with the details and measurements you gave taking its place where given.';
}

function Headline({ icon, term, children, note }: { icon: ReactNode; term: string; children: ReactNode; note?: ReactNode }) {
  return (
    <div className="rounded-xl border border-green-200 bg-green-50 px-4 py-4">
      <dt className="flex items-center gap-2 text-sm font-medium text-green-900">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-white text-green-800">{icon}</span>
        {term}
      </dt>
      <dd className="mt-1.5 text-2xl font-bold text-green-950">{children}</dd>
      {note ? <dd className="mt-1 text-sm text-stone-700">{note}</dd> : null}
    </div>
  );
}

function ListCard({ title, icon, items, empty }: { title: string; icon: ReactNode; items: string[]; empty: string }) {
  return (
    <section className="rounded-xl border border-stone-200 p-4">
      <h3 className="mb-2 flex items-center gap-2 font-semibold text-stone-900">
        {icon}
        {title}
      </h3>
      {items.length > 0 ? (
        <ul className="list-disc space-y-1.5 pl-5 text-sm text-stone-700 marker:text-green-700">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-stone-600">{empty}</p>
      )}
    </section>
  );
}

function ReportedFeedback({ analysis }: { analysis: Analysis }) {
  const times = TIME_COMPONENTS.flatMap((c) => {
    const minutes = analysis[c.actual];
    return minutes === null ? [] : [{ label: c.reported, minutes }];
  });
  if (times.length === 0 && !analysis.feedback) return null;
  return (
    <section className="rounded-xl border border-stone-200 p-4">
      <h3 className="mb-2 font-semibold text-stone-900">Your Feedback</h3>
      {times.length > 0 ? (
        <dl className="grid gap-2 text-sm sm:grid-cols-3">
          {times.map((c) => (
            <div key={c.label}>
              <dt className="text-stone-600">{c.label}</dt>
              <dd className="font-semibold text-stone-900">{formatDuration(c.minutes)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {analysis.feedback ? <p className="mt-2 text-sm whitespace-pre-line text-stone-700">{analysis.feedback}</p> : null}
    </section>
  );
}

interface AnalysisResultsProps {
  analysis: Analysis;
  /** The buttons under the results: they differ between the main page and History. */
  actions: ReactNode;
  focusHeading: boolean;
  title?: string;
}

/** The results, with the site-visit and calibration notes (docs/product.md, Analysis). Shared by / and History. */
export function AnalysisResults({ analysis, actions, focusHeading, title = 'Analysis Results' }: AnalysisResultsProps) {
  const preferredUnits = usePreferredUnits();
  const cost = analysis.price ? formatPrice(analysis.price) : null;
  const confidence = Math.round(analysis.confidence * 100);
  // Sizes in the units they were entered in (or the account's then); an old analysis in today's.
  const units = analysis.units ?? preferredUnits ?? DEFAULT_UNIT_SYSTEM;
  const timeNotes: ReactNode[] = [];
  if (analysis.calibratedFrom) {
    timeNotes.push(
      <span key="calibrated" className="flex items-center gap-1.5">
        <TrendingUp aria-hidden="true" className="size-4 shrink-0 text-green-800" />
        {analysis.calibratedFrom}
      </span>,
    );
  }
  if (!cost) {
    // A business's estimate is priced at the business's own rate, set in Business Admin.
    timeNotes.push(
      <span key="no-cost" className="flex items-start gap-1.5">
        <PoundSterling aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-800" />
        <span>
          No cost shown at an hourly rate of £0.{' '}
          <Link href={analysis.businessName ? '/admin/businesses' : '/settings'} className={`${linkStyles} underline`}>
            {analysis.businessName ? "Set the business's hourly rate" : 'Set your hourly rate'}
          </Link>
        </span>
      </span>,
    );
  }
  return (
    <section aria-labelledby="results-title" className={`${cardStyles} flex flex-col gap-5 p-4 sm:p-6`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <StageHeading id="results-title" focus={focusHeading}>
          {title}
        </StageHeading>
        {analysis.businessName ? (
          <p className="text-sm text-stone-600">For {analysis.businessName}</p>
        ) : null}
      </div>

      {analysis.siteVisitReason ? (
        <div className="flex items-start gap-3 rounded-xl border-2 border-amber-400 bg-amber-50 px-4 py-3 text-amber-950">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
          <p>
            <strong>Site visit recommended:</strong> {analysis.siteVisitReason}
          </p>
        </div>
      ) : null}

      <SizeWarnings title="Sizes confirmed, though they look unlikely" warnings={analysis.sizeWarnings}>
        <p className="text-sm">These sizes were confirmed as right, so the estimate uses them with its confidence halved. Check them on site before quoting.</p>
      </SizeWarnings>

      <div className="grid gap-5 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        {analysis.measurement ? (
          <MeasuredPhoto src={analysis.imageUrl} alt="The analyzed tree, with the lines you measured" measurement={analysis.measurement} />
        ) : (
          <img
            src={analysis.imageUrl}
            alt="The analyzed tree"
            className="max-h-80 w-full rounded-xl bg-stone-100 object-contain"
          />
        )}
        <div className="flex flex-col gap-3">
          <dl className="grid grid-cols-2 content-start gap-3">
            <Detail term="Species" source={analysis.sources?.species}>
              {analysis.species ?? 'Unknown'}
            </Detail>
            <Detail term="Diameter" source={analysis.sources?.diameter}>
              {sizesShown(analysis, units).diameter ?? 'N/A'}
            </Detail>
            <Detail term="Height" source={analysis.sources?.height}>
              {sizesShown(analysis, units).height ?? 'N/A'}
            </Detail>
            <Detail term="Wood Density">{analysis.woodDensity ?? 'N/A'}</Detail>
            <Detail term="Confidence">{`${confidence}%`}</Detail>
          </dl>
          <p className="flex items-start gap-2 text-xs text-stone-600">
            <Camera aria-hidden="true" className="mt-px size-4 shrink-0" />
            {basisNote(analysis)}
          </p>
        </div>
      </div>

      {/* No cost at a rate of 0. The time then takes the whole row, with a way to set a rate. */}
      <dl className={`grid gap-3 ${cost ? 'sm:grid-cols-2' : ''}`}>
        <Headline
          icon={<Clock aria-hidden="true" className="size-5" />}
          term="Total Estimated Time"
          note={timeNotes.length > 0 ? timeNotes : undefined}
        >
          {formatTotalTime(totalMinutes(analysis))}
        </Headline>
        {cost ? (
          <Headline
            icon={<PoundSterling aria-hidden="true" className="size-5" />}
            term="Estimated Cost"
            note={analysis.price && analysis.price.crewSize > 0 ? `Crew of ${analysis.price.crewSize}, ${formatGbp(parsePence(analysis.hourlyRate) ?? 0)} a crew-hour` : `At ${formatGbp(parsePence(analysis.hourlyRate) ?? 0)} an hour`}
          >
            {cost}
          </Headline>
        ) : null}
      </dl>

      <section aria-labelledby="breakdown-title">
        <h3 id="breakdown-title" className="mb-2 font-semibold text-stone-900">
          Time Breakdown
        </h3>
        <dl className="grid gap-3 sm:grid-cols-3">
          {TIME_COMPONENTS.map((c) => (
            <Detail key={c.label} term={c.label}>
              {formatTimeRange({ min: analysis[c.min], max: analysis[c.max] })}
            </Detail>
          ))}
        </dl>
      </section>

      {analysis.price ? <PriceBreakdown price={analysis.price} assumed={analysis.assumptions} /> : null}

      <div className="grid gap-4 md:grid-cols-2">
        <ListCard
          title="Factors Affecting Cutting Time"
          icon={<Gauge aria-hidden="true" className="size-5 text-green-800" />}
          items={analysis.factors}
          empty="No special factors were found."
        />
        <ListCard
          title="Safety Recommendations"
          icon={<ShieldAlert aria-hidden="true" className="size-5 text-amber-700" />}
          items={analysis.safetyWarnings}
          empty="No specific warnings. Follow the usual safe working practice."
        />
      </div>

      <ReportedFeedback analysis={analysis} />

      <SafetyDisclaimer />

      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">{actions}</div>
    </section>
  );
}
