import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { HSTS, PERMISSIONS_POLICY } from './security-headers';

/** HSTS when the public address is https, and a restrictive Permissions-Policy everywhere. */
let https: TestServer;
let http: TestServer;
beforeAll(async () => {
  https = await startTestServer({ PUBLIC_URL: 'https://trees.example.com' });
  http = await startTestServer();
});
afterAll(async () => {
  await https.close();
  await http.close();
});

const paths = ['/healthz', '/api/capabilities', '/api/no-such-route', '/login', '/widget.js'];

describe('transport and permission headers', () => {
  it('sends HSTS for a year with subdomains on every answer when PUBLIC_URL is https', async () => {
    const { client } = await registerClient(http); // the signed-in read over plain http below
    for (const path of paths) {
      const res = await fetch(https.url + path);
      expect(res.headers.get('strict-transport-security'), path).toBe(HSTS);
      expect(res.headers.get('permissions-policy'), path).toBe(PERMISSIONS_POLICY);
    }
    expect(HSTS).toBe('max-age=31536000; includeSubDomains');
    expect((await client.get('/api/auth/me')).headers.get('strict-transport-security')).toBeNull();
  });

  it('sends no HSTS over a plain http address (a first local run), but the Permissions-Policy', async () => {
    for (const path of paths) {
      const res = await fetch(http.url + path);
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
      expect(res.headers.get('permissions-policy'), path).toContain('camera=()');
      expect(res.headers.get('permissions-policy'), path).toContain('geolocation=()');
    }
  });
});
