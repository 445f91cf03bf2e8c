import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressBeside } from '../../build/sizes';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'treeanalyzer-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>TreeAnalyzer Pro</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log("app")');
  // As `npm run build` leaves them: compressed copies beside the page and a script, a hidden source map.
  writeFileSync(join(dist, 'assets', 'login-5678.js'), `export const page = ${JSON.stringify('login '.repeat(200))};`);
  writeFileSync(join(dist, 'assets', 'login-5678.js.map'), '{"version":3,"sources":["../../dashboard/pages/login.tsx"]}');
  compressBeside(join(dist, 'assets', 'login-5678.js'));
  compressBeside(join(dist, 'index.html'));
  // The build's manifest, which is for the build's size report and is never served.
  mkdirSync(join(dist, '.vite'));
  writeFileSync(join(dist, '.vite', 'manifest.json'), '{"index.html":{"file":"assets/app-1234.js"}}');
  server = await startTestServer({}, { dashboardDir: dist });
});
afterAll(async () => {
  await server.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('dashboard serving', () => {
  it('serves the SPA for deep links and unknown paths, never cached, never framed', async () => {
    for (const path of ['/', '/settings', '/reset-password?token=abc', '/no/such/page']) {
      const res = await fetch(server.url + path);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self';");
      expect(res.headers.get('content-security-policy')).not.toContain('stripe.com');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('serves hashed assets with a long cache', async () => {
    const res = await fetch(`${server.url}/assets/app-1234.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('sends the brotli or gzip copy the browser accepts, immutable for a year, varying by Accept-Encoding', async () => {
    const plain = await (await fetch(`${server.url}/assets/login-5678.js`, { headers: { 'Accept-Encoding': 'identity' } })).text();
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await fetch(`${server.url}/assets/login-5678.js`, { headers: { 'Accept-Encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      // fetch decodes the body itself; the bytes on the wire are the compressed copy's.
      expect(await res.text()).toBe(plain);
      expect(Number(res.headers.get('content-length'))).toBeLessThan(plain.length / 4);
      expect(decode(Buffer.from(readFileSync(join(dist, 'assets', `login-5678.js.${encoding === 'br' ? 'br' : 'gz'}`)))).toString()).toBe(plain);
    }
  });

  it('sends the plain asset, still varying by Accept-Encoding, to a client that takes no compression', async () => {
    const res = await fetch(`${server.url}/assets/login-5678.js`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(await res.text()).toContain('login login');
  });

  it('sends the app page compressed too, never cached', async () => {
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip, br;q=0', 'gzip'],
      ['identity', null],
    ] as const) {
      const res = await fetch(`${server.url}/login`, { headers: { 'Accept-Encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it("does not serve the build's hidden files (its manifest)", async () => {
    const res = await fetch(`${server.url}/.vite/manifest.json`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('assets/app-1234.js');
  });

  it('does not serve source maps', async () => {
    const res = await fetch(`${server.url}/assets/login-5678.js.map`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('sources');
  });

  it('answers a missing asset with 404, not the app page', async () => {
    const res = await fetch(`${server.url}/assets/missing-9999.js`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('<div id="root">');
  });

  it('does not serve files outside the build folder', async () => {
    const res = await fetch(`${server.url}/..%2f..%2fpackage.json`);
    expect(await res.text()).not.toContain('"dependencies"');
  });

  it('gives API answers nosniff and a deny-all CSP', async () => {
    const res = await fetch(`${server.url}/api/auth/me`);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers /healthz', async () => {
    const res = await fetch(`${server.url}/healthz`);
    // 200 "ok", or 503 "overloaded" if this test process stalled for a second in the last ten
    // (a loaded box; server/ops/event-loop.test.ts holds the rule itself).
    const body = await res.json();
    expect(res.status === 200 ? 'ok' : 'overloaded').toBe(body.status);
    expect(body).toMatchObject({ eventLoop: { delayMs: expect.any(Object), windowSeconds: 10 } });
  });
});

describe('dashboard serving with Stripe configured', () => {
  it('allows Stripe.js and its frames, and nothing else outside', async () => {
    const stripeServer = await startTestServer({ STRIPE_SECRET_KEY: 'sk_test_csp', STRIPE_PUBLISHABLE_KEY: 'pk_test_csp', STRIPE_WEBHOOK_SECRET: 'whsec_csp' }, { dashboardDir: dist });
    try {
      const csp = (await fetch(stripeServer.url + '/checkout')).headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com;");
      expect(csp).toContain('frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com');
      expect(csp).toContain("connect-src 'self' https://api.stripe.com");
      expect(csp).toContain("frame-ancestors 'none'");
    } finally {
      await stripeServer.close();
    }
  });
});

describe("the crew's app page for a signed-in phone", () => {
  it("answers My days and a job sheet with the crew page (My days, without the first view's build, asking for its two reads beside the script, its styles inside it), only with the session hint, with no data in it", async () => {
    const crewDist = mkdtempSync(join(tmpdir(), 'treeanalyzer-dist-'));
    writeFileSync(join(crewDist, 'index.html'), '<!doctype html><head><title>TreeAnalyzer Pro</title><script type="module" crossorigin src="/assets/index-1.js"></script></head><div id="root"></div>');
    writeFileSync(join(crewDist, 'crew.html'), '<!doctype html><head><title>My days · TreeAnalyzer Pro</title><script type="module" crossorigin src="/assets/crew-3.js"></script><link rel="stylesheet" crossorigin href="/assets/crew-4.css"></head><div id="root"></div>');
    mkdirSync(join(crewDist, 'assets'));
    writeFileSync(join(crewDist, 'assets', 'crew-4.css'), '.crew{color:green}');
    const crewServer = await startTestServer({}, { dashboardDir: crewDist });
    try {
      const signedIn = { Cookie: 'theme=dark; ta_signed_in=1', 'Accept-Encoding': 'identity' };
      const page = await (await fetch(`${crewServer.url}/my-days`, { headers: signedIn })).text();
      for (const link of [
        '<link rel="preload" as="fetch" crossorigin href="/api/auth/me">',
        '<link rel="preload" as="fetch" crossorigin href="/api/my-days">',
        '<script type="module" crossorigin src="/assets/crew-3.js"></script>',
        '<style>.crew{color:green}</style>',
      ]) expect(page).toContain(link);
      expect(page).not.toContain('index-1.js');
      const brotli = await fetch(`${crewServer.url}/my-days`, { headers: { ...signedIn, 'Accept-Encoding': 'br' } });
      expect(brotli.headers.get('content-encoding')).toBe('br');
      expect(brotli.headers.get('cache-control')).toBe('no-cache');
      expect(await brotli.text()).toBe(page);
      // A job sheet: the crew's page, without My days' reads (the sheet reads its own).
      const sheet = await (await fetch(`${crewServer.url}/my-days/jobs/12`, { headers: signedIn })).text();
      expect(sheet).toContain('crew-3.js');
      expect(sheet).not.toContain('/api/my-days');
      expect(sheet).toContain('<link rel="stylesheet" crossorigin href="/assets/crew-4.css">');
      for (const [path, cookie] of [
        ['/my-days', ''], ['/my-days', 'ta_signed_in=0'], ['/', 'ta_signed_in=1'], ['/my-days/jobs/1/x', 'ta_signed_in=1'], ['/my-daysx', 'ta_signed_in=1'], ['/jobs/1', 'ta_signed_in=1'],
      ] as const) {
        const other = await (await fetch(crewServer.url + path, { headers: { Cookie: cookie } })).text();
        expect(other, `${path} ${cookie}`).toContain('index-1.js');
      }
    } finally {
      await crewServer.close();
      rmSync(crewDist, { recursive: true, force: true });
    }
  });
});
