import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../core/errors';
import { analysisForm, grantTo, photo } from '../../testing/analysis';
import { createBusinessFor } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { encodeForm, sendRaw } from '../../testing/raw-http';

/**
 * After refusing a body the server reads and discards the rest, within bounds, so a client still
 * sending gets its 4xx (docs/security.md; http/linger.ts). Before, the connection was closed about half a
 * second after the answer with the client still sending: a client that reads once it has sent
 * everything, on a 50 Mbit/s uplink, got EPIPE after about 3 MB of a 9 MB body, every time.
 */
const MB = 1024 * 1024;
let server: TestServer;
/** Bounds small enough to pass in a test: 1 MB, 300 ms idle, 3 s in all. */
let tight: TestServer;
let owner: TestClient;
let slug: string;
beforeAll(async () => {
  [server, tight] = await Promise.all([startTestServer(), startTestServer({}, { linger: { maxBytes: MB, idleMs: 300, totalMs: 3_000 } })]);
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
  slug = (await createBusinessFor(owner)).slug;
});
afterAll(() => Promise.all([server.close(), tight.close()]));

const NINE_MB = 'x'.repeat(9 * MB);

function expectRefusal(status: number | undefined, body: string | undefined, code = 'PAYLOAD_TOO_LARGE') {
  expect(status).toBe(413);
  expect(errorBodySchema.parse(JSON.parse(body ?? '')).code).toBe(code);
}

describe('a client still sending hears its refusal', () => {
  it('Node fetch posting a 9 MB description to an estimator and to the dashboard gets the 413 and its JSON, every time', async () => {
    for (let i = 0; i < 3; i++) {
      const visitor = await fetch(`${server.url}/api/analyze-tree?businessSlug=${slug}`, {
        method: 'POST',
        body: analysisForm({ businessSlug: slug, description: NINE_MB }),
      });
      expectRefusal(visitor.status, await visitor.text());
      const dashboard = await owner.upload('/api/analyze-tree', analysisForm({ description: NINE_MB }));
      const body = await dashboard.text();
      expectRefusal(dashboard.status, body);
      expect(JSON.parse(body).message).toMatch(/description field is too large/);
    }
  });

  it('a client that reads only once it has sent everything, on a 50 Mbit/s link, gets the 413 instead of a reset', async () => {
    // A 9 MB description before a 2 MB photo: more than the form holds, refused before a byte is read.
    const form = new FormData();
    form.append('businessSlug', slug);
    form.append('description', NINE_MB);
    form.append('image', new Blob([new Uint8Array(Buffer.concat([photo(), Buffer.alloc(2 * MB)]))], { type: 'image/jpeg' }), 'tree.jpg');
    const { type, bytes } = await encodeForm(form);
    const json = new TextEncoder().encode(JSON.stringify({ analysisId: 1, name: NINE_MB, email: 'v@example.com' }));
    const cases = [
      { head: `POST /api/analyze-tree?businessSlug=${slug} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${bytes.length}`, body: bytes },
      {
        head: `POST /api/analyze-tree HTTP/1.1\r\nHost: x\r\nOrigin: ${server.origin}\r\nCookie: ${owner.cookieHeader()}\r\nContent-Type: ${type}\r\nContent-Length: ${bytes.length}`,
        body: bytes,
      },
      { head: `POST /api/businesses/${slug}/leads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${json.length}`, body: json },
    ];
    for (const { head, body } of cases) {
      const outcome = await sendRaw({ url: server.url, head, body, bytesPerSecond: 6 * 1000 * 1000, readAfterSending: true });
      expect(outcome.error, head.split('\r\n')[0]).toBeUndefined();
      expect(outcome.sent).toBe(body.length);
      expectRefusal(outcome.answer?.status, outcome.answer?.body);
    }
  });

  it('keeps the connection for the next request once the rest is read', async () => {
    const json = new TextEncoder().encode(JSON.stringify({ name: 'x'.repeat(200 * 1024) }));
    const outcome = await sendRaw({
      url: server.url,
      head: `POST /api/businesses/${slug}/leads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${json.length}`,
      body: json,
      settleMs: 1_000,
    });
    expectRefusal(outcome.answer?.status, outcome.answer?.body);
    expect(outcome.closedAfterMs).toBeUndefined();
  });
});

describe('within bounds', () => {
  it('does not read a body declared far larger than the bound: it is cut off', async () => {
    const outcome = await sendRaw({
      url: server.url,
      head: `POST /api/businesses/${slug}/leads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1024 * MB}`,
      body: new Uint8Array(200 * MB),
      readAfterSending: true,
    });
    expect(outcome.error).toMatch(/EPIPE|ECONNRESET/);
    expect(outcome.sent).toBeLessThan(100 * MB);
  });

  it('cuts off a body without a length at the byte bound, after answering', async () => {
    // Chunked, with no end: 1 MB chunks for as long as the socket takes them.
    const chunk = Buffer.concat([Buffer.from(`${MB.toString(16)}\r\n`), Buffer.alloc(MB, 0x61), Buffer.from('\r\n')]);
    const outcome = await sendRaw({
      url: tight.url,
      head: `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nOrigin: ${tight.origin}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked`,
      body: Buffer.concat(Array.from({ length: 100 }, () => chunk)),
      settleMs: 5_000,
    });
    expectRefusal(outcome.answer?.status, outcome.answer?.body);
    expect(outcome.closedAfterMs ?? outcome.error).toBeDefined();
    expect(outcome.sent).toBeLessThan(20 * MB);
  });

  it('lets go of a client that goes quiet after the idle bound', async () => {
    // 512 KB declared: within the 1 MB bound, so the rest is waited for, until the client goes quiet.
    const json = new TextEncoder().encode(JSON.stringify({ name: 'x'.repeat(512 * 1024) }));
    const outcome = await sendRaw({
      url: tight.url,
      head: `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nOrigin: ${tight.origin}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}`,
      body: json,
      quietAfter: 256 * 1024,
      settleMs: 3_000,
    });
    expectRefusal(outcome.answer?.status, outcome.answer?.body);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(250);
    expect(outcome.closedAfterMs).toBeLessThan(2_000);
  });
});
