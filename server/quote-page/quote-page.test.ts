import { BROWSER_NAVIGATION, navigate as navigateTo } from '../../testing/navigate';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EARLY_START_EXPLAINED } from '../../core/consumer-rights';
import type { Job } from '../../core/jobs';
import { QUOTE_ALREADY_ANSWERED, QUOTE_LINK_MESSAGES, publicQuoteResponseSchema, type PublicQuote } from '../../core/quote-versions';
import { RateLimits } from '../http/rate-limit';
import { grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { mailSettled, newestOutboxMessage } from '../../testing/mail';
import { analysisIdOf, jobOf } from '../../testing/jobs';
import { logoForm, testLogoPng } from '../../testing/logo';

/*
 * The customer's quote page over HTTP (docs/product.md, Jobs and quotes: the customer's page): the
 * real app renders /quote/<token> from the link in the e-mail; its forms answer with JavaScript
 * off (form-encoded posts, 303 back); a link that opens nothing says why with its status; the
 * photos are this version's trees only; the headers keep the token private; the page is small.
 */
let server: TestServer;
let owner: TestClient;
const CUSTOMER = 'jo.customer@example.com';
const HEDGE = 'Reduce the beech hedge along the drive by 1 m';

beforeAll(async () => {
  // Every request here comes from one loopback network; the limit itself is the API's to test.
  server = await startTestServer({}, { rateLimits: new RateLimits({ quoteLinksPerAddress: { points: 10_000, windowSeconds: 600 } }) });
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 1000);
  const profile = await owner.request('PATCH', '/api/system-settings', {
    companyProfile: { tradingName: 'Birch & Sons Tree Care', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 },
  });
  expect(profile.status, await profile.clone().text()).toBe(200);
});
afterAll(() => server.close());

/** A job of a tree at £600 and an optional hedge at £175 (plus `extra` lines), sent; the token from the e-mailed link. */
async function sentJob(options: { customer?: string; trees?: number; extraLines?: number } = {}): Promise<{ job: Job; token: string }> {
  const analysisIds = await Promise.all(Array.from({ length: options.trees ?? 1 }, () => analysisIdOf(owner)));
  const made = await jobOf(await owner.post('/api/jobs', { analysisIds, customer: { name: options.customer ?? 'Łukasz Wójcik', siteAddress: '12 Elm Road\nLeeds LS1 4AB' } }), 201);
  await jobOf(await owner.request('PATCH', `/api/jobs/${made.id}`, { items: made.items.map((item) => ({ id: item.id, price: '600' })) }));
  await jobOf(await owner.post(`/api/jobs/${made.id}/lines`, { description: HEDGE, price: '175', optional: true }), 201);
  for (let i = 0; i < (options.extraLines ?? 0); i++) {
    await jobOf(await owner.post(`/api/jobs/${made.id}/lines`, { description: `Grind stump ${i + 1} to 200 mm below ground and take the grindings away`, price: '85' }), 201);
  }
  const job = await jobOf(await owner.post(`/api/jobs/${made.id}/send`, { email: CUSTOMER }));
  await mailSettled(server);
  const token = newestOutboxMessage(server.dataDir).match(new RegExp(`${server.url}/quote/([A-Za-z0-9_-]{43})`))?.[1];
  if (!token) throw new Error('no quote link in the e-mail');
  return { job, token };
}

const page = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' });

/** A form as a browser posts it from the page with JavaScript off. */
const postForm = (path: string, fields: [string, string][], headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin, 'sec-fetch-site': 'same-origin', 'user-agent': 'PageTest/1.0', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

async function apiQuote(token: string): Promise<PublicQuote> {
  return publicQuoteResponseSchema.parse(await (await fetch(`${server.url}/api/quotes/${token}`)).json()).quote;
}

/** The page's visible words, tags and entities aside, spaces closed up. */
const words = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<\/?(?:strong|a)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

describe('the page', () => {
  it("shows the business, the customer, each item with its price and the total; none of the estimator's working", async () => {
    const { job, token } = await sentJob();
    const tree = job.items.find((item) => item.kind === 'tree')!;
    const hedge = job.items.find((item) => item.optional)!;
    const res = await page(`/quote/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
    const html = await res.text();
    const text = words(html);
    expect(text).toContain(`Quote ${job.reference}`);
    for (const shown of ['Birch & Sons Tree Care', '1 Yard Lane', 'Leeds', '01632 960000', 'office@birch.example', 'Łukasz Wójcik', '12 Elm Road', 'LS1 4AB']) expect(text).toContain(shown);
    expect(text).toMatch(/Issued \d{1,2} \w+ 20\d\d · Valid until \d{1,2} \w+ 20\d\d/);
    expect(text).toContain(tree.description);
    expect(text).toContain(HEDGE);
    expect(text).toContain('£600.00');
    expect(text).toContain('£175.00');
    expect(text).toMatch(/Total £600\.00/);
    expect(text).toContain('No VAT is charged.');
    // The hedge is a box in the Accept form; the tree's photo comes from the page's own route.
    expect(html).toContain(`<input type="checkbox" name="optional" value="${hedge.id}" form="accept" data-pence="17500" aria-describedby="item-${hedge.id}">`);
    expect(html).toContain(`<p class="pre" id="item-${hedge.id}">${HEDGE}</p>`);
    expect(html).toContain(`src="/quote/${token}/items/${tree.id}/photo"`);
    expect(html).not.toContain(`/items/${hedge.id}/photo`);
    expect(text).toMatch(/^.*Terms This quote is valid until .* 1\. /);
    // The customer's copy: never the estimator's confidence, an unknown species, wood density or disclaimer.
    for (const internal of ['onfidence', 'Unknown', 'density', 'Density', 'disclaimer', 'certified arborist', 'LOLER', 'Internal']) expect(text, internal).not.toContain(internal);
    // Three forms, each posting to the page's own routes.
    for (const form of ['accept', 'decline', 'changes']) expect(html).toContain(`method="post" action="/quote/${token}/${form}"`);
    expect(text).toContain('I accept the terms of this quote');
    expect(html).toMatch(/<label for="accept-name">Your full name<\/label>/);
    expect(html).toMatch(/<legend>Decline the quote<\/legend>[\s\S]*Reason \(optional\)/);
    expect(html).toMatch(/<legend>Ask for a change<\/legend>/);
    // A consumer: the early start with what it means, the notice and the model form.
    expect(text).toContain('Start the work within my 14-day cancellation period');
    expect(text).toContain(EARLY_START_EXPLAINED);
    expect(text).toContain('Your right to cancel');
    expect(text).toContain('Model cancellation form');
  });

  it("escapes everything typed: a customer's name cannot write HTML into the page", async () => {
    const { token } = await sentJob({ customer: '<img src=x onerror=alert(1)> "Jo"' });
    const html = await (await page(`/quote/${token}`)).text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Jo&quot;');
  });

  it('keeps the token private and the page to itself: noindex, no-store, no-referrer, a strict CSP with one nonce', async () => {
    const { token } = await sentJob();
    const res = await page(`/quote/${token}`);
    const html = await res.text();
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = res.headers.get('content-security-policy')!;
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toBe(`default-src 'none'; img-src 'self'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`);
    // One inline style and one inline script, both with this answer's nonce; nothing loaded from anywhere.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(html).not.toMatch(/<link|<script[^>]+src=|https?:\/\//);
    // A new answer, a new nonce.
    const again = await page(`/quote/${token}`);
    expect(again.headers.get('content-security-policy')).not.toContain(nonce);
    // The access log says where a request went, never the token that opened it.
    const lines = server.logs.filter((line) => line.msg === 'request' && String(line.path).startsWith('/quote/'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.path === '/quote/[token]' || String(line.path).startsWith('/quote/[token]/'))).toBe(true);
    expect(JSON.stringify(server.logs)).not.toContain(token);
  });

  it('fits the budget: a quote of six items is under 60 kB gzipped, and goes gzipped to a browser that takes it', async () => {
    const { token, job } = await sentJob({ trees: 3, extraLines: 2 });
    expect(job.items).toHaveLength(6);
    const res = await page(`/quote/${token}`, { 'accept-encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const html = await res.text();
    const gzipped = gzipSync(html).length;
    console.log(`quote page of 6 items: ${html.length} bytes, ${gzipped} bytes gzipped`);
    expect(gzipped).toBeLessThan(60 * 1024);
  });
});

const navigate = (path: string, headers: Record<string, string>) => navigateTo(`${server.url}${path}`, headers);

describe('a view', () => {
  /** What Chromium sends when a person opens the link from a mail app or a click. */
  const BROWSER = BROWSER_NAVIGATION;

  it("is a person's browser opening the page, not a mail scanner fetching the link: the owner hears once, of the person", async () => {
    const { job, token } = await sentJob({ customer: 'Scanned Customer' });
    const opened = () => {
      const dir = server.dataDir;
      return mailSettled(server).then(() => newestOutboxMessage(dir));
    };
    // A link checker's plain fetch, a scanner that names itself, and a previewer: the page, no view.
    const scanners: Record<string, string>[] = [{}, { ...BROWSER, 'user-agent': 'Mozilla/5.0 (compatible; Barracuda Sentinel link scanner)' }, { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Safari/537.36' }];
    for (const headers of scanners) {
      const res = await navigate(`/quote/${token}`, headers);
      expect(res.status).toBe(200);
      expect(res.body).toContain(job.reference);
    }
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).versions[0]!.viewedAt).toBeNull();
    expect(await opened()).not.toContain('Scanned Customer opened quote');

    // The customer's phone: viewed, and the owner told.
    expect((await navigate(`/quote/${token}`, BROWSER)).status).toBe(200);
    const viewed = await jobOf(await owner.get(`/api/jobs/${job.id}`));
    expect(viewed.status).toBe('viewed');
    expect(viewed.versions[0]!.viewedAt).not.toBeNull();
    expect(await opened()).toContain(`Scanned Customer opened quote ${job.reference}`);
  });
});

describe('answering with JavaScript off', () => {
  it('accepts with the optional hedge and an early start: 303 back to the page, which shows who accepted and the total', async () => {
    const { job, token } = await sentJob();
    const hedge = job.items.find((item) => item.optional)!;
    const res = await postForm(`/quote/${token}/accept`, [
      ['name', 'Łukasz Wójcik'],
      ['acceptTerms', 'yes'],
      ['optional', String(hedge.id)],
      ['startEarly', 'yes'],
    ]);
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get('location')).toBe(`/quote/${token}`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');

    const answer = (await apiQuote(token)).answer;
    expect(answer).toMatchObject({ kind: 'accepted', name: 'Łukasz Wójcik', optionalItemIds: [hedge.id], startEarly: true });
    expect(answer!.totals!.gross).toBe('775.00');
    const accepted = await jobOf(await owner.get(`/api/jobs/${job.id}`));
    expect(accepted.status).toBe('accepted');
    expect(accepted.acceptance).toMatchObject({ name: 'Łukasz Wójcik', optionalItemIds: [hedge.id], startEarly: true, address: '127.0.0.1', userAgent: 'PageTest/1.0' });

    const html = await (await page(`/quote/${token}`)).text();
    const text = words(html);
    expect(text).toContain('Accepted Accepted by Łukasz Wójcik on');
    expect(text).toContain(`Optional items chosen: ${HEDGE} (£175.00).`);
    expect(text).toContain('Total: £775.00.');
    expect(text).toContain('You asked for the work to start within your 14-day cancellation period.');
    expect(text).toContain('Optional: chosen');
    expect(text).toMatch(/Optional items chosen £175\.00 Total £775\.00/);
    // Answered: no answer forms and no script; the consumer's rights stay, with the form to cancel within the 14 days.
    for (const form of ['accept', 'decline', 'changes']) expect(html).not.toContain(`/quote/${token}/${form}"`);
    expect(html.match(/<form /g)).toHaveLength(1);
    expect(html).toContain(`action="/quote/${token}/cancel"`);
    expect(html).not.toContain('<script');
    expect(text).toContain('Your right to cancel');

    // A second answer (a double tap, or a back button) shows the page with the answer, 409.
    const again = await postForm(`/quote/${token}/decline`, [['reason', 'Changed my mind']]);
    expect(again.status).toBe(409);
    const againText = words(await again.text());
    expect(againText).toContain(QUOTE_ALREADY_ANSWERED);
    expect(againText).toContain('Accepted by Łukasz Wójcik');
  });

  it('accepts from a browser that sends Origin: null under the no-referrer policy, and without any optional item', async () => {
    const { token } = await sentJob();
    const res = await postForm(`/quote/${token}/accept`, [['name', 'Jo Customer'], ['acceptTerms', 'yes']], { origin: 'null' });
    expect(res.status, await res.clone().text()).toBe(303);
    expect((await apiQuote(token)).answer).toMatchObject({ kind: 'accepted', name: 'Jo Customer', optionalItemIds: [], startEarly: false });
    expect(words(await (await page(`/quote/${token}`)).text())).toContain('No optional items chosen. Total: £600.00.');
  });

  it('refuses an acceptance without the tick and the name: the page again, 400, each message beside its field, what was typed kept', async () => {
    const { job, token } = await sentJob();
    const hedge = job.items.find((item) => item.optional)!;
    const res = await postForm(`/quote/${token}/accept`, [['name', ' '], ['optional', String(hedge.id)], ['startEarly', 'yes']]);
    expect(res.status).toBe(400);
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const html = await res.text();
    expect(html).toMatch(/id="accept-name"[^>]* aria-invalid="true" aria-describedby="accept-name-error" autofocus>/);
    expect(html).toContain('<p class="error" id="accept-name-error">Type your full name</p>');
    expect(html).toMatch(/id="accept-terms"[^>]* aria-invalid="true" aria-describedby="accept-terms-error">/);
    expect(html).toContain('<p class="error" id="accept-terms-error">Please tick to accept the terms</p>');
    expect(html).toContain(`value="${hedge.id}" form="accept" data-pence="17500" aria-describedby="item-${hedge.id}" checked>`);
    expect(html).toMatch(/id="start-early" name="startEarly" value="yes" aria-describedby="start-early-hint" checked>/);
    expect((await apiQuote(token)).answer).toBeNull();

    const included = job.items.find((item) => !item.optional)!;
    for (const stray of [String(included.id), 'abc']) {
      const refused = await postForm(`/quote/${token}/accept`, [['name', 'Jo Customer'], ['acceptTerms', 'yes'], ['optional', stray]]);
      expect(refused.status, stray).toBe(400);
      expect(await refused.text()).toContain('Choose only from the optional items on this quote.');
    }
    expect((await apiQuote(token)).answer).toBeNull();
  });

  it('declines with a reason; the page then says so', async () => {
    const { job, token } = await sentJob();
    const res = await postForm(`/quote/${token}/decline`, [['reason', 'We are moving house']]);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/quote/${token}`);
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).status).toBe('declined');
    const html = await (await page(`/quote/${token}`)).text();
    expect(words(html)).toMatch(/Declined You declined this quote on .* Birch & Sons Tree Care has been told\./);
    expect(html).not.toContain('<form');
  });

  it('asks for a change: sent, said so, and the quote stays open to accept; an empty message is refused beside the field', async () => {
    const { job, token } = await sentJob();
    const empty = await postForm(`/quote/${token}/changes`, [['message', '']]);
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('<p class="error" id="changes-message-error">Say what you would like changed</p>');

    const res = await postForm(`/quote/${token}/changes`, [['message', 'Can you leave the logs stacked by the shed?']]);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/quote/${token}?asked=change`);
    const updated = await jobOf(await owner.get(`/api/jobs/${job.id}`));
    expect(updated.status).toBe('changes_requested');
    expect(updated.versions[0]!.answers[0]).toMatchObject({ kind: 'changes_requested', message: 'Can you leave the logs stacked by the shed?' });
    const html = await (await page(res.headers.get('location')!)).text();
    expect(words(html)).toContain('Your request for a change has been sent to Birch & Sons Tree Care.');
    expect(html).toContain(`action="/quote/${token}/accept"`);
  });

  it("refuses a post from another site's page with 403, and takes nothing", async () => {
    const { token } = await sentJob();
    const fields: [string, string][] = [['name', 'Mallory'], ['acceptTerms', 'yes']];
    const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }, { origin: 'null', 'sec-fetch-site': 'cross-site' }];
    for (const headers of crossSite) {
      const res = await postForm(`/quote/${token}/accept`, fields, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    expect((await apiQuote(token)).answer).toBeNull();
  });

  it('refuses a body of the wrong kind (415) or too large (413)', async () => {
    const { token } = await sentJob();
    const json = await fetch(`${server.url}/quote/${token}/decline`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.origin }, body: '{}' });
    expect(json.status).toBe(415);
    const huge = await postForm(`/quote/${token}/changes`, [['message', 'x'.repeat(20_000)]]);
    expect(huge.status).toBe(413);
    expect(words(await huge.text())).toContain('Back to the quote');
    expect((await apiQuote(token)).answer).toBeNull();
  });
});

describe('links that open nothing', () => {
  it('a wrong link is a small 404 page with the plain message and nothing else', async () => {
    for (const path of [`/quote/${'A'.repeat(43)}`, `/quote/${'A'.repeat(300)}`, '/quote', '/quote/', '/quote/a/b/c']) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('x-robots-tag'), path).toBe('noindex');
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      const html = await res.text();
      expect(words(html), path).toContain(QUOTE_LINK_MESSAGES.unknown);
      expect(html, path).not.toContain('Birch');
      expect(html, path).not.toContain('<form');
    }
  });

  it('a withdrawn or replaced link is a 410 that says which and whom to ask, with nothing of the quote', async () => {
    const withdrawn = await sentJob();
    expect((await owner.post(`/api/jobs/${withdrawn.job.id}/revoke`, {})).status).toBe(200);
    const replaced = await sentJob();
    await jobOf(await owner.post(`/api/jobs/${replaced.job.id}/send`, { email: CUSTOMER }));
    for (const [token, message] of [
      [withdrawn.token, QUOTE_LINK_MESSAGES.revoked],
      [replaced.token, QUOTE_LINK_MESSAGES.replaced],
    ] as const) {
      const res = await page(`/quote/${token}`);
      expect(res.status).toBe(410);
      const html = await res.text();
      expect(words(html)).toContain(message);
      // The message says to ask the business: the page names it and its phone, as the quote had them.
      expect(words(html)).toContain('Who sent it Birch & Sons Tree Care Phone: 01632 960000');
      expect(html).toContain('href="tel:01632960000"');
      expect(html).not.toContain(HEDGE);
      expect(html).not.toContain('Łukasz');
      expect((await postForm(`/quote/${token}/accept`, [['name', 'Jo'], ['acceptTerms', 'yes']])).status).toBe(410);
    }
  });
});

describe("the trees' photos", () => {
  it("serves this version's tree photos only: a line, another job's tree or a dead link is a 404 or 410", async () => {
    const { job, token } = await sentJob();
    const tree = job.items.find((item) => item.kind === 'tree')!;
    const line = job.items.find((item) => item.kind === 'line')!;
    const res = await page(`/quote/${token}/items/${tree.id}/photo`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const bytes = Buffer.from(await res.arrayBuffer());
    const stored = Buffer.from(await (await owner.get(`/api/analysis/${tree.analysisId}/image`)).arrayBuffer());
    expect(bytes.equals(stored)).toBe(true);

    const other = await sentJob();
    const otherTree = other.job.items.find((item) => item.kind === 'tree')!;
    for (const itemId of [line.id, otherTree.id, 999_999]) expect((await page(`/quote/${token}/items/${itemId}/photo`)).status, String(itemId)).toBe(404);
    expect((await page(`/quote/${'A'.repeat(43)}/items/${tree.id}/photo`)).status).toBe(404);
    expect((await page(`/quote/${other.token}/items/${otherTree.id}/photo`)).status).toBe(200);

    // A tree added after sending is not in the version the link opens.
    const added = await jobOf(await owner.post(`/api/jobs`, { analysisIds: [await analysisIdOf(owner, 'birch, 8 inch trunk, 25 ft tall')], customer: { name: 'Someone Else' } }), 201);
    expect((await page(`/quote/${token}/items/${added.items[0]!.id}/photo`)).status).toBe(404);

    await jobOf(await owner.post(`/api/jobs/${job.id}/send`, { email: CUSTOMER }));
    expect((await page(`/quote/${token}/items/${tree.id}/photo`)).status).toBe(410);
  });
});

describe("the sender's logo", () => {
  it('is served by a live link, never kept in a cache', async () => {
    expect((await owner.upload('/api/system-settings/logo', logoForm(await testLogoPng()))).status).toBe(200);
    const { token } = await sentJob();
    const res = await page(`/quote/${token}/logo`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect((await page(`/quote/${'A'.repeat(43)}/logo`)).status).toBe(404);
  });
});

describe('an expired link', () => {
  // Last: it moves the server's clock past every quote sent above.
  it('is a 410 that says the quote has expired', async () => {
    const { token } = await sentJob();
    server.clock.advance(31 * 24 * 60 * 60 * 1000);
    const res = await page(`/quote/${token}`);
    expect(res.status).toBe(410);
    const html = await res.text();
    expect(words(html)).toContain(QUOTE_LINK_MESSAGES.expired);
    expect(words(html)).toContain('Who sent it Birch & Sons Tree Care Phone: 01632 960000');
    expect(html).not.toContain(HEDGE);
  });
});
