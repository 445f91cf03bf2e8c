import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicCors } from '../http/public-access';
import { RateLimits } from '../http/rate-limit';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { sendQuoteTo } from '../../testing/quote-links';
import { publicApiDocument } from './openapi';

/*
 * The public API's OpenAPI document: a valid OpenAPI 3.1 document, served at /api/openapi.json,
 * naming exactly the public routes (the embed API and the customer's quote link), and describing
 * what those routes really answer: every answer below, happy or refused, is held to the schema
 * the document gives for its status.
 */
type Document = ReturnType<typeof publicApiDocument>;
type Operation = { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>; requestBody?: unknown };

let server: TestServer;
let owner: TestClient;
let ownerName: string;
let doc: Document;
// The document's own top-level fields are not JSON Schema keywords; the schemas inside are checked strictly.
const ajv = new Ajv2020({ allErrors: true, keywords: ['openapi', 'info', 'servers', 'paths', 'components'] });

beforeAll(async () => {
  server = await startTestServer(
    {},
    {
      // Loose analysis limits (every request here comes from 127.0.0.1), a quote request's tight, to see its 429.
      rateLimits: new RateLimits({
        embedAnalysesPerAddress: { points: 1000, windowSeconds: 60 },
        embedAnalysesPerBusiness: { points: 1000, windowSeconds: 60 },
        leadsPerAddress: { points: 1, windowSeconds: 3600 },
      }),
    },
  );
  ({ client: owner, account: { username: ownerName } } = await registerClient(server));
  const res = await fetch(`${server.url}/api/openapi.json`);
  doc = (await res.json()) as Document;
  ajv.addSchema(doc, 'openapi.json');
});
afterAll(() => server.close());

function operation(path: string, method: string): Operation {
  const found = (doc.paths as Record<string, Record<string, Operation>>)[path]?.[method];
  if (!found) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
  return found;
}

/** Holds a real answer to the document: its status is listed for the operation, its body fits that status's schema. */
async function expectDocumented(path: string, method: string, res: Response, status: number): Promise<unknown> {
  expect(res.status, `${method.toUpperCase()} ${path}`).toBe(status);
  const documented = operation(path, method).responses[String(res.status)];
  expect(documented, `${method.toUpperCase()} ${path} answered ${res.status}, which the document does not list`).toBeDefined();
  const content = documented!.content ?? {};
  const schema = content['application/json']?.schema;
  if (!schema) {
    const type = res.headers.get('content-type')?.split(';')[0] ?? '';
    if (Object.keys(content).length > 0) expect(Object.keys(content), `${method.toUpperCase()} ${path} answered ${type}`).toContain(type);
    else expect(await res.text()).toBe('');
    return undefined;
  }
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body: unknown = await res.json();
  const validate = ajv.compile({ $ref: `openapi.json${schema.$ref}` });
  expect(validate(body), `${method.toUpperCase()} ${path} ${res.status}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body)}`).toBe(true);
  return body;
}

/** What a client sends, held to the request schema the document gives (so the examples here are ones it allows). */
function expectAllowedBody(path: string, body: unknown) {
  const validate = ajv.compile({ $ref: `openapi.json#/paths/${path.replace(/\//g, '~1')}/post/requestBody/content/application~1json/schema` });
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, readable from any site', async () => {
    const res = await fetch(`${server.url}/api/openapi.json`, { headers: { origin: 'https://greenoak.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const served = await res.json();
    expect(served).toEqual(JSON.parse(JSON.stringify(publicApiDocument(server.url))));
    const validator = new Validator();
    const result = await validator.validate(served);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("names exactly the app's public routes (those answered with CORS for any site, and the customer's quote and invoice links)", () => {
    // Hono lists each middleware as a route entry: the embed API's are those that pass publicCors.
    const publicRoutes = server.app.routes
      .filter((r) => (r.handler === publicCors || r.path.startsWith('/api/quotes/') || r.path.startsWith('/api/invoice-links/')) && r.method !== 'OPTIONS' && r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path.replace(/\{[^}]*\}/g, '')}`);
    expect(publicRoutes).toEqual(expect.arrayContaining(['GET /api/quotes/:token', 'GET /api/quotes/:token/quote.pdf', 'POST /api/quotes/:token/accept']));
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual([...new Set(publicRoutes)].sort());
  });

  it('describes the multipart analysis form: the photo a file, the answers JSON text of their schemas', () => {
    const form = operation('/api/analyze-tree', 'post').requestBody as {
      content: { 'multipart/form-data': { schema: { required: string[]; properties: Record<string, Record<string, unknown>> } } };
    };
    const { required, properties } = form.content['multipart/form-data'].schema;
    expect(required).toEqual(['image']);
    expect(properties.image).toMatchObject({ type: 'string', contentMediaType: 'application/octet-stream' });
    expect(properties.treeDetails).toMatchObject({ type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/TreeDetails' } });
    expect(properties.siteDetails).toMatchObject({ type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/SiteDetails' } });
  });
});

describe('real answers fit the document', () => {
  it('the business lookup', async () => {
    const business = await createBusinessFor(owner, { accentColor: '#166534' });
    const listed = await createBusinessFor(owner, { allowedOrigins: ['https://greenoak.example'] });
    const path = '/api/businesses/{slug}';
    expect(await expectDocumented(path, 'get', await fetch(`${server.url}/api/businesses/${business.slug}`), 200)).toMatchObject({
      slug: business.slug,
      status: 'unavailable',
    });
    await expectDocumented(path, 'get', await fetch(`${server.url}/api/businesses/no-such-business`), 404);
    await expectDocumented(path, 'get', await fetch(`${server.url}/api/businesses/${listed.slug}`, { headers: { origin: 'https://evil.example' } }), 403);
  });

  it("a visitor's analysis: an estimate, what to add, and the refusals", async () => {
    const business = await createBusinessFor(owner, { hourlyRate: '45.00' });
    const path = '/api/analyze-tree';
    // The owner has no credits yet: the estimator is unavailable.
    await expectDocumented(path, 'post', await visitorAnalyze(server, business.slug), 402);
    grantTo(server, ownerName, 100);
    const estimate = await visitorAnalyze(server, business.slug, {
      siteDetails: { targets: 'fence_shed', stumpGrinding: true },
      treeDetails: { species: 'English oak', height: { value: 12, unit: 'm' }, diameter: { value: 50, unit: 'cm' } },
    });
    expect(await expectDocumented(path, 'post', estimate, 201)).toMatchObject({ outcome: 'estimate', cost: { min: expect.any(String) } });
    const needsDetails = await visitorAnalyze(server, business.slug, { description: '' });
    await expectDocumented(path, 'post', needsDetails, 200);
    await expectDocumented(path, 'post', await visitorAnalyze(server, business.slug, { treeDetails: '{not json' }), 400);
    await expectDocumented(path, 'post', await visitorAnalyze(server, business.slug, { image: Buffer.from('not a photo') }), 415);
    await expectDocumented(path, 'post', await visitorAnalyze(server, 'no-such-business'), 404);
  });

  it('a quote request and a funnel event', async () => {
    const business = await createBusinessFor(owner);
    const analysis = (await (await visitorAnalyze(server, business.slug)).json()) as { analysis: { id: number }; leadToken: string };
    const leads = '/api/businesses/{slug}/leads';
    const lead = { analysisId: analysis.analysis.id, leadToken: analysis.leadToken, name: 'Jo Birch', email: 'jo@example.com', postcode: 'ls6 2ab', address: '12 Oak Lane', contactMethod: 'email', contactTime: null };
    expectAllowedBody(leads, lead);
    await expectDocumented(leads, 'post', await visitorLead(server, business.slug, { ...lead, email: 'a@b.c' }), 400);
    const sent = await visitorLead(server, business.slug, lead);
    await expectDocumented(leads, 'post', sent, 201);
    await expectDocumented(leads, 'post', await visitorLead(server, business.slug, lead), 429);

    const events = '/api/businesses/{slug}/events';
    expectAllowedBody(events, { event: 'photo' });
    const send = (body: unknown) =>
      fetch(`${server.url}/api/businesses/${business.slug}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const counted = await send({ event: 'photo' });
    await expectDocumented(events, 'post', counted, 204);
    await expectDocumented(events, 'post', await send({ event: 'scrolled' }), 400);
  });

  it("the customer's quote link: read, downloaded, answered, and each refusal", async () => {
    const job = ((await (await owner.post('/api/jobs', { customer: { name: 'Jo Birch', email: 'jo@example.com' } })).json()) as { job: { id: number } }).job;
    await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Fell the leylandii', price: '600' });
    const hedge = ((await (await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Reduce the hedge', price: '175', optional: true })).json()) as { job: { items: { id: number }[] } }).job.items[1]!;
    const { token } = await sendQuoteTo(server, owner, job.id, 'jo@example.com');
    const quotes = (rest = '') => `${server.url}/api/quotes/${token}${rest}`;
    const answer = (action: string, body: unknown, headers: Record<string, string> = { origin: server.origin }) =>
      fetch(quotes(`/${action}`), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    expect(await expectDocumented('/api/quotes/{token}', 'get', await fetch(quotes()), 200)).toMatchObject({ quote: { totals: { gross: '600.00' }, answer: null } });
    await expectDocumented('/api/quotes/{token}', 'get', await fetch(`${server.url}/api/quotes/${'x'.repeat(43)}`), 404);
    const pdf = await fetch(quotes('/quote.pdf'));
    await expectDocumented('/api/quotes/{token}/quote.pdf', 'get', pdf, 200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    await expectDocumented('/api/quotes/{token}/quote.pdf', 'get', await fetch(`${server.url}/api/quotes/nobody/quote.pdf`), 404);

    const changes = '/api/quotes/{token}/changes';
    expectAllowedBody(changes, { message: 'Could you leave the hedge?' });
    expect(await expectDocumented(changes, 'post', await answer('changes', { message: 'Could you leave the hedge?' }), 200)).toMatchObject({ quote: { answer: null } });
    await expectDocumented(changes, 'post', await answer('changes', { message: '' }), 400);

    const accept = '/api/quotes/{token}/accept';
    const acceptance = { name: 'Jo Birch', acceptTerms: true, optionalItemIds: [hedge.id], startWithinCancellationPeriod: false };
    expectAllowedBody(accept, acceptance);
    await expectDocumented(accept, 'post', await answer('accept', { ...acceptance, acceptTerms: false }), 400);
    await expectDocumented(accept, 'post', await answer('accept', acceptance, { origin: 'https://evil.example' }), 403);
    expect(await expectDocumented(accept, 'post', await answer('accept', acceptance), 200)).toMatchObject({ quote: { answer: { kind: 'accepted', totals: { gross: '775.00' } } } });
    await expectDocumented(accept, 'post', await answer('accept', acceptance), 409);

    const decline = '/api/quotes/{token}/decline';
    expectAllowedBody(decline, { reason: 'Too dear' });
    await expectDocumented(decline, 'post', await answer('decline', { reason: 'Too dear' }), 409);

    // A changed quote sent again: the first link is replaced.
    const second = ((await (await owner.post('/api/jobs', { customer: { name: 'Sam Ash', email: 'sam@example.com' } })).json()) as { job: { id: number } }).job;
    await owner.post(`/api/jobs/${second.id}/lines`, { description: 'Crown lift', price: '250' });
    const first = await sendQuoteTo(server, owner, second.id, 'sam@example.com');
    await sendQuoteTo(server, owner, second.id, 'sam@example.com');
    await expectDocumented('/api/quotes/{token}', 'get', await fetch(`${server.url}/api/quotes/${first.token}`), 410);
    await expectDocumented('/api/quotes/{token}/quote.pdf', 'get', await fetch(`${server.url}/api/quotes/${first.token}/quote.pdf`), 410);
    await expectDocumented(decline, 'post', await fetch(`${server.url}/api/quotes/${first.token}/decline`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.origin }, body: '{}' }), 410);
  });
});
