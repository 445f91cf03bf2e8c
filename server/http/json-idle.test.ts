import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusinessFor } from '../../testing/business';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { sendRaw } from '../../testing/raw-http';

/**
 * JSON bodies are read with the uploads' idle timeout (docs/security.md): a quote request trickled to the
 * public leads endpoint held its connection until Node's own 300 s. Here the timeout is 300 ms
 * (startTestServer's analysis.uploadIdleMs); production's is 15 s (UPLOAD_IDLE_MS).
 */
const IDLE_MS = 300;
let server: TestServer;
let leadsPath: string;
beforeAll(async () => {
  server = await startTestServer({}, { analysis: { uploadIdleMs: IDLE_MS } });
  const owner = await registerClient(server);
  leadsPath = `/api/businesses/${(await createBusinessFor(owner.client)).slug}/leads`;
});
afterAll(() => server.close());

const START = new TextEncoder().encode('{"analysisId":1,"name":"Tr');

describe('a JSON body that goes quiet', () => {
  it('gets 408 REQUEST_TIMEOUT after the idle timeout on the public leads endpoint, with or without a length', async () => {
    const heads = [
      `POST ${leadsPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200`,
      `POST ${leadsPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked`,
    ];
    const bodies = [START, new TextEncoder().encode(`${START.length.toString(16)}\r\n${new TextDecoder().decode(START)}\r\n`)];
    for (const [i, head] of heads.entries()) {
      const { answer, error, closedAfterMs } = await sendRaw({ url: server.url, head, body: bodies[i]!, settleMs: 3_000 });
      expect(error, head).toBeUndefined();
      // And the connection is let go, not held open for the rest.
      expect(closedAfterMs, head).toBeLessThan(3_000);
      expect(answer?.status, head).toBe(408);
      expect(JSON.parse(answer!.body)).toMatchObject({ code: 'REQUEST_TIMEOUT' });
      // Not before the idle timeout (a box's load only makes it later, so no upper bound: the 408
      // itself is the timeout's answer).
      expect(answer!.elapsedMs).toBeGreaterThanOrEqual(IDLE_MS - 50);
    }
  });

  it('times out on a signed-in JSON route too, and a body that keeps coming is read whole', async () => {
    const head = `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nOrigin: ${server.origin}\r\nContent-Type: application/json\r\nContent-Length: 200`;
    const quiet = await sendRaw({ url: server.url, head, body: START });
    expect(quiet.answer?.status).toBe(408);
    // Slow but steady (a byte every 100 ms, under the 300 ms idle timeout): read to the end and answered.
    const login = new TextEncoder().encode(JSON.stringify({ usernameOrEmail: 'nobody', password: 'x' }).padEnd(40, ' '));
    const steady = await sendRaw({
      url: server.url,
      head: `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nOrigin: ${server.origin}\r\nContent-Type: application/json\r\nContent-Length: ${login.length}`,
      body: login,
      stepBytes: 4,
      bytesPerSecond: 40,
    });
    expect(steady.answer?.status).toBe(401);
  });
});
