import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../core/errors';
import { jobOf } from '../../testing/jobs';
import { grantTo, photo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { sendQuoteTo } from '../../testing/quote-links';
import { RateLimits, SITE_ALLOWANCE } from './rate-limit';

/*
 * Who a request comes from, as limits and evidence read it (docs/security.md, Abuse of the
 * public estimator), behind a trusted proxy: an IPv6 visitor is counted by its /64 and by the /56
 * around it, so hopping across a home's /64s buys SITE_ALLOWANCE /64s' worth, not 256; and an
 * X-Forwarded-For last hop that is not an address is ignored for the socket's, so it can neither
 * be a fresh rate-limit key nor stand as where a quote was accepted from.
 */
const SMALL_PHOTO = photo('redbud-small-tree.jpg');
/** A visitor's estimates a /64 may have here; its /56 may have SITE_ALLOWANCE times as many. */
const PER_NETWORK = 2;

let server: TestServer;
let owner: TestClient;

beforeAll(async () => {
  server = await startTestServer(
    { TRUST_PROXY: 'true' },
    {
      rateLimits: new RateLimits({
        embedAnalysesPerAddress: { points: PER_NETWORK, windowSeconds: 600 },
        embedAnalysesPerBusiness: { points: 1000, windowSeconds: 600 },
        embedLookupsPerAddress: { points: 3, windowSeconds: 600 },
      }),
    },
  );
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 1000);
});
afterAll(() => server.close());

const from = (address: string) => ({ 'x-forwarded-for': address, origin: 'https://oakandash.example' });
const estimate = async (slug: string, address: string) => (await visitorAnalyze(server, slug, { image: SMALL_PHOTO }, from(address))).status;

describe('an IPv6 visitor is counted by its /64 and its /56', () => {
  it('refuses a fifth /64 of one /56 once four have used their estimates; another /56 is not held back', async () => {
    expect(SITE_ALLOWANCE).toBe(4);
    const business = await createBusinessFor(owner);
    // Four /64s of 2001:db8:ab:1200::/56, each its whole allowance, from addresses that change each time.
    for (const network of ['1200', '1201', '1234', '12fe']) {
      for (let i = 1; i <= PER_NETWORK; i += 1) expect(await estimate(business.slug, `2001:db8:ab:${network}::${i}`), network).toBe(201);
    }
    // A fifth /64 of that /56 has used nothing of its own, and is refused for its /56.
    const fifth = await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, from('2001:db8:ab:12ff::9'));
    expect(fifth.status).toBe(429);
    expect(errorBodySchema.parse(await fifth.json()).code).toBe('VISITOR_LIMIT');
    expect(Number(fifth.headers.get('retry-after'))).toBeGreaterThan(0);
    // The /56 next door (…:1300::/56) and an IPv4 visitor go on.
    expect(await estimate(business.slug, '2001:db8:ab:1300::1')).toBe(201);
    expect(await estimate(business.slug, '2001:db8:ab:13ff::1')).toBe(201);
    expect(await estimate(business.slug, '198.51.100.30')).toBe(201);
  });

  it('still refuses one /64 past its own allowance while its /56 has room', async () => {
    const business = await createBusinessFor(owner);
    for (let i = 1; i <= PER_NETWORK; i += 1) expect(await estimate(business.slug, `2001:db8:cd:4500::${i}`)).toBe(201);
    expect(await estimate(business.slug, '2001:db8:cd:4500::ffff')).toBe(429);
    expect(await estimate(business.slug, '2001:db8:cd:4501::1')).toBe(201);
  });
});

describe('an X-Forwarded-For last hop that is not an address', () => {
  it('is not a rate-limit key of its own: every such request counts as the socket', async () => {
    const business = await createBusinessFor(owner);
    const lookup = (forwarded: string) => fetch(`${server.url}/api/businesses/${business.slug}`, { headers: { 'x-forwarded-for': forwarded } }).then((r) => r.status);
    // Three made-up hops, each "new": all are 127.0.0.1, whose three lookups are then spent.
    expect([await lookup('unknown'), await lookup('203.0.113.1, <script>'), await lookup('2001:db8::1, 2001:db8::1:56:junk')]).toEqual([200, 200, 200]);
    expect(await lookup('visitor-4')).toBe(429);
    expect(await lookup('')).toBe(429);
    // A real address in the last hop is still its own key.
    expect(await lookup('203.0.113.1, 192.0.2.45')).toBe(200);
  });

  it('is not stored as where a quote was accepted from: the socket address is', async () => {
    const accept = async (forwarded: string, email: string) => {
      const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Jo Birch', email } }), 201);
      await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Crown lift the oak', price: '300' });
      const { token } = await sendQuoteTo(server, owner, job.id, email);
      const res = await fetch(`${server.url}/api/quotes/${token}/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.origin, 'x-forwarded-for': forwarded },
        body: JSON.stringify({ name: 'Jo Birch', acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: false }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await jobOf(await owner.get(`/api/jobs/${job.id}`))).acceptance?.address;
    };
    expect(await accept('198.51.100.7, Totally Legit Proxy <b>', 'jo@example.com')).toBe('127.0.0.1');
    expect(await accept('10.0.0.1, 198.51.100.8', 'sam@example.com')).toBe('198.51.100.8');
  });
});
