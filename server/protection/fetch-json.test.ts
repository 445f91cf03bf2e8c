import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, MAX_BYTES, ServiceAnswer } from './fetch-json';

/* The outside services' answers are read within a deadline and a size cap, whatever they send. */
let server: Server;
let base: string;
const big = JSON.stringify({ entities: ['x'.repeat(MAX_BYTES)] });

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/declared') return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) }).end(big);
    if (req.url === '/chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < big.length; i += 64 * 1024) res.write(big.slice(i, i + 64 * 1024));
      return void res.end();
    }
    if (req.url === '/prose') return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    if (req.url === '/slow') return;
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 404, error: 'Postcode not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const deadline = () => AbortSignal.timeout(1_000);

describe('getJson', () => {
  it('answers the status and the JSON, a 404 included', async () => {
    expect(await getJson(`${base}/unknown`, deadline())).toEqual({ status: 404, body: { status: 404, error: 'Postcode not found' } });
  });

  it.each(['/declared', '/chunked'])('refuses an answer over the cap (%s)', async (path) => {
    await expect(getJson(base + path, deadline())).rejects.toThrow(ServiceAnswer);
  });

  it('refuses an answer that is not JSON', async () => {
    await expect(getJson(`${base}/prose`, deadline())).rejects.toThrow(/not JSON \(status 502\)/);
  });

  it('gives up at the deadline', async () => {
    // /slow never answers: any end at all is the deadline's (no wall-clock verdict).
    await expect(getJson(`${base}/slow`, AbortSignal.timeout(200))).rejects.toThrow();
  });
});
