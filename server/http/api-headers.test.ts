import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('API answers', () => {
  it('carry the API headers, on reads, errors and routes with their own Cache-Control', async () => {
    const { client } = await registerClient(server);
    const me = await client.get('/api/auth/me');
    const missing = await client.get('/api/no-such-route');
    for (const res of [me, missing]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(missing.status).toBe(404);
    const own = await client.get('/api/capabilities');
    expect(own.headers.get('cache-control')).toBe('no-cache');
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
