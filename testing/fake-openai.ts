import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { VisionAnswer } from '../server/analysis/vision-openai';

/**
 * A small OpenAI-compatible server for tests (CONVENTIONS, pattern 5: local fake HTTP servers
 * for outside services). It speaks just enough of `POST /v1/chat/completions` for the SDK, records
 * every request body, and answers by mode, so the real client code runs over real HTTP.
 */

export type FakeOpenAIMode =
  /** A valid chat completion whose content is the current answer. */
  | 'ok'
  /** HTTP 500 with an OpenAI-style error body. */
  | 'error500'
  /** HTTP 200, but the message content is prose, not JSON. */
  | 'garbage'
  /** HTTP 200 with JSON content that misses fields and has wrong types. */
  | 'out-of-schema'
  /** Holds the response for `delayMs` (default 30 s, longer than any test's client timeout), then answers as 'ok'. */
  | 'slow'
  /** HTTP 200 with a refusal and no content, as OpenAI sends when the model declines. */
  | 'refusal';

export interface FakeOpenAI {
  /** Base URL for the SDK's `baseURL` or OPENAI_BASE_URL, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  /** Every JSON body posted to /v1/chat/completions, oldest first (`requests.length = 0` clears it). */
  requests: unknown[];
  /** How many of those have been answered so far, so a test can order arrivals against answers. */
  readonly answered: number;
  setMode(mode: FakeOpenAIMode, options?: { delayMs?: number }): void;
  /** The content answered in 'ok' and 'slow': an object is sent as JSON text, a string verbatim. */
  setAnswer(answer: unknown): void;
  close(): Promise<void>;
}

/** A plausible answer for a medium garden oak; the default for 'ok'. */
export const fakeVisionAnswer: VisionAnswer = {
  isTree: true,
  species: 'English oak',
  dbhInches: 18,
  heightFeet: 45,
  crownSpreadFeet: 30,
  sizeReference: 'a person standing by the trunk',
  siteFacts: { targets: 'fence_shed', powerLines: false, access: 'side_gate' },
  cuttingMinutesMin: 60,
  cuttingMinutesMax: 90,
  prepMinutesMin: 20,
  prepMinutesMax: 30,
  cleanupMinutesMin: 45,
  cleanupMinutesMax: 75,
  factors: ['Side gate access means brush is carried out by hand'],
  safetyWarnings: ['Deadwood in the upper crown'],
  confidence: 0.7,
};

const SLOW_DEFAULT_MS = 30_000;

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  let mode: FakeOpenAIMode = 'ok';
  let delayMs = SLOW_DEFAULT_MS;
  let answer: unknown = fakeVisionAnswer;
  const requests: unknown[] = [];
  let answered = 0;

  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') {
      sendJson(res, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
      return;
    }
    const body = await readBody(req);
    requests.push(body);
    const model = typeof body === 'object' && body !== null && 'model' in body ? String(body.model) : 'fake';
    const answerText = typeof answer === 'string' ? answer : JSON.stringify(answer);
    // Every mode but 'slow' answers now; 'slow' counts when its timer fires.
    if (mode !== 'slow') answered += 1;

    switch (mode) {
      case 'ok':
        sendJson(res, 200, completion(model, { content: answerText, refusal: null }));
        return;
      case 'error500':
        sendJson(res, 500, { error: { message: 'The fake server had an error', type: 'server_error' } });
        return;
      case 'garbage':
        sendJson(res, 200, completion(model, { content: 'Sure! That tree is about forty feet tall.', refusal: null }));
        return;
      case 'out-of-schema':
        sendJson(res, 200, completion(model, { content: JSON.stringify({ isTree: 'yes', species: 42 }), refusal: null }));
        return;
      case 'refusal':
        sendJson(res, 200, completion(model, { content: null, refusal: "I'm sorry, I can't help with that." }));
        return;
      case 'slow': {
        // Answer late unless the client gives up first; close() ends held responses.
        const timer = setTimeout(() => {
          answered += 1;
          sendJson(res, 200, completion(model, { content: answerText, refusal: null }));
        }, delayMs);
        res.on('close', () => clearTimeout(timer));
        return;
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get answered() {
      return answered;
    },
    setMode(next, options) {
      mode = next;
      delayMs = options?.delayMs ?? SLOW_DEFAULT_MS;
    },
    setAnswer(next) {
      answer = next;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Held 'slow' responses and keep-alive sockets would otherwise keep close() waiting.
        server.closeAllConnections();
      });
    },
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The Chat Completions response shape the SDK reads. */
function completion(model: string, message: { content: string | null; refusal: string | null }) {
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', ...message }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}
