import { MessageSquare } from 'lucide-react';
import { useState } from 'react';
import type { Analysis } from '../../core/analysis';
import { useAnalysis } from '../api/analysis';
import { formatAnalysisDate } from '../components/analysis/analysis-date';
import { analysisTitle, EmbedSourceBadge } from '../components/analysis/embed-source-badge';
import { FeedbackStage } from '../components/analysis/feedback-stage';
import { JobDetails } from '../components/analysis/job-details';
import { ReportButton } from '../components/analysis/report-button';
import { AnalysisResults } from '../components/analysis/results-stage';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { buttonStyles } from '../components/ui';
import { useRouteId } from '../components/use-route-id';

/** One past analysis: its results, its report, and feedback that can be sent later. */
function PastAnalysis({ analysis }: { analysis: Analysis }) {
  const [view, setView] = useState<{ name: 'results' | 'feedback'; moved: boolean }>({ name: 'results', moved: false });
  const go = (name: 'results' | 'feedback') => setView({ name, moved: true });

  return (
    <>
      <PageTitle
        title={analysisTitle(analysis)}
        subtitle={`Analysed ${formatAnalysisDate(analysis.createdAt)}`}
      />
      {analysis.source === 'embed' ? (
        <div className="-mt-3 mb-5">
          <EmbedSourceBadge analysis={analysis} />
        </div>
      ) : null}
      {view.name === 'feedback' ? (
        <FeedbackStage
          analysis={analysis}
          focusHeading={view.moved}
          onBack={() => go('results')}
          onSubmitted={() => go('results')}
        />
      ) : (
        <AnalysisResults
          analysis={analysis}
          focusHeading={view.moved}
          actions={
            <>
              <ReportButton analysis={analysis} />
              <button type="button" className={buttonStyles.secondary} onClick={() => go('feedback')}>
                <MessageSquare aria-hidden="true" className="size-4" />
                Provide Feedback
              </button>
            </>
          }
        />
      )}
      <JobDetails analysis={analysis} />
    </>
  );
}

function LoadedAnalysis({ id }: { id: number }) {
  const analysis = useAnalysis(id);
  if (analysis.isPending) return <PageState kind="loading" label="Loading the analysis" />;
  if (analysis.isError) return <PageState kind="not-found" {...NO_ANALYSIS} error={analysis.error} />;
  return <PastAnalysis analysis={analysis.data} />;
}

/** What the page says when its address names no analysis, or the analysis could not be read. */
const NO_ANALYSIS = {
  title: 'Analysis Not Found',
  fallback: 'There is no analysis here. It may have been removed, or the link may be wrong.',
  back: { href: '/history', label: 'See all your analyses' },
};

export function HistoryDetailPage() {
  const id = useRouteId();
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink href="/history">Back to History</BackLink>
      </div>
      {id === undefined ? <PageState kind="not-found" {...NO_ANALYSIS} /> : <LoadedAnalysis key={id} id={id} />}
    </SignedInLayout>
  );
}
