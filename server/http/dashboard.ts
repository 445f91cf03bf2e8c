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
  const indexHtml = readFileSync(indexFile, 'utf8');
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  app.use('*', serveStatic({ root: distDir, precompressed: true, index: '__no_directory_index__' }));
  // A missing hashed asset is a stale or broken build: say so, never answer it with the app page.
  app.get('/assets/*', (c) => c.text('Not found', 404));
  app.get('*', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(indexHtml);
  });
  return app;
}
