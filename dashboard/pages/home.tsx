import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageSquare, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { Analysis } from '../../core/analysis';
import type { NeedsDetails } from '../../core/tree-details';
import { ANALYSIS_COST_CREDITS } from '../../core/credits';
import { rememberAnalysis } from '../api/analysis';
import { useVisionModel } from '../api/capabilities';
import { errorMessage, isApiError } from '../api/client';
import { signedInApi } from '../api/signed-in';
import { queryKeys } from '../api/query-client';
import { useUserTokens } from '../api/credits';
import { usePreferredUnits } from '../api/units';
import { analysisForm, EMPTY_DRAFT, type AnalysisDraft } from '../components/analysis/draft';
import { ANALYSIS_FAILED_FALLBACK, ErrorStage } from '../components/analysis/error-stage';
import { FeedbackStage } from '../components/analysis/feedback-stage';
import { NeedsDetailsStage } from '../components/analysis/needs-details-stage';
import { PlanSection } from '../components/analysis/plan-section';
import { ProcessingStage } from '../components/analysis/processing-stage';
import { ReportButton } from '../components/analysis/report-button';
import { AnalysisResults } from '../components/analysis/results-stage';
import { SubscribeCard } from '../components/analysis/subscribe-card';
import { measureForPhoto } from '../components/analysis/tree-details-draft';
import { withStartingUnits } from '../components/analysis/size-units';
import { UploadStage } from '../components/analysis/upload-stage';
import { PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { showErrorToast, showToast } from '../components/toast';
import { buttonStyles, cardStyles } from '../components/ui';

/**
 * The five stages of the main page, and the answer that is not a quote
 * ("needs details": no size from anywhere, or not a tree; nothing charged).
 */
type Stage =
  | { name: 'upload'; focusTreeDetails?: boolean }
  /** `next` is where the analysis goes once the processing rows have finished. */
  | { name: 'processing'; file: File; next?: Stage }
  | { name: 'results'; analysis: Analysis }
  | { name: 'feedback'; analysis: Analysis }
  | { name: 'needs_details'; answer: NeedsDetails; file: File }
  | { name: 'error'; error: unknown };

interface View {
  stage: Stage;
  /** False only on first load, so focus moves to a stage's heading only after the user acts. */
  moved: boolean;
}

/** `onAnswered` gets the stage the answer leads to; a failure goes straight to `onFailed`. */
function useAnalyze(onAnswered: (stage: Stage) => void, onFailed: (stage: Stage) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ form }: { form: FormData; file: File }) => signedInApi.analysis.analyze(form),
    onSuccess: (answer, { file }) => {
      // The balance is read again after a successful analysis.
      void queryClient.invalidateQueries({ queryKey: queryKeys.userTokens });
      if (answer.outcome === 'needs_details') {
        onAnswered({ name: 'needs_details', answer, file });
        return;
      }
      const { analysis, confidence } = answer;
      rememberAnalysis(queryClient, analysis);
      showToast({ title: 'Analysis Complete', description: `Tree analyzed with ${Math.round(confidence * 100)}% confidence` });
      onAnswered({ name: 'results', analysis });
    },
    onError: (error) => {
      if (isApiError(error, 'INSUFFICIENT_TOKENS')) {
        // The badge and the uploader should now show what the server knows.
        void queryClient.invalidateQueries({ queryKey: queryKeys.userTokens });
      } else {
        showErrorToast({ title: 'Analysis Failed', description: errorMessage(error, ANALYSIS_FAILED_FALLBACK) });
      }
      onFailed({ name: 'error', error });
    },
  });
}

function UploadOrSubscribe(props: Parameters<typeof UploadStage>[0]) {
  const tokens = useUserTokens();
  if (tokens.isPending) {
    return <PageState kind="loading" label="Loading your credits" className={`${cardStyles} py-16`} />;
  }
  // Below 10 credits the uploader gives way, unless an Unlimited pass pays
  // (docs/product.md, Analysis). If the balance cannot be read, the uploader stays: the server refuses
  // an unpaid analysis with 402 anyway.
  if (tokens.data && !tokens.data.unlimited && tokens.data.tokensRemaining < ANALYSIS_COST_CREDITS) {
    return <SubscribeCard credits={tokens.data.tokensRemaining} />;
  }
  return <UploadStage {...props} />;
}

export function HomePage() {
  const preferredUnits = usePreferredUnits();
  const emptyDraft = (): AnalysisDraft => ({ ...EMPTY_DRAFT, treeDetails: withStartingUnits(EMPTY_DRAFT.treeDetails, preferredUnits) });
  const [draft, setDraft] = useState<AnalysisDraft>(emptyDraft);
  // The account's units arrive after the first paint: sizes not yet typed take them (state
  // adjusted while rendering, as React advises for state that follows a value).
  const [unitsSeen, setUnitsSeen] = useState(preferredUnits);
  if (unitsSeen !== preferredUnits) {
    setUnitsSeen(preferredUnits);
    const treeDetails = withStartingUnits(draft.treeDetails, preferredUnits);
    if (treeDetails !== draft.treeDetails) setDraft({ ...draft, treeDetails });
  }
  const [view, setView] = useState<View>({ stage: { name: 'upload' }, moved: false });
  const tokens = useUserTokens();
  const visionModel = useVisionModel();
  const go = (stage: Stage) => setView({ stage, moved: true });
  // The answer waits on the processing stage until its rows have finished (ProcessingStage).
  const answered = (next: Stage) =>
    setView((current) => (current.stage.name === 'processing' ? { ...current, stage: { ...current.stage, next } } : current));
  const analyze = useAnalyze(answered, go);

  function begin(file: File, options?: { sizesConfirmed: boolean }) {
    go({ name: 'processing', file });
    analyze.mutate({ form: analysisForm(file, draft, options), file });
  }

  function startOver() {
    setDraft(emptyDraft());
    go({ name: 'upload' });
  }

  const { stage, moved } = view;
  let content;
  switch (stage.name) {
    case 'upload':
      content = (
        <>
          <UploadOrSubscribe
            draft={draft}
            onDraftChange={setDraft}
            onBegin={begin}
            focusHeading={moved}
            focusTreeDetails={stage.focusTreeDetails}
          />
          <PlanSection tokens={tokens.data} />
        </>
      );
      break;
    case 'processing':
      content = (
        <ProcessingStage
          file={stage.file}
          answered={stage.next !== undefined}
          onFinished={() => {
            if (stage.next) go(stage.next);
          }}
        />
      );
      break;
    case 'results':
      content = (
        <AnalysisResults
          analysis={stage.analysis}
          focusHeading={moved}
          actions={
            <>
              <ReportButton analysis={stage.analysis} />
              <button
                type="button"
                className={buttonStyles.secondary}
                onClick={() => go({ name: 'feedback', analysis: stage.analysis })}
              >
                <MessageSquare aria-hidden="true" className="size-4" />
                Provide Feedback
              </button>
              <button type="button" className={buttonStyles.secondary} onClick={startOver}>
                <RotateCcw aria-hidden="true" className="size-4" />
                Analyze Another Tree
              </button>
            </>
          }
        />
      );
      break;
    case 'feedback':
      content = (
        <FeedbackStage
          analysis={stage.analysis}
          focusHeading={moved}
          onBack={() => go({ name: 'results', analysis: stage.analysis })}
          // After a submit, back to upload with the file, analysis, description and feedback cleared.
          onSubmitted={startOver}
        />
      );
      break;
    case 'needs_details':
      content = (
        <NeedsDetailsStage
          answer={stage.answer}
          file={stage.file}
          // The photo and everything entered stay; the user lands on what is missing: the
          // tree's size, or (not a tree) the photo, under the upload heading.
          onBack={() => go({ name: 'upload', focusTreeDetails: stage.answer.missing.some((m) => m !== 'tree_photo') })}
          onConfirmSizes={() => begin(stage.file, { sizesConfirmed: true })}
        />
      );
      break;
    case 'error':
      content = (
        <ErrorStage
          error={stage.error}
          // Try Again clears the file, error and analysis; what was typed stays.
          onTryAgain={() => {
            setDraft((current) => ({
              ...current,
              file: null,
              treeDetails: { ...current.treeDetails, measure: measureForPhoto(current.treeDetails.measure) },
            }));
            go({ name: 'upload' });
          }}
        />
      );
      break;
  }

  return (
    <SignedInLayout>
      <PageTitle
        title="Professional Tree Analysis"
        subtitle={
          visionModel
            ? 'Upload one photo of a tree to estimate its species, size, work time and cost.'
            : 'Upload a photo of a tree with its details, or measure it on the photo, to estimate the work time and cost. The photo is checked for quality only.'
        }
      />
      {content}
    </SignedInLayout>
  );
}
