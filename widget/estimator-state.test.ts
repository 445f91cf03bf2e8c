import { describe, expect, it } from 'vitest';
import {
  BUSINESS_NOT_FOUND_MESSAGE,
  EMBED_ANALYSIS_FAILED,
  EMBED_BUSY_MESSAGE,
  EMBED_UNAVAILABLE_MESSAGE,
  visitorLimitMessage,
} from '../core/embed';
import { BUSY_MESSAGE } from '../server/analysis/slots';
import { ApiError } from '../core/error-body';
import { estimateEventDetail, viewForAnalysisError, viewForBusiness, viewForBusinessError } from './estimator-state';
import { ESTIMATE, ESTIMATE_ANALYSIS, PUBLIC_BUSINESS as business } from './testing/estimate';

describe('viewForBusiness', () => {
  it('offers the upload only when the business can serve', () => {
    expect(viewForBusiness(business)).toEqual({ kind: 'upload' });
    expect(viewForBusiness({ ...business, status: 'busy' })).toEqual({ kind: 'busy' });
    expect(viewForBusiness({ ...business, status: 'unavailable' })).toEqual({
      kind: 'unavailable',
      message: EMBED_UNAVAILABLE_MESSAGE,
      canRetry: false,
    });
  });
});

describe('viewForBusinessError', () => {
  it('names a missing business with the not-found message', () => {
    expect(viewForBusinessError(new ApiError('Not found', 404, { code: 'NOT_FOUND' }))).toEqual({
      kind: 'unavailable',
      message: BUSINESS_NOT_FOUND_MESSAGE,
      canRetry: false,
    });
  });

  it("shows the server's words for a site that is not allowed", () => {
    const refused = new ApiError('This estimator is not enabled on this website.', 403, { code: 'FORBIDDEN' });
    expect(viewForBusinessError(refused)).toMatchObject({ kind: 'unavailable', message: refused.message, canRetry: false });
  });

  it('is busy when rate limited, and retryable when the server could not be reached', () => {
    expect(viewForBusinessError(new ApiError('Slow down', 429, { code: 'RATE_LIMITED' }))).toEqual({ kind: 'busy' });
    expect(viewForBusinessError(new ApiError('offline', 0))).toEqual({ kind: 'unavailable', message: 'offline', canRetry: true });
    expect(viewForBusinessError(new ApiError('boom', 500))).toMatchObject({ message: EMBED_UNAVAILABLE_MESSAGE, canRetry: true });
  });
});

describe('viewForAnalysisError', () => {
  it("never shows the owner's balance: no credits reads as temporarily unavailable", () => {
    const error = new ApiError('You need 10 credits', 402, { code: 'INSUFFICIENT_TOKENS', error: 'You need 10 credits' });
    expect(viewForAnalysisError(error)).toEqual({ kind: 'unavailable', message: EMBED_UNAVAILABLE_MESSAGE, canRetry: false });
  });

  it('is busy at the daily cap or a rate limit', () => {
    expect(viewForAnalysisError(new ApiError('Too many', 429, { code: 'RATE_LIMITED' }))).toEqual({ kind: 'busy' });
    // The business's limits carry a Retry-After too: still busy, not the visitor's doing.
    expect(viewForAnalysisError(new ApiError(EMBED_BUSY_MESSAGE, 429, { code: 'RATE_LIMITED', retryAfterSeconds: 600 }))).toEqual({
      kind: 'busy',
    });
  });

  it("tells a visitor who used up their own estimates the server's words and the wait", () => {
    const message = visitorLimitMessage(2940);
    const limited = new ApiError(message, 429, { code: 'VISITOR_LIMIT', error: message, retryAfterSeconds: 2940 });
    expect(viewForAnalysisError(limited)).toEqual({ kind: 'visitor_limit', message, waitSeconds: 2940 });
    expect(message).toBe('You have made several estimates; please try again in 49 minutes');
    // No Retry-After readable: the words alone, and the wait unknown (the retry re-checks).
    expect(viewForAnalysisError(new ApiError(message, 429, { code: 'VISITOR_LIMIT' }))).toEqual({
      kind: 'visitor_limit',
      message,
      waitSeconds: null,
    });
  });

  it('names a business that has gone', () => {
    expect(viewForAnalysisError(new ApiError('x', 404, { code: 'NOT_FOUND' }))).toMatchObject({ message: BUSINESS_NOT_FOUND_MESSAGE });
  });

  it("shows the server's words with Try Again when every analysis slot is taken (503 BUSY)", () => {
    // As the server answers it (server/analysis/slots.ts): code BUSY, the words twice, a Retry-After of seconds.
    const full = new ApiError(BUSY_MESSAGE, 503, { code: 'BUSY', error: BUSY_MESSAGE, retryAfterSeconds: 8 });
    expect(viewForAnalysisError(full)).toEqual({ kind: 'failed', message: BUSY_MESSAGE });
    // Not the business's "busy" (its day or rate), whose words say to come back later.
    expect(viewForAnalysisError(full)).not.toEqual({ kind: 'busy' });
  });

  it("shows the server's error field, else \"Analysis failed\"", () => {
    for (const status of [400, 413, 415, 502]) {
      expect(viewForAnalysisError(new ApiError('m', status, { error: 'The photo is too large' }))).toEqual({
        kind: 'failed',
        message: 'The photo is too large',
      });
    }
    expect(viewForAnalysisError(new ApiError('m', 502))).toEqual({ kind: 'failed', message: EMBED_ANALYSIS_FAILED });
    expect(viewForAnalysisError(new Error('odd'))).toEqual({ kind: 'failed', message: EMBED_ANALYSIS_FAILED });
  });
});

describe('the views switch on the answer\'s code, not its status', () => {
  it("reads a code whatever the status, and a proxy's bare status as a failure", () => {
    expect(viewForAnalysisError(new ApiError('x', 400, { code: 'NOT_FOUND' }))).toMatchObject({ message: BUSINESS_NOT_FOUND_MESSAGE });
    expect(viewForBusinessError(new ApiError('x', 400, { code: 'RATE_LIMITED' }))).toEqual({ kind: 'busy' });
    // A 429 or 402 with no code did not come from our server's rules (a proxy's page).
    expect(viewForAnalysisError(new ApiError('Too Many Requests', 429))).toEqual({ kind: 'failed', message: EMBED_ANALYSIS_FAILED });
    expect(viewForAnalysisError(new ApiError('Payment Required', 402))).toEqual({ kind: 'failed', message: EMBED_ANALYSIS_FAILED });
    expect(viewForBusinessError(new ApiError('Not Found', 404))).toMatchObject({ message: EMBED_UNAVAILABLE_MESSAGE, canRetry: true });
  });
});

describe('estimateEventDetail', () => {
  it('gives the totals and cost, nothing about the visitor', () => {
    expect(estimateEventDetail('oak', ESTIMATE)).toEqual({
      slug: 'oak',
      analysisId: 9,
      species: 'English oak',
      totalMinutes: { min: 30, max: 55 },
      cost: { min: '24.00', max: '44.00' },
      vat: 'none',
      currency: 'GBP',
    });
    // A business whose rate is 0 shows no price, and the host page is told none.
    const free = { ...ESTIMATE, analysis: { ...ESTIMATE_ANALYSIS, cost: null, price: null } };
    expect(estimateEventDetail('oak', free)).toMatchObject({ cost: null, vat: null });
  });
});
