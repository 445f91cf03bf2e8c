import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_BUSY_MESSAGE, OPERATOR_WORDS, visitorLimitMessage } from '../../core/embed';
import { errorBodySchema } from '../../core/errors';
import { findUserByUsername } from '../accounts/users';
import { balanceOf } from '../credits/ledger';
import { EMBED_LIMITS, RateLimits } from '../http/rate-limit';
import { grantTo, photo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/*
 * Honest limits: a visitor who has used up their own analyses from one
 * address is told so, with the real wait and Retry-After, under a code of its own; the
 * business's limits (its rate and its daily cap), which are not the visitor's doing, still
 * read "busy". Visitors are told apart by X-Forwarded-For behind a trusted proxy.
 */
const SMALL_PHOTO = photo('redbud-small-tree.jpg');
const HOUR = EMBED_LIMITS.embedAnalysesPerAddress.windowSeconds;

let server: TestServer;
let owner: TestClient;
let ownerId: number;

beforeAll(async () => {
  // The production limits, so the refusal comes where a visitor would meet it: the 11th in an hour.
  server = await startTestServer({ TRUST_PROXY: 'true' }, { rateLimits: new RateLimits() });
  const registered = await registerClient(server);
  owner = registered.client;
  ownerId = findUserByUsername(server.db, registered.account.username)!.id;
  grantTo(server, registered.account.username, 1000);
});
afterAll(() => server.close());

const from = (address: string) => ({ 'x-forwarded-for': address, origin: 'https://oakandash.example' });

describe("a visitor's own limit", () => {
  it('refuses the 11th analysis in an hour from one address with the wait, not "busy", and charges nothing', async () => {
    const business = await createBusinessFor(owner);
    const visitor = from('203.0.113.7');
    const allowed = EMBED_LIMITS.embedAnalysesPerAddress.points;
    expect(allowed).toBe(10);
    for (let i = 0; i < allowed; i += 1) {
      expect((await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, visitor)).status).toBe(201);
    }
    const before = balanceOf(server.db, ownerId);

    const refused = await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, visitor);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    // The window started with the first of the ten, moments ago.
    expect(retryAfter).toBeGreaterThan(HOUR - 120);
    expect(retryAfter).toBeLessThanOrEqual(HOUR);
    // Readable by the widget on the business's own site.
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');
    const body = await refused.json();
    const message = visitorLimitMessage(retryAfter);
    expect(message).toBe('You have made several estimates; please try again in 60 minutes');
    expect(errorBodySchema.parse(body)).toEqual({ message, code: 'VISITOR_LIMIT', error: message });
    expect(body.error).toBe(message);
    expect(message).not.toBe(EMBED_BUSY_MESSAGE);
    expect(message).not.toMatch(OPERATOR_WORDS);
    expect(balanceOf(server.db, ownerId)).toBe(before);

    // Another visitor on the same business is not held back by the first.
    expect((await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, from('198.51.100.4'))).status).toBe(201);
  });
});

describe("the business's limits", () => {
  it('its rate across visitors still reads "busy", with Retry-After', async () => {
    const busyServer = await startTestServer(
      { TRUST_PROXY: 'true' },
      { rateLimits: new RateLimits({ embedAnalysesPerBusiness: { points: 2, windowSeconds: 600 } }) },
    );
    try {
      const { client, account } = await registerClient(busyServer);
      grantTo(busyServer, account.username, 100);
      const business = await createBusinessFor(client);
      const statuses: number[] = [];
      for (const address of ['203.0.113.1', '203.0.113.2']) {
        statuses.push((await visitorAnalyze(busyServer, business.slug, { image: SMALL_PHOTO }, from(address))).status);
      }
      expect(statuses).toEqual([201, 201]);
      // A visitor who has sent nothing yet: the business is busy, not their doing.
      const refused = await visitorAnalyze(busyServer, business.slug, { image: SMALL_PHOTO }, from('203.0.113.3'));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(errorBodySchema.parse(await refused.json())).toEqual({ message: EMBED_BUSY_MESSAGE, code: 'RATE_LIMITED', error: EMBED_BUSY_MESSAGE });
    } finally {
      await busyServer.close();
    }
  });

  it('its daily cap still reads "busy"', async () => {
    const business = await createBusinessFor(owner, { dailyCap: 1 });
    expect((await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, from('192.0.2.10'))).status).toBe(201);
    const refused = await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, from('192.0.2.11'));
    expect(refused.status).toBe(429);
    expect(errorBodySchema.parse(await refused.json())).toEqual({ message: EMBED_BUSY_MESSAGE, code: 'RATE_LIMITED', error: EMBED_BUSY_MESSAGE });
  });
});
