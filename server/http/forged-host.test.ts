import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/**
 * The same-origin check compares Origin with PUBLIC_URL, never with the Host header (docs/security.md):
 * a page on a rebinding name reaches us with Host: its name and Origin: its name, which used to
 * pass as our own. Without PUBLIC_URL the loopback forms of the port are ours, and only they.
 */
let server: TestServer;
let configured: TestServer;
let owner: TestClient;
beforeAll(async () => {
  [server, configured] = await Promise.all([startTestServer(), startTestServer({ PUBLIC_URL: 'https://trees.example.com' })]);
  owner = (await registerClient(server)).client;
});
afterAll(() => Promise.all([server.close(), configured.close()]));

/** A POST over node:http, which (unlike fetch) sends the Host header it is given. */
function post(target: TestServer, path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  const url = new URL(target.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

let counter = 0;
const newBusiness = () => {
  counter += 1;
  return { name: `Rebound ${counter}`, slug: `rebound-${process.pid}-${counter}`, hourlyRate: '50.00', aiInstructions: null };
};
const businessCount = () => (server.db.$client.prepare('select count(*) as n from businesses').get() as { n: number }).n;

describe('the same-origin check', () => {
  it('refuses a signed-in POST whose forged Host matches its Origin (DNS rebinding): 403, nothing made', async () => {
    const before = businessCount();
    const port = new URL(server.url).port;
    for (const host of [`evil.example:${port}`, 'evil.example']) {
      const origin = `http://${host}`;
      const res = await post(server, '/api/businesses', { host, origin, cookie: owner.cookieHeader(), 'sec-fetch-site': 'same-origin' }, newBusiness());
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect(businessCount()).toBe(before);
    // The same request from our own page is made.
    const ours = await post(server, '/api/businesses', { origin: server.origin, cookie: owner.cookieHeader() }, newBusiness());
    expect(ours.status).toBe(201);
  });

  it('takes the loopback forms of the port without PUBLIC_URL, and nothing else', async () => {
    const port = new URL(server.url).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`]) {
      expect((await post(server, '/api/businesses', { origin, cookie: owner.cookieHeader() }, newBusiness())).status, origin).toBe(201);
    }
    for (const origin of [`http://localhost:${Number(port) + 1}`, `https://localhost:${port}`, `http://localhost.evil.example:${port}`]) {
      expect((await post(server, '/api/businesses', { origin, cookie: owner.cookieHeader() }, newBusiness())).status, origin).toBe(403);
    }
  });

  it('takes only PUBLIC_URL when it is set, even a loopback form of the same port', async () => {
    const login = { usernameOrEmail: 'nobody', password: 'wrong password' };
    const port = new URL(configured.url).port;
    // 401: the check let it through to the login itself.
    expect((await post(configured, '/api/auth/login', { origin: configured.origin }, login)).status).toBe(401);
    for (const origin of [`http://localhost:${port}`, `http://[::1]:${port}`]) {
      expect((await post(configured, '/api/auth/login', { origin, host: `localhost:${port}` }, login)).status, origin).toBe(403);
    }
  });
});
