import { useCallback, useEffect, useRef, useState } from 'react';
import { BUSINESS_NOT_FOUND_MESSAGE, VISITOR_PROCESSING_STEPS, EMBED_TICK_MS, LEAD_EVENT, LEAD_MAX_TREES, RESULT_EVENT } from '../core/embed';
import type { PublicBusiness } from '../core/business';
import { EMPTY_MEASURE, photoMeasurementOf, type MeasureDraft } from '../core/measure-draft';
import { ONE_PHOTO_ONLY, photoProblem } from '../core/photo-check';
import { photoToSend } from '../core/photo-shrink';
import type { SiteDetails } from '../core/questions';
import type { EstimatorApi, LeadRequest } from './api';
import {
  estimateEventDetail,
  viewForAnalysisError,
  viewForBusiness,
  viewForBusinessError,
  type EstimatorView,
} from './estimator-state';
import type { HostEvent } from './host-events';
import { EMPTY_LEAD_DRAFT, type LeadDraft, type PricedTree } from './lead-draft';
import { answerFields, EMPTY_TREE_ANSWERS, type TreeAnswers } from './questions/answers';

/**
 * Once the answer is in, the steps left play at this pace before it shows: a finished
 * estimate is not held back for whole ticks, and the view never just flashes by.
 */
export const FINISHING_TICK_MS = 150;

const LAST_TICK = VISITOR_PROCESSING_STEPS.length - 1;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The estimator's state: load the business, then upload, processing
 * while the request is pending, results or an error view. One instance per slug (the
 * root remounts it when the attribute changes).
 */
export function useEstimator(slug: string, api: EstimatorApi, tellHost: (event: HostEvent) => void) {
  const [business, setBusiness] = useState<PublicBusiness | null>(null);
  const [view, setView] = useState<EstimatorView>(() =>
    slug ? { kind: 'loading' } : { kind: 'unavailable', message: BUSINESS_NOT_FOUND_MESSAGE, canRetry: false },
  );
  const [loadAttempt, setLoadAttempt] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  /** The visitor's taps: the tree's size and kind, the site, and any measuring on the photo. */
  const [tree, setTree] = useState<TreeAnswers>(EMPTY_TREE_ANSWERS);
  const [site, setSite] = useState<SiteDetails>({});
  const [measure, setMeasure] = useState<MeasureDraft>(EMPTY_MEASURE);
  /**
   * Several trees, one request: every tree priced in this visit, in order, and the quote request
   * as typed so far. "Add another tree" keeps both, and the site answers ("same as before").
   */
  const [trees, setTrees] = useState<PricedTree[]>([]);
  const [leadDraft, setLeadDraft] = useState<LeadDraft>(EMPTY_LEAD_DRAFT);
  /** The trees the last request sent carried: once every tree listed was sent, the thanks show. */
  const [sentTrees, setSentTrees] = useState<number[]>([]);
  /** The site answers were kept from the tree before: the upload says so. */
  const [siteKept, setSiteKept] = useState(false);
  const [tick, setTick] = useState(0);
  /** The tick as last set, for the finishing steps; and whether they have taken over from the cycle. */
  const tickNow = useRef(0);
  const finishing = useRef(false);
  /** Focus follows views only once the visitor has acted; never on load (it would steal the host page's focus). */
  const [acted, setActed] = useState(false);
  /** Aborts whatever is in flight when the element leaves the page. */
  const [lifetime] = useState(() => new AbortController());

  useEffect(() => () => lifetime.abort(), [lifetime]);

  useEffect(() => {
    if (!slug) return;
    let current = true;
    api.business(slug, lifetime.signal).then(
      (found) => {
        if (!current) return;
        setBusiness(found);
        setView(viewForBusiness(found));
      },
      (error: unknown) => {
        if (current && !lifetime.signal.aborted) setView(viewForBusinessError(error));
      },
    );
    return () => {
      current = false;
    };
  }, [api, slug, loadAttempt, lifetime]);

  // A cosmetic tick cycling 0 to 3 once a second while the request is pending.
  useEffect(() => {
    if (view.kind !== 'processing') return;
    const timer = setInterval(() => {
      if (finishing.current) return;
      tickNow.current = (tickNow.current + 1) % VISITOR_PROCESSING_STEPS.length;
      setTick(tickNow.current);
    }, EMBED_TICK_MS);
    return () => clearInterval(timer);
  }, [view.kind]);

  const choose = (files: File[]) => {
    const [chosen] = files;
    if (!chosen) return;
    const reason = files.length > 1 ? ONE_PHOTO_ONLY : photoProblem(chosen);
    setProblem(reason);
    if (!reason) {
      setFile(chosen);
      // Made smaller now, while the visitor answers; send() awaits it (docs/product.md, The photo on its way).
      void photoToSend(chosen);
      // Taps on the photo belong to that photo.
      setMeasure(EMPTY_MEASURE);
      api.reportPhoto(slug);
    }
  };

  const send = async (sizesConfirmed: boolean) => {
    if (!file) return;
    setActed(true);
    tickNow.current = 0;
    finishing.current = false;
    setTick(0);
    setView({ kind: 'processing' });
    // The results' chunk, fetched while the estimate is made (tree-estimator.tsx).
    void import('./views/results-view').catch(() => undefined);
    try {
      // On "needs details" the size tiles offer no "Let the photo decide": a blank size there is "Not sure".
      const sizesFromPhoto = (business?.sizesFromPhoto ?? false) && view.kind !== 'needs_details';
      const fields = { description, ...answerFields(tree, site, photoMeasurementOf(measure), sizesConfirmed, sizesFromPhoto) };
      const answer = await api.analyze(slug, await photoToSend(file), fields, lifetime.signal);
      await finishTicks();
      if (answer.outcome === 'needs_details') {
        setView({ kind: 'needs_details', answer });
        return;
      }
      setView({ kind: 'results', response: answer });
      setTrees((list) => [...list.filter((t) => t.analysis.id !== answer.analysis.id), answer].slice(-LEAD_MAX_TREES));
      tellHost({ type: RESULT_EVENT, detail: estimateEventDetail(slug, answer) });
    } catch (error) {
      if (!lifetime.signal.aborted) setView(viewForAnalysisError(error));
    }
  };

  const analyze = () => send(false);
  /** "These sizes are right": the same photo and answers again, the size checks' warnings accepted. */
  const confirmSizes = () => send(true);

  /** The steps left to the last, quickly, then a beat on the full bar. */
  const finishTicks = async () => {
    finishing.current = true;
    while (tickNow.current < LAST_TICK) {
      await pause(FINISHING_TICK_MS);
      tickNow.current += 1;
      setTick(tickNow.current);
    }
    await pause(FINISHING_TICK_MS);
  };

  const clearUpload = () => {
    setFile(null);
    setProblem(null);
    setMeasure(EMPTY_MEASURE);
  };

  /**
   * "Add another tree": back to the photo with this tree's photo, sizes and notes cleared; the
   * trees priced so far, the request as typed and the site answers are kept.
   */
  const addTree = () => {
    setActed(true);
    clearUpload();
    setDescription('');
    setTree(EMPTY_TREE_ANSWERS);
    setSiteKept(Object.keys(site).length > 0);
    setView({ kind: 'upload' });
  };

  /** Takes a tree off the list (the request will not carry it); with none left, back to the photo. */
  const removeTree = (analysisId: number) => {
    setActed(true);
    const left = trees.filter((t) => t.analysis.id !== analysisId);
    setTrees(left);
    const last = left.at(-1);
    if (view.kind === 'results' && view.response.analysis.id === analysisId) {
      if (last) setView({ kind: 'results', response: last });
      else addTree();
    }
  };

  /** "Back to your trees" from the photo of the next one: the last tree's results again. */
  const backToTrees = () => {
    const last = trees.at(-1);
    if (!last) return;
    setActed(true);
    setView({ kind: 'results', response: last });
  };

  /**
   * "Try Again": back to upload when the business can take analyses (clearing the
   * file, the error and the analysis), otherwise load the business afresh.
   */
  const tryAgain = () => {
    setActed(true);
    clearUpload();
    if (business?.status === 'available') {
      setView({ kind: 'upload' });
    } else {
      setView({ kind: 'loading' });
      setLoadAttempt((n) => n + 1);
    }
  };

  /**
   * From "needs details", or from the visitor's limit once it is over, back to the upload,
   * keeping the photo and the context to add to or send again.
   */
  const addDetails = () => {
    setActed(true);
    setView({ kind: 'upload' });
  };

  /** One request with every tree of the visit, each proven by its own token. */
  const submitLead = (lead: Omit<LeadRequest, 'trees'>) =>
    api.requestQuote(slug, { ...lead, trees: trees.map((t) => ({ analysisId: t.analysis.id, leadToken: t.leadToken })) });

  /** The note under the request's postcode (docs/product.md, Protected trees), or null. */
  // Stable, so the form's lookup waits on the postcode alone, not on the estimator's renders.
  const siteNote = useCallback((postcode: string, signal?: AbortSignal) => api.siteNote(slug, postcode, signal), [api, slug]);

  const leadSent = () => {
    setSentTrees(trees.map((t) => t.analysis.id));
    const [first] = trees;
    if (first) tellHost({ type: LEAD_EVENT, detail: { slug, analysisId: first.analysis.id, trees: trees.length } });
  };

  return {
    business,
    view,
    file,
    problem,
    description,
    tree,
    site,
    measure,
    tick,
    acted,
    setDescription,
    setTree,
    setSite,
    setMeasure,
    trees,
    leadDraft,
    setLeadDraft,
    sentTrees,
    siteKept,
    choose,
    removeFile: clearUpload,
    analyze,
    confirmSizes,
    addTree,
    removeTree,
    backToTrees,
    addDetails,
    tryAgain,
    submitLead,
    siteNote,
    leadSent,
  };
}
