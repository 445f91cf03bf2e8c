import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emailSchema, usernameSchema } from '../core/accounts';
import { hourlyRateTextSchema } from '../core/analysis';
import { leadInputSchema, slugSchema } from '../core/business';
import { SLUG_PATTERN, slugFromName } from '../core/embed';
import { errorBodySchema } from '../core/errors';
import { parseDuration } from '../core/format';
import { chatReplySchema, MAX_CHAT_MESSAGE_CHARS } from '../core/help-text-chat';
import { parsePence } from '../core/money';
import { normaliseSpecies } from '../core/normalise';
import { matchSpecies } from '../core/species';
import { parseDescription } from './analysis/description-parser';
import { decodeHistoryCursor } from './analysis/history';
import { createLocalAssistant } from './assistant/local-answerer';
import { RateLimits } from './http/rate-limit';
import { createBusinessFor } from '../testing/business';
import { registerClient, startTestServer, TestClient, type TestServer } from '../testing/harness';
import { cpuMs, cpuMsWhile } from '../testing/cpu-time';

/*
 * Denial of service by input shape: every function that reads a client's text does work that
 * grows about linearly with it. Each is timed (CPU time, not wall time) on attacker-shaped text
 * of 1,000 and 10,000 characters in the same run: the larger may take under 30 times the smaller (a quadratic
 * takes about 100), or any time under a floor so sub-millisecond noise cannot fail it. A
 * case is measured again before it fails, so one stall of a shared box is not a failure.
 * (Most of these inputs are capped far below 10,000 characters before they get here: the
 * point is that the cap is not the only thing between a client and a busy event loop.)
 */

const SMALL = 1_000;
const LARGE = 10_000;
const MAX_RATIO = 30;
/** Work under this at 10,000 characters passes whatever its ratio: it cannot stall anything. */
const FLOOR_MS = 25;
const RUNS = 5;
const ATTEMPTS = 3;

/** `unit` repeated to exactly `n` characters. */
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/** Attacker shapes at length n: runs that make a backtracking pattern retry, and words the parsers look for. */
const SHAPES: Record<string, (n: number) => string> = {
  digits: (n) => '1'.repeat(n),
  'spaces then x': (n) => `${' '.repeat(n - 1)}x`,
  'letters then !': (n) => `${'a'.repeat(n - 1)}!`,
  '1 1 1': (n) => fill('1 ', n),
  '12.12.12': (n) => fill('12.', n),
  'ft ft ft': (n) => fill('ft ', n),
  'digits and units': (n) => fill('1 in 2ft 3 m 4cm 5-inch 6 to 7 feet ', n),
  'a digit, spaces, x': (n) => `1${' '.repeat(n - 2)}x`,
  '1h, spaces, x': (n) => `1h${' '.repeat(n - 3)}x`,
  dashes: (n) => '-'.repeat(n),
  dots: (n) => '.'.repeat(n),
  ats: (n) => '@'.repeat(n),
  quotes: (n) => fill(`1"'”’`, n),
  'a.a.a@': (n) => `${fill('a.', n - 1)}@`,
  'a@ then a-a-': (n) => `a@${fill('a-', n - 3)}!`,
  'denied hazards': (n) => fill('no rot not leaning ', n),
  'firewood splits': (n) => fill('logs split it ', n),
  'a long word': (n) => `${fill('abcdefghij', n)}`,
};

function medianMs(fn: () => unknown): number {
  const times = Array.from({ length: RUNS }, () => cpuMs(fn)).sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)]!;
}

/** Whether `read` grows about linearly on `shape`, with what was measured. */
function grows(read: (text: string) => unknown, shape: (n: number) => string): { linear: boolean; measured: string } {
  const small = shape(SMALL);
  const large = shape(LARGE);
  expect([small.length, large.length]).toEqual([SMALL, LARGE]);
  const measured: string[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    read(small); // warm the JIT on this shape
    const smallMs = medianMs(() => read(small));
    const largeMs = medianMs(() => read(large));
    measured.push(`${smallMs.toFixed(2)} ms / ${largeMs.toFixed(2)} ms`);
    if (largeMs < FLOOR_MS || largeMs / Math.max(smallMs, 1e-3) < MAX_RATIO) return { linear: true, measured: measured.join(', ') };
  }
  return { linear: false, measured: measured.join(', ') };
}

const assistant = createLocalAssistant({ visionModel: false });
const emailPattern = z.email();

/** Every function that reads a client's text, as the server calls it. */
const READERS: Record<string, (text: string) => unknown> = {
  'parseDescription (project details)': parseDescription,
  // The answer's work is done before the promise it returns.
  'local assistant answer (chat message)': (text) => void assistant.answer(text),
  'decodeHistoryCursor (?cursor=)': decodeHistoryCursor,
  'parsePence (hourly rate)': parsePence,
  hourlyRateTextSchema: (text) => hourlyRateTextSchema.safeParse(text),
  'parseDuration (feedback times)': parseDuration,
  emailSchema: (text) => emailSchema.safeParse(text),
  "zod's e-mail pattern, uncapped": (text) => emailPattern.safeParse(text),
  usernameSchema: (text) => usernameSchema.safeParse(text),
  slugSchema: (text) => slugSchema.safeParse(text),
  'SLUG_PATTERN, uncapped': (text) => SLUG_PATTERN.test(text),
  slugFromName,
  'leadInputSchema (every field)': (text) => leadInputSchema.safeParse({ analysisId: 1, name: text, email: text, phone: text, note: text, website: text }),
  matchSpecies,
  'normaliseSpecies (tree details)': normaliseSpecies,
};

describe('work grows about linearly with hostile text (1,000 vs 10,000 characters)', () => {
  describe.each(Object.entries(READERS))('%s', (_name, read) => {
    it.each(Object.entries(SHAPES))('%s', (shapeName, shape) => {
      const { linear, measured } = grows(read, shape);
      expect(linear, `${shapeName}: median ${measured} (1,000 / 10,000 characters)`).toBe(true);
    });
  });
});

describe('hostile bodies and parameters over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      { TRUST_PROXY: 'true' },
      {
        rateLimits: new RateLimits({
          chatMessagesPerAddress: { points: 1000, windowSeconds: 60 },
          leadsPerAddress: { points: 1000, windowSeconds: 60 },
          registrationsPerAddress: { points: 1000, windowSeconds: 60 },
        }),
      },
    );
  });
  afterAll(() => server.close());

  const LIMIT = 64 * 1024;
  /** Nesting as deep as a JSON body under the 64 KB limit holds, open and closed. */
  const NESTED: Record<string, string> = {
    'open arrays': '['.repeat(LIMIT - 1),
    'closed arrays': `${'['.repeat(LIMIT / 2 - 1)}${']'.repeat(LIMIT / 2 - 1)}`,
    'open objects': fill('{"a":', LIMIT - 1),
    'closed objects': `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
    'a message of nested arrays': `{"message":${'['.repeat(30_000)}${']'.repeat(30_000)}}`,
  };

  async function postRaw(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin, 'sec-fetch-site': 'same-origin', ...headers },
      body,
    });
  }

  async function expectClientError(res: Response): Promise<void> {
    expect(res.status, await res.clone().text().then((t) => t.slice(0, 200))).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(errorBodySchema.safeParse(await res.json()).success).toBe(true);
  }

  it.each(Object.entries(NESTED))('a 64 KB body of %s is a 4xx at each JSON endpoint, never a 500', async (_name, body) => {
    expect(body.length).toBeLessThanOrEqual(LIMIT);
    const { client } = await registerClient(server);
    const business = await createBusinessFor(client);
    for (const path of ['/api/chatbot', '/api/auth/login', '/api/auth/register', `/api/businesses/${business.slug}/leads`, '/api/businesses']) {
      await expectClientError(await postRaw(path, body, { cookie: client.cookieHeader(), 'x-forwarded-for': '198.51.100.1' }));
    }
    // And the server still answers. (Not /healthz: beside a CPU hog it may rightly say
    // "overloaded" after a stalled second, which is not what this test is about.)
    expect((await fetch(`${server.url}/api/capabilities`)).status).toBe(200);
  });

  it('a body over 64 KB is a 413 before it is parsed', async () => {
    const res = await postRaw('/api/chatbot', '['.repeat(LIMIT + 1), { 'x-forwarded-for': '198.51.100.2' });
    expect(res.status).toBe(413);
  });

  it('answers a 1,000-character adversarial chat message for about the work of a plain question', async () => {
    // The CPU time of the round trip (client and server are this process; testing/cpu-time.ts), not the wall clock.
    const ask = async (message: string) => {
      const { value: res, cpuMs } = await cpuMsWhile(() => new TestClient(server).post('/api/chatbot', { message, context: 'website_help' }, { 'x-forwarded-for': '198.51.100.3' }));
      expect(res.status, message.slice(0, 40)).toBe(200);
      expect(chatReplySchema.safeParse(await res.json()).success).toBe(true);
      return cpuMs;
    };
    const median = async (message: string) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i += 1) times.push(await ask(message));
      return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    };
    await ask('How much is the Pro plan?');
    const plain = await median('How much is the Pro plan?');
    for (const shape of ['digits', 'letters then !', '1 1 1', 'digits and units', 'a long word', 'denied hazards', 'quotes'] as const) {
      const message = SHAPES[shape]!(MAX_CHAT_MESSAGE_CHARS);
      const hostile = await median(message);
      // Ten times a plain question's work, or under a generous floor: never seconds.
      expect(hostile < 100 || hostile < plain * 10, `${shape}: ${hostile.toFixed(1)} ms of CPU against ${plain.toFixed(1)} ms`).toBe(true);
    }
  });

  it('a 10,000-character History cursor is a 400', async () => {
    const { client } = await registerClient(server);
    for (const cursor of ['A'.repeat(LARGE), '1'.repeat(LARGE), fill('MTc4MDMwNDQwMDAwMDox', LARGE), fill('%3A', LARGE)]) {
      const res = await client.get(`/api/analyses?cursor=${cursor}`);
      expect(res.status).toBe(400);
      const body = errorBodySchema.parse(await res.json());
      expect(body.details?.cursor).toBeDefined();
    }
  });

  it('a lead form of 10,000-character fields is a 400', async () => {
    const { client } = await registerClient(server);
    const business = await createBusinessFor(client);
    for (const shape of ['letters then !', 'a.a.a@', 'a@ then a-a-', '1 1 1'] as const) {
      const text = SHAPES[shape]!(LARGE);
      const res = await postRaw(`/api/businesses/${business.slug}/leads`, JSON.stringify({ analysisId: 1, name: text, email: text, phone: text, note: text }), {
        'x-forwarded-for': '198.51.100.4',
      });
      expect(res.status, shape).toBe(400);
    }
  });
});
