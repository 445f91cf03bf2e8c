import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { newAccount, registerClient, startTestServer, type TestServer } from '../../testing/harness';

/**
 * Every unsafe /api request must come from our own origin, cookie or not, and JSON
 * routes take JSON only. The held-out attack: a form on another site posting text/plain to
 * /api/auth/login signed the visitor into the attacker's account.
 */
let server: TestServer;
let account: ReturnType<typeof newAccount>;
beforeAll(async () => {
  server = await startTestServer();
  ({ account } = await registerClient(server));
});
afterAll(() => server.close());

const post = (path: string, headers: Record<string, string>, body: string) => fetch(server.url + path, { method: 'POST', headers, body });
const loginBody = () => JSON.stringify({ usernameOrEmail: account.username, password: account.password });

describe('same-origin rule for unsafe requests', () => {
  it('refuses the login CSRF: another site\'s form posting text/plain gets 403 and no session', async () => {
    const res = await post('/api/auth/login', { origin: 'http://evil.example', 'content-type': 'text/plain' }, loginBody());
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a cross-site request even with JSON, and one with neither Origin nor Sec-Fetch-Site', async () => {
    expect((await post('/api/auth/login', { origin: 'http://evil.example', 'content-type': 'application/json' }, loginBody())).status).toBe(403);
    expect((await post('/api/auth/login', { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, loginBody())).status).toBe(403);
    expect((await post('/api/auth/login', { 'content-type': 'application/json' }, loginBody())).status).toBe(403);
    // Our own origin but a browser saying the request came from another site: refused.
    expect((await post('/api/auth/login', { origin: server.origin, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, loginBody())).status).toBe(403);
  });

  it('accepts our own pages by Origin or by Sec-Fetch-Site: same-origin', async () => {
    const byOrigin = await post('/api/auth/login', { origin: server.origin, 'content-type': 'application/json' }, loginBody());
    expect(byOrigin.status).toBe(200);
    const bySite = await post('/api/auth/login', { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json; charset=utf-8' }, loginBody());
    expect(bySite.status).toBe(200);
  });

  it('answers 415 to a JSON route sent form or text bodies from our own origin', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await post('/api/auth/login', { origin: server.origin, 'content-type': type }, loginBody());
      expect(res.status, type).toBe(415);
      expect((await res.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const untyped = await fetch(server.url + '/api/auth/login', { method: 'POST', headers: { origin: server.origin }, body: new Blob([loginBody()]) });
    expect(untyped.status).toBe(415);
  });

  it('lets other sites use only the public embed endpoints and the webhook, with no cookie in or out', async () => {
    const owner = await registerClient(server);
    grantTo(server, owner.account.username, 100);
    const business = await createBusinessFor(owner.client, { allowedOrigins: [] });
    // A visitor who happens to hold a session cookie of ours: it is neither read nor refreshed.
    const cookie = owner.client.cookieHeader();
    const analysed = await visitorAnalyze(server, business.slug, {}, { origin: 'https://garden-site.example', cookie });
    expect(analysed.status).toBe(201);
    expect(analysed.headers.getSetCookie()).toEqual([]);
    const { analysis, leadToken } = (await analysed.json()) as { analysis: { id: number }; leadToken: string };
    const lead = await visitorLead(server, business.slug, { analysisId: analysis.id, leadToken, name: 'Visitor', email: 'v@example.com', phone: '', message: '' }, { origin: 'https://garden-site.example', cookie });
    expect(lead.status).toBe(201);
    expect(lead.headers.getSetCookie()).toEqual([]);
    // The webhook is judged by its signature, not its origin.
    expect((await post('/api/stripe/webhook', { 'content-type': 'application/json' }, '{}')).status).not.toBe(403);
    // From another site the analysis route is a visitor's, never the cookie's session: with no
    // form it is refused, and the cookie's owner is charged nothing.
    const before = await (await owner.client.get('/api/user-tokens')).json();
    const crossSite = await fetch(`${server.url}/api/analyze-tree`, { method: 'POST', headers: { origin: 'https://garden-site.example', cookie } });
    expect(crossSite.status).toBe(415); // not a form at all
    expect(crossSite.headers.getSetCookie()).toEqual([]);
    expect(await (await owner.client.get('/api/user-tokens')).json()).toEqual(before);
  });
});
