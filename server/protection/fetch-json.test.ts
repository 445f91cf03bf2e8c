import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followableRedirect, getJson, MAX_BYTES, ServiceAnswer } from './fetch-json';

/* The outside services' answers are read within a deadline and a size cap, whatever they send. */
let server: Server;
let base: string;
/** Another server on 127.0.0.1 (another port, so another host than the service's): what a redirect would reach. */
let victim: Server;
let victimBase: string;
const victimHits: string[] = [];
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
    if (req.url === '/away') return void res.writeHead(302, { location: `${victimBase}/postcodes/BS84AA` }).end();
    if (req.url === '/same-host-http') return void res.writeHead(301, { location: '/unknown' }).end();
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 404, error: 'Postcode not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  victim = createServer((req, res) => {
    victimHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 200, result: { latitude: 0, longitude: 0 } }));
  });
  await new Promise<void>((resolve) => victim.listen(0, '127.0.0.1', resolve));
  victimBase = `http://127.0.0.1:${(victim.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const s of [server, victim]) {
    s.closeAllConnections();
    s.close();
  }
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

  it('never follows a redirect to another host: a 302 to 127.0.0.1 is not fetched, and nothing is believed', async () => {
    await expect(getJson(`${base}/away`, deadline())).rejects.toThrow(/redirect refused/);
    expect(victimHits).toEqual([]);
  });

  it('follows a redirect only on the same host over https (so never over plain http)', async () => {
    await expect(getJson(`${base}/same-host-http`, deadline())).rejects.toThrow(/redirect refused/);
    const from = new URL('https://www.planning.data.gov.uk/entity/123.json');
    expect(followableRedirect(from, '/entity/456.json')?.href).toBe('https://www.planning.data.gov.uk/entity/456.json');
    for (const location of ['http://www.planning.data.gov.uk/entity/456.json', 'https://127.0.0.1/entity/456.json', 'https://evil.example/', 'https://www.planning.data.gov.uk:8443/x', '//169.254.169.254/latest', 'http://[::1]/', null, 'http://%']) {
      expect(followableRedirect(from, location), String(location)).toBeNull();
    }
    expect(followableRedirect(new URL('http://localhost:3000/x'), 'http://localhost:3000/y')).toBeNull();
  });

  it('gives up at the deadline', async () => {
    // /slow never answers: any end at all is the deadline's (no wall-clock verdict).
    await expect(getJson(`${base}/slow`, AbortSignal.timeout(200))).rejects.toThrow();
  });
});
