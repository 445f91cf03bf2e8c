import { MessageSquare } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import type { Analysis } from '../../core/analysis';
import { useAnalysis } from '../api/analysis';
import { errorMessage, isApiError } from '../api/client';
import { ErrorAlert } from '../components/alert';
import { formatAnalysisDate } from '../components/analysis/analysis-date';
import { analysisTitle, EmbedSourceBadge } from '../components/analysis/embed-source-badge';
import { FeedbackStage } from '../components/analysis/feedback-stage';
import { JobDetails } from '../components/analysis/job-details';
import { ReportButton } from '../components/analysis/report-button';
import { AnalysisResults } from '../components/analysis/results-stage';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { Spinner } from '../components/spinner';
import { buttonStyles, linkStyles } from '../components/ui';

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
  if (analysis.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Loading the analysis" />
      </div>
    );
  }
  if (analysis.isError) {
    return <NotFound message={isApiError(analysis.error, 'NOT_FOUND') ? undefined : errorMessage(analysis.error, '')} />;
  }
  return <PastAnalysis analysis={analysis.data} />;
}

function NotFound({ message }: { message?: string }) {
  return (
    <div className="flex flex-col items-start gap-3">
      <PageTitle title="Analysis Not Found" />
      <ErrorAlert>{message || 'There is no analysis here. It may have been removed, or the link may be wrong.'}</ErrorAlert>
      <Link href="/history" className={linkStyles}>
        See all your analyses
      </Link>
    </div>
  );
}

export function HistoryDetailPage() {
  const params = useParams<{ id: string }>();
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink href="/history">Back to History</BackLink>
      </div>
      {valid ? <LoadedAnalysis key={id} id={id} /> : <NotFound />}
    </SignedInLayout>
  );
}
