import { lazy, Suspense, type CSSProperties } from 'react';
import { EMBED_BUSY_MESSAGE, VISITOR_PROCESSING_STEPS } from '../core/embed';
import { DEFAULT_UNIT_SYSTEM } from '../core/units';
import { VISITOR_SAFETY_NOTE } from '../core/upload-rules';
import { accentPalette } from '../core/accent';
import { estimatorApi } from './api';
import { announceToHost, type HostEvent } from './host-events';
import styles from './styles.css?inline';
import { useEstimator } from './use-estimator';
import { useClearOfHostBars } from './use-clear-of-host-bars';
import { useFrameResize } from './use-frame-resize';
import { UnitsContext } from './units-context';
import { LoadingView } from './views/loading-view';
import { MessageView } from './views/message-view';
import { NeedsDetailsView } from './views/needs-details-view';
import { ProcessingView } from './views/processing-view';
import { UploadView } from './views/upload-view';
import { VisitorLimitView } from './views/visitor-limit-view';

/** The results, the trees and the quote request: their own chunk, fetched while the estimate is made (use-estimator.ts). */
const ResultsView = lazy(() => import('./views/results-view'));

/**
 * The API is wherever this script came from (CONVENTIONS 6): the estimator works on any
 * site that loads it, with no configuration.
 */
const api = estimatorApi(new URL(import.meta.url).origin);

export interface TreeEstimatorProps {
  slug?: string;
  /** Set by /embed/{slug}: the element sits in our page inside the business's iframe. */
  frame?: boolean;
  /** Passed by r2wc: the element's open shadow root. */
  container?: ShadowRoot | HTMLElement;
}

/**
 * <tree-estimator slug="..." [frame]>: the whole estimator, rendered by r2wc into the
 * element's shadow root with its own compiled styles beside it.
 */
export function TreeEstimator({ slug = '', frame, container }: TreeEstimatorProps) {
  const host = container instanceof ShadowRoot ? container.host : (container ?? null);
  // r2wc parses a boolean attribute only when it has a value, so a bare `frame` counts too.
  const inFrame = frame ?? host?.hasAttribute('frame') ?? false;
  return (
    <>
      <style>{styles}</style>
      <Estimator key={slug} slug={slug.trim()} host={host} inFrame={inFrame} />
    </>
  );
}

/** "Step 2 of 4: Analysing the tree"; a screen reader reads a trailing "..." aloud as dots. */
function progressAnnouncement(tick: number): string {
  const step = VISITOR_PROCESSING_STEPS[tick] ?? '';
  return `Step ${tick + 1} of ${VISITOR_PROCESSING_STEPS.length}: ${step.replace(/\.+$/, '')}`;
}

/** The questions' answers and setters, for the upload and needs-details views. */
function answersOf(estimator: ReturnType<typeof useEstimator>, sizesFromPhoto: boolean) {
  return {
    tree: estimator.tree,
    onTreeChange: estimator.setTree,
    site: estimator.site,
    onSiteChange: estimator.setSite,
    measure: estimator.measure,
    onMeasureChange: estimator.setMeasure,
    sizesFromPhoto,
  };
}

function Estimator({ slug, host, inFrame }: { slug: string; host: Element | null; inFrame: boolean }) {
  const tellHost = (event: HostEvent) => announceToHost(host, inFrame, event);
  const estimator = useEstimator(slug, api, tellHost);
  const { business, view, acted: focus } = estimator;
  const wrapper = useFrameResize<HTMLElement>(inFrame);
  const roomBelow = useClearOfHostBars(wrapper, inFrame);
  const palette = accentPalette(business?.accentColor);
  const accentVariables = {
    '--estimator-accent': palette.accent,
    '--estimator-on-accent': palette.onAccent,
    '--estimator-accent-visible': palette.accentVisible,
  } as CSSProperties;
  const name = business?.name ?? '';

  return (
    <section
      ref={wrapper}
      aria-label={name ? `Tree work estimator by ${name}` : 'Tree work estimator'}
      className="@container bg-white text-left font-sans text-base leading-normal font-normal text-stone-800 antialiased"
      style={roomBelow > 0 ? { ...accentVariables, paddingBottom: roomBelow } : accentVariables}
    >
      <div className="p-4 @md:p-6">
      <UnitsContext.Provider value={business?.units ?? DEFAULT_UNIT_SYSTEM}>
      {/* Announces each processing step; the views' headings take focus for everything else. */}
      <p role="status" className="sr-only">
        {view.kind === 'processing' ? progressAnnouncement(estimator.tick) : ''}
      </p>

      {view.kind === 'loading' && <LoadingView />}
      {view.kind === 'unavailable' && (
        <MessageView
          title="Service Unavailable"
          message={view.message}
          onRetry={view.canRetry ? estimator.tryAgain : undefined}
          focus={focus}
        />
      )}
      {view.kind === 'busy' && <MessageView title={EMBED_BUSY_MESSAGE} onRetry={estimator.tryAgain} focus={focus} />}
      {view.kind === 'visitor_limit' && (
        <VisitorLimitView message={view.message} waitSeconds={view.waitSeconds} onRetry={estimator.addDetails} focus={focus} />
      )}
      {view.kind === 'failed' && (
        <MessageView title="Something went wrong" message={view.message} onRetry={estimator.tryAgain} focus={focus} />
      )}
      {view.kind === 'upload' && (
        <UploadView
          businessName={name}
          file={estimator.file}
          problem={estimator.problem}
          description={estimator.description}
          onChoose={estimator.choose}
          onRemove={estimator.removeFile}
          onDescriptionChange={estimator.setDescription}
          onAnalyze={estimator.analyze}
          focus={focus}
          answers={answersOf(estimator, business?.sizesFromPhoto ?? false)}
          treesSoFar={estimator.trees.length}
          siteKept={estimator.siteKept}
          onBackToTrees={estimator.backToTrees}
        />
      )}
      {view.kind === 'processing' && <ProcessingView tick={estimator.tick} focus={focus} />}
      {view.kind === 'needs_details' && (
        <NeedsDetailsView
          answer={view.answer}
          file={estimator.file}
          answers={answersOf(estimator, false)}
          onRetry={estimator.analyze}
          onConfirmSizes={estimator.confirmSizes}
          onBack={estimator.addDetails}
          focus={focus}
        />
      )}
      {view.kind === 'results' && (
        <Suspense fallback={<LoadingView />}>
          <ResultsView
            response={view.response}
            trees={estimator.trees}
            businessName={name}
            onAddTree={estimator.addTree}
            onRemoveTree={estimator.removeTree}
            lead={{
              draft: estimator.leadDraft,
              onDraft: estimator.setLeadDraft,
              sent: estimator.trees.length > 0 && estimator.trees.every((t) => estimator.sentTrees.includes(t.analysis.id)),
              submit: estimator.submitLead,
              siteNote: estimator.siteNote,
              onSent: estimator.leadSent,
            }}
            focus={focus}
          />
        </Suspense>
      )}

      <footer className="mt-6 flex flex-col gap-1 border-t border-stone-200 pt-3 text-xs text-stone-600">
        {name && <p className="font-semibold text-stone-700">Powered by {name}</p>}
        <p>{VISITOR_SAFETY_NOTE}</p>
      </footer>
      </UnitsContext.Provider>
      </div>
    </section>
  );
}
