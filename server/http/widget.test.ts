import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusinessFor } from '../../testing/business';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';

/*
 * How the widget's files and the /embed page are served, against a small stand-in build
 * (the real one is checked by the browser tests): CORS and cross-origin CORP on the
 * loader and bundle, a year's immutable cache for hashed files, precompressed answers,
 * and the embed page naming the bundle from the manifest.
 */
const widgetDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-widget-'));
const LOADER = '/* loader */ console.log("tree-estimator loader");'.repeat(20);
let server: TestServer;

beforeAll(async () => {
  mkdirSync(join(widgetDir, 'assets'));
  mkdirSync(join(widgetDir, '.vite'));
  writeFileSync(join(widgetDir, 'widget.js'), LOADER);
  writeFileSync(join(widgetDir, 'widget.js.gz'), gzipSync(LOADER));
  writeFileSync(join(widgetDir, 'assets', 'estimator-AbC123.js'), 'export {};');
  writeFileSync(
    join(widgetDir, '.vite', 'manifest.json'),
    JSON.stringify({ 'widget/estimator.tsx': { file: 'assets/estimator-AbC123.js', isEntry: true } }),
  );
  server = await startTestServer({}, { widgetDir });
});
afterAll(async () => {
  await server.close();
  rmSync(widgetDir, { recursive: true, force: true });
});

describe('widget files', () => {
  it('serves widget.js to any site, briefly cached, compressed when accepted', async () => {
    const res = await fetch(`${server.url}/widget.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('cache-control')).toContain('max-age=300');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe(LOADER);
    expect(res.headers.get('x-frame-options')).toBeNull();
  });

  it('serves the hashed bundle immutable for a year; a missing one is a plain 404', async () => {
    const res = await fetch(`${server.url}/widget/assets/estimator-AbC123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const missing = await fetch(`${server.url}/widget/assets/estimator-gone.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control') ?? '').not.toContain('immutable');
  });
});

describe('/embed/{slug}', () => {
  it('is a minimal page with the element and the bundle named by the manifest', async () => {
    const { client } = await registerClient(server);
    const business = await createBusinessFor(client, { name: 'Birch & <Sons>' });
    const res = await fetch(`${server.url}/embed/${business.slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<tree-estimator slug="${business.slug}" frame></tree-estimator>`);
    expect(html).toContain('<script type="module" src="/widget/assets/estimator-AbC123.js"></script>');
    expect(html).toContain('<title>Birch &amp; &lt;Sons&gt;: tree work estimate</title>');
    expect(html).not.toContain('/assets/index');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('answers an unknown slug with the page (the element says the business is not found) as a 404', async () => {
    const res = await fetch(`${server.url}/embed/nobody-here`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('<tree-estimator slug="nobody-here" frame>');
  });

  it('escapes whatever the path holds', async () => {
    const res = await fetch(`${server.url}/embed/${encodeURIComponent('"><script>alert(1)</script>')}`);
    const html = await res.text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });
});
