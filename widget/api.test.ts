import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, CONNECTION_MESSAGE, estimatorApi, readApiError } from './api';
import { ApiError as SharedApiError } from '../core/error-body';
import { ESTIMATE, PUBLIC_BUSINESS } from './testing/estimate';

function response(body: string, init: ResponseInit) {
  return new Response(body, init);
}

describe('readApiError', () => {
  it('takes the message, code, error and details from a JSON body', async () => {
    const error = await readApiError(
      response(JSON.stringify({ message: 'Name is required', code: 'VALIDATION_ERROR', details: { name: ['Name is required', 7] } }), {
        status: 400,
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    // The dashboard's class too (dashboard/api/client.ts): one error, read one way.
    expect(ApiError).toBe(SharedApiError);
    expect(error.message).toBe('Name is required');
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual({ name: ['Name is required'] });
  });

  it("carries the analysis route's error field", async () => {
    const error = await readApiError(
      response(JSON.stringify({ message: 'Could not read the image', code: 'VALIDATION_ERROR', error: 'Could not read the image' }), {
        status: 400,
      }),
    );
    expect(error.error).toBe('Could not read the image');
  });

  it('falls back to the raw text, then the status text, then HTTP {status}', async () => {
    expect((await readApiError(response('Bad gateway from proxy', { status: 502 }))).message).toBe('Bad gateway from proxy');
    expect((await readApiError(response('', { status: 503, statusText: 'Service Unavailable' }))).message).toBe('Service Unavailable');
    expect((await readApiError(response('', { status: 500 }))).message).toBe('HTTP 500');
  });

  it("carries a 429's Retry-After in seconds, and nothing when it is absent or not seconds", async () => {
    const limited = await readApiError(
      response(JSON.stringify({ message: 'wait', code: 'VISITOR_LIMIT' }), { status: 429, headers: { 'Retry-After': '2940' } }),
    );
    expect(limited.code).toBe('VISITOR_LIMIT');
    expect(limited.retryAfterSeconds).toBe(2940);
    expect((await readApiError(response('{}', { status: 429 }))).retryAfterSeconds).toBeUndefined();
    const dated = response('{}', { status: 429, headers: { 'Retry-After': 'Wed, 21 Oct 2026 07:28:00 GMT' } });
    expect((await readApiError(dated)).retryAfterSeconds).toBeUndefined();
  });

  it('uses the raw text when the JSON has no message', async () => {
    const error = await readApiError(response('{"code":"RATE_LIMITED"}', { status: 429 }));
    expect(error.message).toBe('{"code":"RATE_LIMITED"}');
    expect(error.code).toBe('RATE_LIMITED');
  });
});

describe('estimatorApi', () => {
  afterEach(() => vi.unstubAllGlobals());

  function stubFetch(answer: () => Promise<Response>) {
    const fetch = vi.fn((_url: string, _init: RequestInit) => answer());
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  it('never sends cookies and names the business in the path', async () => {
    const fetch = stubFetch(async () => response(JSON.stringify(PUBLIC_BUSINESS), { status: 200 }));
    const business = await estimatorApi('https://trees.example').business('oak');
    expect(business.name).toBe('Oak');
    expect(fetch).toHaveBeenCalledWith('https://trees.example/api/businesses/oak', expect.objectContaining({ credentials: 'omit' }));
  });

  it('sends the slug twice, the description only when it is not blank, and the answers when there are any', async () => {
    const fetch = stubFetch(async () => response(JSON.stringify(ESTIMATE), { status: 201 }));
    const api = estimatorApi('https://trees.example');
    const photo = new File([new Uint8Array([1, 2, 3])], 'tree.jpg', { type: 'image/jpeg' });

    await api.analyze('oak', photo, { description: '   ' });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('https://trees.example/api/analyze-tree?businessSlug=oak');
    expect(init.credentials).toBe('omit');
    const form = init.body as FormData;
    expect(form.get('businessSlug')).toBe('oak');
    expect(form.has('description')).toBe(false);
    expect((form.get('image') as File).name).toBe('tree.jpg');

    expect(form.has('treeDetails')).toBe(false);
    expect(form.has('siteDetails')).toBe(false);

    const treeDetails = JSON.stringify({ height: { band: 'about_two_storey' } });
    const siteDetails = JSON.stringify({ stumpGrinding: true });
    await api.analyze('oak', photo, { description: ' next to a fence ', treeDetails, siteDetails });
    const second = fetch.mock.calls[1]![1].body as FormData;
    expect(second.get('description')).toBe('next to a fence');
    expect(second.get('treeDetails')).toBe(treeDetails);
    expect(second.get('siteDetails')).toBe(siteDetails);
  });

  it('posts a lead as JSON and returns the thanks', async () => {
    const fetch = stubFetch(async () => response(JSON.stringify({ message: 'Thank you!', outsideArea: true, reference: 'R-000012' }), { status: 201 }));
    const thanks = await estimatorApi('https://trees.example').requestQuote('oak', { trees: [{ analysisId: 5, leadToken: 'tok' }], name: 'Jo', phone: '07700 900123', postcode: 'LS6 2AB' });
    expect(thanks).toEqual({ message: 'Thank you!', outsideArea: true, reference: 'R-000012' });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('https://trees.example/api/businesses/oak/leads');
    expect(JSON.parse(init.body as string)).toEqual({ trees: [{ analysisId: 5, leadToken: 'tok' }], name: 'Jo', phone: '07700 900123', postcode: 'LS6 2AB' });
    expect(init.credentials).toBe('omit');
  });

  it('throws the API error for a refusal and a connection error when nothing answers', async () => {
    stubFetch(async () => response(JSON.stringify({ message: 'Business configuration not found', code: 'NOT_FOUND' }), { status: 404 }));
    await expect(estimatorApi('https://x.example').business('nope')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });

    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(estimatorApi('https://x.example').business('oak')).rejects.toMatchObject({ status: 0, message: CONNECTION_MESSAGE });
  });

  it('passes on a needs-details answer, and refuses one that is malformed', async () => {
    const photo = new File([new Uint8Array([1])], 'tree.jpg', { type: 'image/jpeg' });
    const needs = { outcome: 'needs_details', message: 'Add the size', missing: ['height', 'diameter'], reasons: ['No size given'] };
    stubFetch(async () => response(JSON.stringify(needs), { status: 200 }));
    await expect(estimatorApi('https://x.example').analyze('oak', photo, { description: '' })).resolves.toEqual(needs);
    stubFetch(async () => response(JSON.stringify({ outcome: 'needs_details', message: 'x', missing: 'height' }), { status: 200 }));
    await expect(estimatorApi('https://x.example').analyze('oak', photo, { description: '' })).rejects.toBeInstanceOf(ApiError);
  });

  it('refuses an answer that is not a business', async () => {
    for (const answer of [
      { hello: 1 },
      { name: 'Oak', status: 'available' },
      { ...PUBLIC_BUSINESS, status: 'open' },
      { ...PUBLIC_BUSINESS, hourlyRate: 40 },
      { ...PUBLIC_BUSINESS, sizesFromPhoto: 'no' },
    ]) {
      stubFetch(async () => response(JSON.stringify(answer), { status: 200 }));
      await expect(estimatorApi('https://x.example').business('oak'), JSON.stringify(answer)).rejects.toBeInstanceOf(ApiError);
    }
  });

  it('passes on a whole estimate, and refuses one with fields missing or of the wrong type', async () => {
    const photo = new File([new Uint8Array([1])], 'tree.jpg', { type: 'image/jpeg' });
    const analyze = () => estimatorApi('https://x.example').analyze('oak', photo, { description: '' });
    stubFetch(async () => response(JSON.stringify(ESTIMATE), { status: 201 }));
    await expect(analyze()).resolves.toEqual(ESTIMATE);

    const { analysis } = ESTIMATE;
    for (const answer of [
      { analysis: { id: 5 } },
      { analysis: { id: 5 }, confidence: 0.5 },
      { ...ESTIMATE, outcome: undefined },
      { ...ESTIMATE, confidence: '0.4' },
      { ...ESTIMATE, analysis: { ...analysis, cuttingTimeMax: undefined } },
      { ...ESTIMATE, analysis: { ...analysis, cost: { min: 24 } } },
      { ...ESTIMATE, analysis: { ...analysis, factors: 'Method: section fell' } },
      { ...ESTIMATE, analysis: { ...analysis, included: [{ text: 'Stump', included: 'yes' }] } },
      { ...ESTIMATE, analysis: { ...analysis, species: undefined } },
    ]) {
      stubFetch(async () => response(JSON.stringify(answer), { status: 201 }));
      await expect(analyze(), JSON.stringify(answer)).rejects.toMatchObject({ message: 'The estimator sent an unexpected answer. Please try again.' });
    }
  });
});
