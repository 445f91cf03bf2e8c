import { Gauge, History } from 'lucide-react';
import { Link } from 'wouter';
import type { Accuracy, AccuracyMedians, AccuracyPoint } from '../../core/accuracy';
import { METHOD_LABELS } from '../../core/time-model';
import { useAccuracy } from '../api/accuracy';
import { AccuracyChart, AccuracyTable } from '../components/accuracy/accuracy-chart';
import { errorText, gainSentence, overallSentence, treesText } from '../components/accuracy/accuracy-words';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { buttonStyles, cardStyles } from '../components/ui';

const PARTS: { key: keyof AccuracyMedians; label: string }[] = [
  { key: 'cutting', label: 'Cutting' },
  { key: 'prep', label: 'Prep & Setup' },
  { key: 'cleanup', label: 'Cleanup' },
  { key: 'total', label: 'Whole tree' },
];

function kindLabel(point: AccuracyPoint): string {
  if (!point.kind) return 'Kind of job not recorded';
  const label = METHOD_LABELS[point.kind];
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function NoReportedJobs() {
  return (
    <section className={`${cardStyles} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-800">
        <Gauge aria-hidden="true" className="size-6" />
      </span>
      <h2 className="text-lg font-semibold text-stone-900">No trees with actual times yet</h2>
      <p className="max-w-prose text-sm text-stone-700">
        Send actual times from an analysis&apos;s Feedback to see how close your estimates are: after a job, open it in
        History, choose Provide Feedback and enter how long cutting, prep and cleanup really took.
      </p>
      <Link href="/history" className={buttonStyles.primary}>
        <History aria-hidden="true" className="size-4" />
        Go to History
      </Link>
    </section>
  );
}

/** The model's estimate and the calibrated one, per part of a tree's work, on the same trees. */
function MediansTable({ accuracy }: { accuracy: Accuracy }) {
  const one = accuracy.calibratedTrees === 0;
  const model = one ? accuracy.original : accuracy.originalOnCalibratedTrees;
  const caption = one
    ? 'On your one tree. The calibrated figure needs a second tree.'
    : `On your ${treesText(accuracy.calibratedTrees)} after the first, each calibrated from only the trees reported before it.`;
  return (
    <table className="w-full text-left text-sm">
      <caption className="mb-2 text-left text-stone-700">{caption}</caption>
      <thead className="text-stone-600">
        <tr>
          <th scope="col" className="py-1 pr-2 font-medium">
            Part of the work
          </th>
          <th scope="col" className="py-1 pr-2 text-right font-medium">
            Model&apos;s estimate
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Calibrated
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-stone-100">
        {PARTS.map(({ key, label }) => (
          <tr key={key} className={key === 'total' ? 'font-semibold text-stone-900' : 'text-stone-800'}>
            <th scope="row" className={`py-2 pr-2 ${key === 'total' ? 'font-semibold' : 'font-normal'}`}>
              {label}
            </th>
            <td className="py-2 pr-2 text-right tabular-nums">{errorText(model[key])}</td>
            <td className="py-2 text-right tabular-nums">{one ? '–' : errorText(accuracy.calibrated[key])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AccuracyReport({ accuracy }: { accuracy: Accuracy }) {
  const overall = overallSentence(accuracy);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section aria-labelledby="accuracy-summary" className={`${cardStyles} flex flex-col gap-3 p-4 sm:p-6`}>
        <h2 id="accuracy-summary" className="text-lg font-semibold text-stone-900">
          Your reported trees
        </h2>
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <div className="rounded-lg bg-stone-50 px-3 py-2">
            <dt className="text-stone-600">Trees with actual times</dt>
            <dd className="text-2xl font-semibold text-stone-900">{accuracy.trees}</dd>
          </div>
          <div className="rounded-lg bg-stone-50 px-3 py-2">
            <dt className="text-stone-600">Jobs they came from</dt>
            <dd className="text-2xl font-semibold text-stone-900">{accuracy.jobs}</dd>
          </div>
          <div className="col-span-2 rounded-lg bg-stone-50 px-3 py-2">
            <dt className="text-stone-600">Median error, model&apos;s estimate</dt>
            <dd className="text-2xl font-semibold text-stone-900">{errorText(accuracy.original.total)}</dd>
          </div>
        </dl>
        {overall ? <p className="text-stone-800">{overall}</p> : null}
        <p className="text-stone-800">{gainSentence(accuracy)}</p>
      </section>

      <section aria-labelledby="accuracy-parts" className={`${cardStyles} flex flex-col gap-3 p-4 sm:p-6`}>
        <h2 id="accuracy-parts" className="text-lg font-semibold text-stone-900">
          Median error by part of the work
        </h2>
        <MediansTable accuracy={accuracy} />
      </section>

      <section aria-labelledby="accuracy-over-time" className={`${cardStyles} flex flex-col gap-3 p-4 sm:p-6 lg:col-span-2`}>
        <h2 id="accuracy-over-time" className="text-lg font-semibold text-stone-900">
          Over time
        </h2>
        {accuracy.trees > 1 ? (
          <AccuracyChart points={accuracy.series} />
        ) : (
          <p className="text-sm text-stone-700">The chart starts with your second reported tree.</p>
        )}
        <details className="text-sm">
          <summary className="cursor-pointer font-semibold text-green-800">The figures for each tree</summary>
          <div className="mt-2">
            <AccuracyTable points={accuracy.series} kindLabel={kindLabel} />
          </div>
        </details>
      </section>

      <p className="text-sm text-stone-600 lg:col-span-2">
        The error is how far the middle of an estimate&apos;s range was from the actual time, as a share of the actual
        time, for each tree whose times you reported (a job of three trees reports three); the median is the middle
        one of those, so one unusual tree does not swamp the rest. Calibrated figures use your own trees only,
        reported before each one; other crews&apos; experience on this service is left out, as what they had
        reported at the time cannot be reconstructed.
        {accuracy.trees >= accuracy.limit ? ` Only your latest ${accuracy.limit} reported trees are measured.` : ''}
      </p>
    </div>
  );
}

/** How close the estimates have been to the reported jobs, before and after calibration (docs/analysis.md, Accuracy). */
export function AccuracyPage() {
  const accuracy = useAccuracy();
  let content;
  if (accuracy.isPending) {
    content = <PageState kind="loading" label="Loading your reported jobs" />;
  } else if (accuracy.isError) {
    content = <PageState kind="failed" error={accuracy.error} fallback="Your reported jobs could not be loaded." onRetry={accuracy.refetch} />;
  } else if (accuracy.data.trees === 0) {
    content = <NoReportedJobs />;
  } else {
    content = <AccuracyReport accuracy={accuracy.data} />;
  }

  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink href="/history">Back to History</BackLink>
      </div>
      <PageTitle title="Estimate Accuracy" subtitle="How close your estimates have been to the times your crew reported." />
      {content}
    </SignedInLayout>
  );
}
