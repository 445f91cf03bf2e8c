import { CircleCheck, CircleDashed, Gauge, History, LoaderCircle, Plus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { AnalysisListItem } from '../../core/analysis';
import { formatTotalTime, totalMinutes } from '../../core/format';
import { formatPrice } from '../../core/price';
import { useAnalyses } from '../api/analysis';
import { errorMessage } from '../api/client';
import { ErrorAlert } from '../components/alert';
import { formatAnalysisDate } from '../components/analysis/analysis-date';
import { analysisTitle, EmbedSourceBadge } from '../components/analysis/embed-source-badge';
import { MakeJobBar } from '../components/jobs/make-job-bar';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { buttonStyles, cardStyles, linkStyles } from '../components/ui';
import { useRouteId } from '../components/use-route-id';

function AnalysisCard({ analysis, ticked, onTick }: { analysis: AnalysisListItem; ticked: boolean; onTick: (ticked: boolean) => void }) {
  const date = formatAnalysisDate(analysis.createdAt);
  const cost = analysis.price ? formatPrice(analysis.price) : null;
  const feedback = analysis.hasFeedback;
  const title = analysisTitle(analysis);
  return (
    <li
      className={`${cardStyles} relative flex gap-4 p-3 focus-within:ring-2 focus-within:ring-green-700 hover:border-green-700 has-checked:border-green-700 has-checked:bg-green-50 sm:p-4`}
    >
      <img
        src={analysis.imageUrl}
        alt=""
        loading="lazy"
        className="size-20 shrink-0 rounded-lg bg-stone-100 object-cover sm:size-24"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <h2 className="truncate text-base font-semibold text-stone-900">
          {/* The link covers the whole card, so any part of it opens the analysis. */}
          <Link
            href={`/history/${analysis.id}`}
            className="outline-none after:absolute after:inset-0 after:rounded-2xl after:content-['']"
          >
            {title}
            <span className="sr-only">, {date}</span>
          </Link>
        </h2>
        <p className="text-sm text-stone-600">{date}</p>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-800">
          <div className="flex gap-1">
            <dt className="text-stone-600">Time:</dt>
            <dd className="font-medium">{formatTotalTime(totalMinutes(analysis))}</dd>
          </div>
          {cost ? (
            <div className="flex gap-1">
              <dt className="text-stone-600">Cost:</dt>
              <dd className="font-medium">{cost}</dd>
            </div>
          ) : null}
        </dl>
        <EmbedSourceBadge analysis={analysis} leadName={analysis.web?.leadName} />
        <p
          className={`mt-1 inline-flex w-fit items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${
            feedback ? 'bg-green-100 text-green-900' : 'bg-stone-100 text-stone-700'
          }`}
        >
          {feedback ? (
            <CircleCheck aria-hidden="true" className="size-3.5" />
          ) : (
            <CircleDashed aria-hidden="true" className="size-3.5" />
          )}
          {feedback ? 'Feedback given' : 'No feedback yet'}
        </p>
      </div>
      {/* Above the card's link, so a tap on the box ticks it rather than opening the analysis. */}
      <label className="relative z-10 -m-1.5 flex size-11 shrink-0 cursor-pointer items-center justify-center self-start rounded-lg hover:bg-green-50">
        <input type="checkbox" checked={ticked} onChange={(event) => onTick(event.target.checked)} className="size-5 cursor-pointer accent-green-800" />
        <span className="sr-only">{`Tick for a job: ${title}, ${date}`}</span>
      </label>
    </li>
  );
}

function EmptyHistory() {
  return (
    <section className={`${cardStyles} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-800">
        <History aria-hidden="true" className="size-6" />
      </span>
      <h2 className="text-lg font-semibold text-stone-900">No analyses yet</h2>
      <p className="max-w-prose text-sm text-stone-700">Your analysed trees will appear here, with their estimates and reports.</p>
      <Link href="/" className={buttonStyles.primary}>
        <Plus aria-hidden="true" className="size-4" />
        Analyze a Tree
      </Link>
    </section>
  );
}

/**
 * The next page of History on request. While it loads the button stays focused and says so
 * (aria-disabled rather than disabled, which would drop keyboard focus); once it is in,
 * focus moves to the first new card, so a keyboard user carries on where the list grew.
 */
function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  return (
    <div className="mt-4 flex justify-center">
      <button
        type="button"
        className={buttonStyles.secondary}
        aria-disabled={loading || undefined}
        onClick={() => {
          if (!loading) onLoad();
        }}
      >
        {loading ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
        {loading ? 'Loading more analyses…' : 'Load more'}
      </button>
    </div>
  );
}

/** Past analyses, newest first, 20 at a time; each opens its full results at /history/{id}. */
export function HistoryPage() {
  const analyses = useAnalyses();
  // /history?job=12: opened from a job's "Add trees from History", so "Add to a job" offers it first.
  const forJob = useRouteId('job', 'search');
  const list = useRef<HTMLUListElement>(null);
  const focusFrom = useRef<number | null>(null);
  const shown = analyses.data?.length ?? 0;
  // In the order ticked: a job lists its trees in that order.
  const [ticked, setTicked] = useState<number[]>([]);
  const tick = (id: number, on: boolean) => setTicked((ids) => (on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id)));
  const clearTicks = () => {
    setTicked([]);
    list.current?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.focus();
  };

  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || shown <= from) return;
    focusFrom.current = null;
    list.current?.querySelectorAll<HTMLAnchorElement>(':scope > li a')[from]?.focus();
  }, [shown]);

  const loadMore = () => {
    focusFrom.current = shown;
    void analyses.fetchNextPage();
  };

  let content;
  if (analyses.isPending) {
    content = <PageState kind="loading" label="Loading your analyses" />;
  } else if (analyses.data === undefined) {
    content = <PageState kind="failed" error={analyses.error} fallback="Your analyses could not be loaded." onRetry={analyses.refetch} />;
  } else if (analyses.data.length === 0) {
    content = <EmptyHistory />;
  } else {
    content = (
      <>
        <p className="mb-3 text-sm text-stone-700">Tick analyses to make a job of them (one quote to a customer for several trees), or to add them to a job.</p>
        <ul ref={list} aria-label="Past analyses" className="grid gap-3 md:grid-cols-2">
          {analyses.data.map((analysis) => (
            <AnalysisCard key={analysis.id} analysis={analysis} ticked={ticked.includes(analysis.id)} onTick={(on) => tick(analysis.id, on)} />
          ))}
        </ul>
        {analyses.isFetchNextPageError ? (
          <div className="mt-4">
            <ErrorAlert>{errorMessage(analyses.error, 'More analyses could not be loaded.')}</ErrorAlert>
          </div>
        ) : null}
        {analyses.hasNextPage ? <LoadMore loading={analyses.isFetchingNextPage} onLoad={loadMore} /> : null}
        <MakeJobBar analysisIds={ticked} onClear={clearTicks} forJobId={forJob} />
      </>
    );
  }

  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle title="Analysis History" subtitle="Your past tree analyses and estimates." />
      <p className="-mt-3 mb-5">
        <Link href="/accuracy" className={`inline-flex items-center gap-1.5 text-sm ${linkStyles}`}>
          <Gauge aria-hidden="true" className="size-4" />
          How accurate are my estimates?
        </Link>
      </p>
      {content}
    </SignedInLayout>
  );
}
