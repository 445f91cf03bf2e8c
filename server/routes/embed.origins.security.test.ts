import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../core/errors';
import { createBusinessFor } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/**
 * allowedOrigins takes exact origins only (docs/security.md): the held-out attack saved `https://*`,
 * `https://*.example.com` and `https://a.com;script-src`, and the embed page copied them into its
 * frame-ancestors (a wildcard, or a directive of the attacker's), while the origin check itself
 * is exact-match. Now each is a 400 naming the entry, and a list saved under the old rule never
 * widens the page's framing.
 */
let server: TestServer;
let owner: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  owner = (await registerClient(server)).client;
});
afterAll(() => server.close());

const NOT_ORIGINS = ['https://*', 'https://*.example.com', 'https://a.com;script-src', 'https://a.com/path', "'self'", 'https://user@a.com', 'https://a.com?x=1', 'https://a .com'];

let counter = 0;
const newBusiness = (allowedOrigins: string[]) => {
  counter += 1;
  return owner.post('/api/businesses', { name: `Origins ${counter}`, slug: `origins-${process.pid}-${counter}`, hourlyRate: '50.00', aiInstructions: null, allowedOrigins });
};

const frameAncestors = async (slug: string) => {
  const csp = (await fetch(`${server.url}/embed/${slug}`)).headers.get('content-security-policy') ?? '';
  return /frame-ancestors ([^;]*)/.exec(csp)?.[1];
};

describe('allowedOrigins', () => {
  it('refuses a wildcard, a path, a keyword or a semicolon with a 400 that names the entry, on create and on edit', async () => {
    const business = await createBusinessFor(owner);
    for (const entry of NOT_ORIGINS) {
      for (const res of [await newBusiness(['https://www.example.com', entry]), await owner.request('PATCH', `/api/businesses/${business.id}`, { allowedOrigins: [entry] })]) {
        expect(res.status, entry).toBe(400);
        const body = errorBodySchema.parse(await res.json());
        expect(body.code).toBe('VALIDATION_ERROR');
        expect(body.message).toBe(`${JSON.stringify(entry)} is not a website origin: use the exact address, e.g. https://www.example.com`);
        expect(body.details?.allowedOrigins).toEqual([body.message]);
      }
    }
    // Nothing was saved: the page still lets any site frame it.
    expect(await frameAncestors(business.slug)).toBe('*');
  });

  it('takes an exact origin with a port, stores it canonical and frames the page for it alone', async () => {
    const res = await newBusiness(['https://WWW.Example.com:8443/', 'http://[::1]:3000']);
    expect(res.status).toBe(201);
    const { business } = (await res.json()) as { business: { slug: string; allowedOrigins: string[] } };
    expect(business.allowedOrigins).toEqual(['https://www.example.com:8443', 'http://[::1]:3000']);
    expect(await frameAncestors(business.slug)).toBe('https://www.example.com:8443 http://[::1]:3000');
  });
});

describe('a list saved under the old rule', () => {
  const store = (id: number, origins: string[]) =>
    server.db.$client.prepare('update businesses set allowed_origins = ? where id = ?').run(JSON.stringify(origins), id);

  it('keeps only its exact origins in frame-ancestors, and a list of none valid becomes none, never any site', async () => {
    const business = await createBusinessFor(owner);
    store(business.id, ['https://*.example.com', 'https://a.com;script-src', 'https://shop.example.com']);
    expect(await frameAncestors(business.slug)).toBe('https://shop.example.com');
    store(business.id, ['https://*', "'self'", 'https://a.com;script-src']);
    expect(await frameAncestors(business.slug)).toBe("'none'");
    // The estimator's own check stays exact: the wildcard lets no site in.
    const answer = await fetch(`${server.url}/api/businesses/${business.slug}/events`, {
      method: 'POST',
      headers: { origin: 'https://evil.example.com', 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'photo' }),
    });
    expect(answer.status).toBe(403);
  });
});
