import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { dashboardHeaders } from './security-headers';

/** Built by `npm run build` (vite.dashboard.config.ts); resolved from this file, not the cwd. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../dist/dashboard', import.meta.url));

/**
 * Serves the built SPA: hashed assets with a year's cache, and index.html (never cached)
 * for every other path, so deep links such as /settings load the app and unknown paths
 * reach its "404 Page Not Found" screen.
 */
export function dashboardRoutes(distDir = DASHBOARD_DIST, options: { stripe: boolean } = { stripe: false }): Hono {
  const app = new Hono();
  app.use('*', dashboardHeaders(options));
  const indexFile = join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.get('*', (c) =>
      c.text('The dashboard has not been built yet. Run `npm run build` (or `npm start`, which builds first).', 503),
    );
    return app;
  }
  const indexPage = readIndexPage(indexFile);
  // Source maps are built for operators (docs/performance.md, Front-end size) and never served. Lighthouse's
  // valid-source-maps audit (weight 0 in best practices) only asks for maps of first-party
  // scripts over 500 KiB, and the production entry is about 270 kB, so nothing is lost by it.
  app.get('*', async (c, next) => (c.req.path.endsWith('.map') ? c.text('Not found', 404) : next()));
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    // serveStatic names Accept-Encoding only when it sends a compressed copy; a cache must
    // also know the plain answer depends on it.
    if (!c.res.headers.get('Vary')) c.header('Vary', 'Accept-Encoding');
  });
  // The build writes .br and .gz beside every asset (vite.dashboard.config.ts); serveStatic
  // sends the one the browser accepts, brotli first.
  app.use('*', serveStatic({ root: distDir, precompressed: true, index: '__no_directory_index__' }));
  // A missing hashed asset is a stale or broken build: say so, never answer it with the app page.
  app.get('/assets/*', (c) => c.text('Not found', 404));
  app.get('*', (c) => {
    c.header('Cache-Control', 'no-cache');
    c.header('Vary', 'Accept-Encoding');
    const encoding = preferredEncoding(c.req.header('Accept-Encoding'), indexPage);
    const compressed = encoding && indexPage[encoding];
    if (!encoding || !compressed) return c.html(indexPage.identity);
    c.header('Content-Type', 'text/html; charset=UTF-8');
    c.header('Content-Encoding', encoding);
    return c.body(new Uint8Array(compressed));
  });
  return app;
}

interface IndexPage {
  identity: string;
  br?: Buffer;
  gzip?: Buffer;
}

/** index.html with the compressed copies the build wrote beside it, read once at start. */
function readIndexPage(indexFile: string): IndexPage {
  const page: IndexPage = { identity: readFileSync(indexFile, 'utf8') };
  if (existsSync(`${indexFile}.br`)) page.br = readFileSync(`${indexFile}.br`);
  if (existsSync(`${indexFile}.gz`)) page.gzip = readFileSync(`${indexFile}.gz`);
  return page;
}

/** Brotli, else gzip, when the browser accepts it (q above 0) and the build wrote it. */
export function preferredEncoding(acceptEncoding: string | undefined, page: IndexPage): 'br' | 'gzip' | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';').map((s) => s.trim()))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q))
      .map(([name]) => name?.toLowerCase()),
  );
  if (page.br && accepted.has('br')) return 'br';
  if (page.gzip && accepted.has('gzip')) return 'gzip';
  return undefined;
}
