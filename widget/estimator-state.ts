import { BUSINESS_NOT_FOUND_MESSAGE, EMBED_ANALYSIS_FAILED, EMBED_UNAVAILABLE_MESSAGE, type EstimateEventDetail } from '../core/embed';
import type { EmbedAnalysis, EmbedAnalyzeResponse, EmbedNeedsDetails } from '../core/embed-api';
import type { PublicBusiness } from '../core/business';
import { totalMinutes } from '../core/format';
import { penceToDecimal } from '../core/money';
import { headlineRange } from '../core/price';
import { ApiError, NO_ANSWER_STATUS } from '../core/error-body';

/**
 * The estimator's views (docs/product.md, Embed widget) and
 * the pure rules that pick one from an answer or an error.
 */
export type EstimatorView =
  | { kind: 'loading' }
  /** "Service Unavailable" with a message; a retry only where trying again can help. */
  | { kind: 'unavailable'; message: string; canRetry: boolean }
  /** The business's daily cap or a rate limit: "The estimator is busy, please try again later". */
  | { kind: 'busy' }
  /**
   * The visitor's own analyses from this address are used up: the server's
   * words with the wait, and the seconds to count down (null when the answer gave none). The
   * photo and answers are kept for when the wait is over.
   */
  | { kind: 'visitor_limit'; message: string; waitSeconds: number | null }
  | { kind: 'upload' }
  | { kind: 'processing' }
  | { kind: 'results'; response: EmbedAnalyzeResponse }
  /** Not enough to quote (no size, or not a tree): what is missing; nothing was charged. */
  | { kind: 'needs_details'; answer: EmbedNeedsDetails }
  /** Any other analysis failure: the server's `error` field, else "Analysis failed". */
  | { kind: 'failed'; message: string };

/** A loaded business's status decides whether visitors may upload at all. */
export function viewForBusiness(business: PublicBusiness): EstimatorView {
  if (business.status === 'unavailable') return { kind: 'unavailable', message: EMBED_UNAVAILABLE_MESSAGE, canRetry: false };
  if (business.status === 'busy') return { kind: 'busy' };
  return { kind: 'upload' };
}

/**
 * A failure to load the business: missing, refused for this site, busy, or unreachable. Read by
 * the answer's code (core/errors.ts), as every screen reads errors.
 */
export function viewForBusinessError(error: unknown): EstimatorView {
  if (!(error instanceof ApiError)) return { kind: 'unavailable', message: EMBED_UNAVAILABLE_MESSAGE, canRetry: true };
  switch (error.code) {
    case 'NOT_FOUND':
      return { kind: 'unavailable', message: BUSINESS_NOT_FOUND_MESSAGE, canRetry: false };
    case 'RATE_LIMITED':
    case 'VISITOR_LIMIT':
      return { kind: 'busy' };
    case 'FORBIDDEN':
      // This site is not on the business's allowed list; the server's words say so.
      return { kind: 'unavailable', message: error.message, canRetry: false };
    default:
      return { kind: 'unavailable', message: error.status === NO_ANSWER_STATUS ? error.message : EMBED_UNAVAILABLE_MESSAGE, canRetry: true };
  }
}

/**
 * A failed analysis. The owner's empty balance is never shown as such (the
 * customer never sees it; docs/product.md, Embed widget), only as "temporarily unavailable".
 */
export function viewForAnalysisError(error: unknown): EstimatorView {
  if (!(error instanceof ApiError)) return { kind: 'failed', message: EMBED_ANALYSIS_FAILED };
  switch (error.code) {
    case 'INSUFFICIENT_TOKENS':
      return { kind: 'unavailable', message: EMBED_UNAVAILABLE_MESSAGE, canRetry: false };
    case 'VISITOR_LIMIT':
      return { kind: 'visitor_limit', message: error.message, waitSeconds: error.retryAfterSeconds ?? null };
    case 'RATE_LIMITED':
      return { kind: 'busy' };
    case 'NOT_FOUND':
      return { kind: 'unavailable', message: BUSINESS_NOT_FOUND_MESSAGE, canRetry: false };
    case 'FORBIDDEN':
      return { kind: 'unavailable', message: error.message, canRetry: false };
    default:
      if (error.status === NO_ANSWER_STATUS) return { kind: 'failed', message: error.message };
      return { kind: 'failed', message: error.error ?? EMBED_ANALYSIS_FAILED };
  }
}

/** The range the visitor was shown, as decimal text. */
function shownRange(price: EmbedAnalysis['price']): EstimateEventDetail['cost'] {
  if (!price) return null;
  const { minPence, maxPence } = headlineRange(price);
  return { min: penceToDecimal(minPence), max: penceToDecimal(maxPence) };
}

/** `event.detail` of tree-estimator:result for the host page's own analytics. */
export function estimateEventDetail(slug: string, { analysis }: EmbedAnalyzeResponse): EstimateEventDetail {
  return {
    slug,
    analysisId: analysis.id,
    species: analysis.species,
    totalMinutes: totalMinutes(analysis),
    cost: shownRange(analysis.price),
    vat: analysis.price?.vatMode ?? null,
    currency: 'GBP',
  };
}
