import { businessResponseSchema, type BusinessCreateInput } from '../core/business';
import { analysisForm } from './analysis';
import { RateLimits } from '../server/http/rate-limit';
import type { TestClient, TestServer } from './harness';

let counter = 0;

/** Creates a business for a signed-in client through the API; names and slugs are unique per call. */
export async function createBusinessFor(client: TestClient, overrides: Partial<BusinessCreateInput> = {}) {
  counter += 1;
  const tag = `${process.pid}-${counter}`;
  const res = await client.post('/api/businesses', {
    name: `Oak and Ash ${tag}`,
    slug: `oak-and-ash-${tag}`,
    hourlyRate: '60.00',
    aiInstructions: null,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`create business failed: ${res.status} ${await res.text()}`);
  return businessResponseSchema.parse(await res.json()).business;
}

/**
 * A visitor's analysis as the widget sends it: no cookie, the slug in the query and the
 * form, from `origin` when given (a browser on another site sends its Origin).
 */
export function visitorAnalyze(
  server: Pick<TestServer, 'url'>,
  slug: string,
  fields: Parameters<typeof analysisForm>[0] = {},
  headers: Record<string, string> = {},
) {
  return fetch(`${server.url}/api/analyze-tree?businessSlug=${encodeURIComponent(slug)}`, {
    method: 'POST',
    headers,
    // A visitor who says what the tree is: an estimate needs a size from somewhere.
    body: analysisForm({ businessSlug: slug, description: 'redbud, 6 inch trunk, 15 ft tall', ...fields }),
  });
}

/** The postcode a test visitor gives when the test is not about the postcode. */
export const VISITOR_POSTCODE = 'LS6 2AB';

/**
 * A visitor's "Request a quote", JSON with no cookie. The widget always sends a postcode, so an
 * object body without the key gets VISITOR_POSTCODE; a test of a missing one names the key
 * (`postcode: undefined` leaves it out of the JSON).
 */
export function visitorLead(server: Pick<TestServer, 'url'>, slug: string, body: unknown, headers: Record<string, string> = {}) {
  const sent = typeof body === 'object' && body !== null && !Array.isArray(body) && !('postcode' in body) ? { ...body, postcode: VISITOR_POSTCODE } : body;
  return fetch(`${server.url}/api/businesses/${slug}/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(sent),
  });
}

/**
 * Rate limits for tests that send many visitor analyses from one address (127.0.0.1): the
 * per-address and per-business embed limits raised to 1000 a minute, the rest as in
 * production. The limits' own tests use the real ones.
 */
export function looseEmbedLimits(): RateLimits {
  return new RateLimits({
    embedAnalysesPerAddress: { points: 1000, windowSeconds: 60 },
    embedAnalysesPerBusiness: { points: 1000, windowSeconds: 60 },
  });
}
