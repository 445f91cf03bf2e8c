import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeResponseSchema } from '../../core/analysis';
import { EMBED_BUSY_MESSAGE } from '../../core/embed';
import { errorBodySchema } from '../../core/errors';
import { findUserByUsername } from '../accounts/users';
import { BUSY_MESSAGE, ImageSlots } from '../analysis/slots';
import { embedAnalysesToday } from '../analysis/embed-usage';
import { balanceOf, ledgerSum } from '../credits/ledger';
import { analysisForm, analyze, grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze } from '../../testing/business';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/*
 * The analysis path under load (docs/performance.md, Analysis): an upload is read holding nothing and given up when
 * it stalls; only the image work takes a slot, not the model's wait; the line for slots is
 * bounded, and whoever is turned away has paid nothing.
 */

const DESCRIPTION = 'oak, 16 inch trunk, 40 ft tall';

/** An analysis request's exact bytes, to send by hand at whatever pace a test wants. */
async function multipart(fields: Parameters<typeof analysisForm>[0] = {}) {
  const request = new Request('http://localhost/', { method: 'POST', body: analysisForm({ description: DESCRIPTION, ...fields }) });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
  /** Whether the whole body had been sent when the answer came. */
  requestEnded: boolean;
}

/**
 * A raw upload over node:http that sends its headers and the first `first` bytes, then stalls
 * until the test calls finish() (the rest) or abort(). `answer` resolves whenever the server
 * answers, finished or not; `answered` says whether it has yet.
 */
async function dripUpload(server: TestServer, client: TestClient | null, path = '/api/analyze-tree', first = 2048) {
  const { body, contentType } = await multipart();
  const headers: Record<string, string | number> = {
    'content-type': contentType,
    'content-length': body.length,
    origin: server.origin,
    'sec-fetch-site': 'same-origin',
  };
  if (client) headers.cookie = client.cookieHeader();
  const req = httpRequest(server.url + path, { method: 'POST', headers });
  let answered = false;
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const requestEnded = req.writableEnded;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        answered = true;
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined, body: text, requestEnded });
      });
    });
    req.on('error', (error) => (answered ? undefined : reject(error)));
  });
  req.flushHeaders();
  req.write(body.subarray(0, first));
  // The test's own tail end: a socket the server closes after answering is not a failure here.
  answer.catch(() => undefined);
  return {
    answer,
    get answered() {
      return answered;
    },
    finish: () => req.end(body.subarray(first)),
    abort: () => req.destroy(),
  };
}

/** Waits until `ready()` holds, checking every 10 ms; fails the test past `withinMs` (never a goal, only a guard). */
async function until(ready: () => boolean, what: string, withinMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!ready()) {
    if (Date.now() - start > withinMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Time for the server to take a drip-fed request's headers and start reading its body. Not a
 * goal: if the server were slower than this, the request would be turned away at the door and
 * the test would fail on `requestEnded`, never pass without checking what it means to.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** A user with credits, and how their balance and ledger stand. */
async function payingUser(server: TestServer, credits: number) {
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, credits);
  const id = findUserByUsername(server.db, account.username)!.id;
  const money = () => ({ balance: balanceOf(server.db, id), ledger: ledgerSum(server.db, id) });
  return { client, money };
}

/** Holds every slot of `slots` and fills its line, as other analyses would; release() lets them all go. */
function fillUp(slots: ImageSlots) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const all = Array.from({ length: slots.capacity + slots.maxWaiting }, () => slots.run(() => held));
  expect(slots.full).toBe(true);
  return async () => {
    release();
    await Promise.all(all);
  };
}

describe('an upload that stalls', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { analysis: { uploadIdleMs: 200 } });
  });
  afterAll(() => server.close());

  it('is answered 408 REQUEST_TIMEOUT once no byte came for the idle timeout, and costs nothing', async () => {
    const { client, money } = await payingUser(server, 10);
    const drip = await dripUpload(server, client);
    const answer = await drip.answer;
    drip.abort();
    expect(answer.status).toBe(408);
    const stalled = 'The upload stalled. Please check your connection and try again.';
    expect(errorBodySchema.parse(JSON.parse(answer.body))).toEqual({ code: 'REQUEST_TIMEOUT', message: stalled, error: stalled });
    expect(money()).toEqual({ balance: 10, ledger: 10 });
    // Nothing was kept for it: the same user's next, complete upload is analysed and charged once.
    const res = await analyze(client, { description: DESCRIPTION });
    expect(res.status).toBe(201);
    expect(money()).toEqual({ balance: 0, ledger: 0 });
  });
});

describe('uploads in progress hold nothing', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The production defaults: two slots, a 15 s idle timeout (longer than this test).
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("two drip-fed uploads do not hold back a third user's analysis", async () => {
    const dripper = await payingUser(server, 20);
    const drips = [await dripUpload(server, dripper.client), await dripUpload(server, dripper.client)];
    const third = await payingUser(server, 10);

    const res = await analyze(third.client, { description: DESCRIPTION });
    expect(res.status).toBe(201);
    analyzeResponseSchema.parse(await res.json());
    // Answered while both slow uploads are still open and unanswered.
    expect(drips.map((d) => d.answered)).toEqual([false, false]);

    // They were only waiting for their bytes: once sent, both are analysed too.
    for (const drip of drips) drip.finish();
    const answers = await Promise.all(drips.map((d) => d.answer));
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    expect(dripper.money()).toEqual({ balance: 0, ledger: 0 });
  });
});

describe('the model is asked without holding a slot', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer(
      { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-key', OPENAI_MODEL: 'tree-vision' },
      { analysis: { slots: new ImageSlots(1, 20) } },
    );
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('with one slot, a second analysis reaches the model while the first is still waiting on it', async () => {
    fake.setMode('slow', { delayMs: 1_500 });
    fake.requests.length = 0;
    const user = await payingUser(server, 20);
    let finished = 0;
    const runs = [0, 1].map(async () => {
      const res = await analyze(user.client, { description: DESCRIPTION });
      finished += 1;
      return res;
    });
    await until(() => fake.requests.length === 2, 'both model calls');
    // Both are at the model before it has answered either: the waits overlap.
    expect(fake.answered).toBe(0);
    expect(finished).toBe(0);
    const answers = await Promise.all(runs);
    expect(answers.map((r) => r.status)).toEqual([201, 201]);
    expect(user.money()).toEqual({ balance: 0, ledger: 0 });
  });
});

describe('a full line', () => {
  const slots = new ImageSlots(1, 1);
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { analysis: { slots } });
  });
  afterAll(() => server.close());

  async function expectBusy(answer: { status: number; retryAfter: string | undefined | null; body: unknown }) {
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(answer.body).toEqual({ code: 'BUSY', message: BUSY_MESSAGE, error: BUSY_MESSAGE });
  }

  it('answers 503 BUSY with Retry-After before reading the upload, charging nothing', async () => {
    const { client, money } = await payingUser(server, 10);
    const releaseAll = fillUp(slots);
    const res = await analyze(client, { description: DESCRIPTION });
    await expectBusy({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() });
    expect(money()).toEqual({ balance: 10, ledger: 10 });
    await releaseAll();
    expect((await analyze(client, { description: DESCRIPTION })).status).toBe(201);
  });

  it('answers 503 BUSY when the line filled while the upload was arriving, charging nothing', async () => {
    const { client, money } = await payingUser(server, 10);
    const drip = await dripUpload(server, client);
    await settle();
    // The route has let it in and is reading its body; now the line fills behind its back.
    expect(drip.answered).toBe(false);
    const releaseAll = fillUp(slots);
    drip.finish();
    const answer = await drip.answer;
    expect(answer.requestEnded).toBe(true);
    await expectBusy({ ...answer, body: JSON.parse(answer.body) });
    expect(money()).toEqual({ balance: 10, ledger: 10 });
    await releaseAll();
  });

  it("gives a business's visitor BUSY without taking the day's slot or the owner's credits", async () => {
    const owner = await payingUser(server, 20);
    const business = await createBusinessFor(owner.client, { dailyCap: 1 });
    const slotsUsed = () => embedAnalysesToday(server.db, server.clock, business.id);

    // Turned away at the door, and turned away after the upload was in.
    const releaseAtDoor = fillUp(slots);
    const atDoor = await visitorAnalyze(server, business.slug);
    await expectBusy({ status: atDoor.status, retryAfter: atDoor.headers.get('retry-after'), body: await atDoor.json() });
    await releaseAtDoor();
    const drip = await dripUpload(server, null, `/api/analyze-tree?businessSlug=${business.slug}`);
    await settle();
    expect(drip.answered).toBe(false);
    const releaseLate = fillUp(slots);
    drip.finish();
    const late = await drip.answer;
    expect(late.requestEnded).toBe(true);
    await expectBusy({ ...late, body: JSON.parse(late.body) });
    await releaseLate();
    expect(slotsUsed()).toBe(0);
    expect(owner.money()).toEqual({ balance: 20, ledger: 20 });

    // The cap of one is still there to use, and is then used up.
    expect((await visitorAnalyze(server, business.slug)).status).toBe(201);
    expect(slotsUsed()).toBe(1);
    expect(owner.money()).toEqual({ balance: 10, ledger: 10 });
    const capped = await visitorAnalyze(server, business.slug);
    expect(capped.status).toBe(429);
    expect((await capped.json()).message).toBe(EMBED_BUSY_MESSAGE);
  });
});
