import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorLimitMessage } from '../../core/embed';
import { errorBodySchema } from '../../core/errors';
import { findUserByUsername } from '../accounts/users';
import { balanceOf } from '../credits/ledger';
import { RateLimits } from '../http/rate-limit';
import { analysisForm, grantTo } from '../../testing/analysis';
import { createBusinessFor } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/*
 * The original API's shape of a visitor's call: `POST /api/analyze-tree` with `businessSlug` in the form
 * only, from the business's own site. Accepted once the form is read, with
 * the checks of the address form (the business exists and lists the site, rate limits, the
 * owner can pay) before anything is reserved; a call that names no business is told to add
 * the query parameter. Never "Cross-site request refused", and never a session's.
 */
let server: TestServer;
let owner: TestClient;
let ownerId: number;
const SITE = 'https://oakandash.example';
const DESCRIPTION = 'redbud, 6 inch trunk, 15 ft tall';

beforeAll(async () => {
  // Three analyses an hour from one address, so the limit is reached inside the test.
  server = await startTestServer({}, { rateLimits: new RateLimits({ embedAnalysesPerAddress: { points: 3, windowSeconds: 3600 } }) });
  const registered = await registerClient(server);
  owner = registered.client;
  ownerId = findUserByUsername(server.db, registered.account.username)!.id;
  grantTo(server, registered.account.username, 100);
});
afterAll(() => server.close());

const call = (fields: Parameters<typeof analysisForm>[0], headers: Record<string, string> = { origin: SITE }) =>
  fetch(`${server.url}/api/analyze-tree`, { method: 'POST', headers, body: analysisForm({ description: DESCRIPTION, ...fields }) });

describe('businessSlug in the form only', () => {
  it("gives the business's estimate at its rate, charged to its owner, with no session in or out", async () => {
    const business = await createBusinessFor(owner, { hourlyRate: '45.00', allowedOrigins: [SITE] });
    // A visitor who also holds another account's cookie: it is neither read nor charged.
    const visitor = await registerClient(server);
    grantTo(server, visitor.account.username, 50);
    const visitorId = findUserByUsername(server.db, visitor.account.username)!.id;
    const res = await call({ businessSlug: business.slug }, { origin: SITE, 'sec-fetch-site': 'cross-site', cookie: visitor.client.cookieHeader() });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.getSetCookie()).toEqual([]);
    const { analysis } = await res.json();
    expect(analysis.hourlyRate).toBe('45.00');
    expect(balanceOf(server.db, ownerId)).toBe(90);
    expect(balanceOf(server.db, visitorId)).toBe(50);
  });

  it('refuses a site the business does not list, and an unknown business, before reserving anything', async () => {
    const business = await createBusinessFor(owner, { allowedOrigins: [SITE] });
    const before = balanceOf(server.db, ownerId);
    const elsewhere = await call({ businessSlug: business.slug }, { origin: 'https://copycat.example' });
    expect(elsewhere.status).toBe(403);
    expect(errorBodySchema.parse(await elsewhere.json()).message).toBe('This estimator is not enabled on this website.');
    expect((await call({ businessSlug: 'no-such-business' })).status).toBe(404);
    expect(balanceOf(server.db, ownerId)).toBe(before);
  });

  it('tells a call that names no business to add the query parameter, and charges no one', async () => {
    const before = balanceOf(server.db, ownerId);
    // Even with the owner's own cookie: from another site, it is a visitor's call.
    const res = await call({}, { origin: SITE, cookie: owner.cookieHeader() });
    expect(res.status).toBe(400);
    const body = errorBodySchema.parse(await res.json());
    expect(body.message).toMatch(/add \?businessSlug=<slug> to the address/);
    expect(body.details?.businessSlug).toBeDefined();
    expect(balanceOf(server.db, ownerId)).toBe(before);
  });

  it('keeps the per-address limit of the address form', async () => {
    const business = await createBusinessFor(owner);
    // Three an hour from one address; the first test spent one, refusals before the limit none.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call({ businessSlug: business.slug })).status);
    expect(statuses).toEqual([201, 201, 429]);
    const limited = await call({ businessSlug: business.slug });
    expect(limited.status).toBe(429);
    // The visitor's own limit, with the wait: never the business's "busy".
    const refusal = errorBodySchema.parse(await limited.json());
    expect(refusal.code).toBe('VISITOR_LIMIT');
    expect(refusal.message).toBe(visitorLimitMessage(Number(limited.headers.get('retry-after'))));
  });

  it('leaves the dashboard as it was: our own page with a session, a slug in the form previews the owner\'s business', async () => {
    const business = await createBusinessFor(owner, { hourlyRate: '70.00' });
    const res = await owner.upload('/api/analyze-tree', analysisForm({ description: DESCRIPTION, businessSlug: business.slug }));
    expect(res.status).toBe(201);
    expect((await res.json()).analysis.hourlyRate).toBe('70.00');
    // Signed out on our own page: still asked to sign in.
    const guest = await fetch(`${server.url}/api/analyze-tree`, { method: 'POST', headers: { origin: server.origin, 'sec-fetch-site': 'same-origin' }, body: analysisForm({ description: DESCRIPTION }) });
    expect(guest.status).toBe(401);
  });
});
