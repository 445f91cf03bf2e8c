import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerCopyText, groupedFingerprint } from '../../core/quote-copy';
import { publicQuoteResponseSchema } from '../../core/quote-versions';
import { RateLimits } from '../http/rate-limit';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { sendQuoteTo } from '../../testing/quote-links';

/*
 * The customer's page once they have accepted (docs/product.md, Jobs and quotes: cancelling):
 * the fingerprint of what they accepted and how to check it, the model form filled in, and while
 * their 14 days last a "Cancel this agreement" form that works with JavaScript off; after them,
 * the page says when the period ended instead.
 */
let server: TestServer;
let owner: TestClient;
const DAY = 24 * 3600_000;

beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ quoteLinksPerAddress: { points: 10_000, windowSeconds: 600 } }) });
  owner = (await registerClient(server)).client;
  await owner.request('PATCH', '/api/system-settings', {
    companyProfile: { tradingName: 'Birch & Sons Tree Care', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 },
  });
});
afterAll(() => server.close());

async function acceptedQuote(): Promise<string> {
  const made = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Jo Rowan', email: 'jo@example.com', siteAddress: '12 Elm Road, Leeds' } }), 201);
  await jobOf(await owner.post(`/api/jobs/${made.id}/lines`, { description: 'Fell the leylandii', price: '600' }), 201);
  const { token } = await sendQuoteTo(server, owner, made.id, 'jo@example.com');
  const accepted = await postForm(`/quote/${token}/accept`, [
    ['name', 'Jo Rowan'],
    ['acceptTerms', 'yes'],
  ]);
  expect(accepted.status).toBe(303);
  return token;
}

const postForm = (path: string, fields: [string, string][]) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin, 'sec-fetch-site': 'same-origin', 'user-agent': 'PageTest/1.0' },
    body: new URLSearchParams(fields).toString(),
  });
const page = async (token: string) => (await fetch(`${server.url}/quote/${token}`)).text();
const words = (html: string) => html.replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ' ').replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/\s+/g, ' ');

describe('after accepting', () => {
  it('shows the fingerprint the customer can recompute, the filled-in model form and the cancel form', async () => {
    const token = await acceptedQuote();
    const html = await page(token);
    const quote = publicQuoteResponseSchema.parse(await (await fetch(`${server.url}/api/quotes/${token}`)).json()).quote;
    const hash = createHash('sha256').update(customerCopyText(quote)).digest('hex');
    expect(words(html)).toContain(groupedFingerprint(hash));
    expect(words(html)).toContain(`${server.url}/api/quotes/${token}`);
    expect(words(html)).toContain('Name of consumer(s): Jo Rowan');
    expect(words(html)).toContain('Address of consumer(s): 12 Elm Road, Leeds');
    expect(html).toContain(`action="/quote/${token}/cancel"`);
    expect(words(html)).toContain('Cancel this agreement');
  });

  it('cancels from the form: without the tick it says so beside the field, with it the page reads Cancelled', async () => {
    const token = await acceptedQuote();
    const refused = await postForm(`/quote/${token}/cancel`, [['name', 'Jo Rowan']]);
    expect(refused.status).toBe(400);
    const again = await refused.text();
    expect(again).toContain('Please tick to confirm you are cancelling');
    expect(again).toContain('value="Jo Rowan"');

    const done = await postForm(`/quote/${token}/cancel`, [
      ['name', 'Jo Rowan'],
      ['confirm', 'yes'],
    ]);
    expect(done.status).toBe(303);
    const html = words(await page(token));
    expect(html).toContain('Cancelled');
    expect(html).toMatch(/was cancelled by Jo Rowan on this page/);
    expect(html).not.toContain('Cancel this agreement');

    // A second post (a reload, a double tap) says it is already cancelled.
    const twice = await postForm(`/quote/${token}/cancel`, [
      ['name', 'Jo Rowan'],
      ['confirm', 'yes'],
    ]);
    expect(twice.status).toBe(409);
    expect(words(await twice.text())).toContain('This agreement has already been cancelled.');
  });

  it('after the 14 days shows no form, says when the period ended, and refuses a late post (410)', async () => {
    const token = await acceptedQuote();
    server.clock.advance(15 * DAY);
    const html = words(await page(token));
    expect(html).not.toContain('Cancel this agreement');
    expect(html).toMatch(/Your 14-day cancellation period ended on \w+day \d{1,2} \w+ 2026\. To talk about the work, call Birch & Sons Tree Care on 01632 960000/);
    const late = await postForm(`/quote/${token}/cancel`, [
      ['name', 'Jo Rowan'],
      ['confirm', 'yes'],
    ]);
    expect(late.status).toBe(410);
    expect(words(await late.text())).toMatch(/The 14-day cancellation period ended on/);
  });
});
