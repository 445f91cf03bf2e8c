import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import { canonicalOrigin, ELEMENT_TAG } from '../../core/embed';
import { findBusinessBySlug } from '../businesses/businesses';
import type { AppEnv } from './context';

/** Built by `npm run build` (vite.widget.config.ts); resolved from this file, not the cwd. */
export const WIDGET_DIST = fileURLToPath(new URL('../../dist/widget', import.meta.url));

/** The estimator's entry file as Vite's manifest names it, e.g. "assets/estimator-Ab12.js". */
export function estimatorEntry(distDir: string): string | null {
  const manifestFile = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; isEntry?: boolean }>;
  return Object.values(manifest).find((chunk) => chunk.isEntry)?.file ?? null;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The minimal /embed/{slug} page: no dashboard code, no chat, only the element (docs/product.md, Embed widget). */
function embedPage(slug: string, title: string, entry: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>html,body{margin:0;padding:0;background:transparent}</style>
<link rel="modulepreload" href="/widget/${escapeHtml(entry)}">
</head>
<body>
<${ELEMENT_TAG} slug="${escapeHtml(slug)}" frame></${ELEMENT_TAG}>
<script type="module" src="/widget/${escapeHtml(entry)}"></script>
</body>
</html>`;
}

/**
 * The embed page may be framed by the business's listed site origins only, or by any
 * site when it lists none (docs/product.md, Embed widget). Everything else about it is as
 * locked down as the dashboard: own scripts, own API, no plug-ins, no forms elsewhere.
 *
 * Only entries that are exact origins by today's rule (core/embed.ts canonicalOrigin) are
 * written: a list saved under an older, looser rule may hold `https://*.example.com` or
 * `https://a.com;script-src`, a wildcard or a new directive here. A list with entries but none
 * valid means the owner wanted it limited, so it becomes 'none', never "any site".
 */
export function embedPageCsp(allowedOrigins: string[]): string {
  const exact = allowedOrigins.filter((entry) => canonicalOrigin(entry) === entry);
  const ancestors = exact.length > 0 ? exact.join(' ') : allowedOrigins.length > 0 ? "'none'" : '*';
  return [
    "default-src 'none'",
    "script-src 'self'",
    // The element writes its compiled stylesheet into its shadow root as a <style>.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

/** Hashed, immutable files any site may load (CONVENTIONS 7: CORS and CORP cross-origin). */
function crossOriginAsset(cacheControl: string) {
  return async (c: Context<AppEnv>, next: () => Promise<void>) => {
    await next();
    if (c.res.status !== 200) return;
    c.header('Cache-Control', cacheControl);
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    c.header('X-Content-Type-Options', 'nosniff');
  };
}

/**
 * widget.js (the small loader at a stable address, so hosts pick up new versions within
 * minutes), the estimator bundle under /widget/assets/ (hashed names, cached a year), and
 * the /embed/{slug} page. Mounted before the dashboard, which would answer every path.
 */
export function widgetRoutes(distDir = WIDGET_DIST): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const notBuilt = (c: Context) => c.text('The widget has not been built yet. Run `npm run build`.', 503);

  app.use('/widget.js', crossOriginAsset('public, max-age=300, stale-while-revalidate=86400'));
  app.use('/widget/assets/*', crossOriginAsset('public, max-age=31536000, immutable'));
  app.use(
    '/widget.js',
    serveStatic({ root: distDir, precompressed: true }),
  );
  app.use(
    '/widget/assets/*',
    serveStatic({ root: distDir, precompressed: true, rewriteRequestPath: (path) => path.replace(/^\/widget/, '') }),
  );
  app.get('/widget.js', notBuilt);
  app.get('/widget/*', (c) => c.text('Not found', 404));

  // Read once: the build does not change under a running server.
  let entry: string | null | undefined;
  app.get('/embed/:slug', (c) => {
    entry ??= estimatorEntry(distDir);
    const slug = c.req.param('slug');
    const business = /^[a-z0-9-]{1,60}$/.test(slug) ? findBusinessBySlug(c.var.deps.db, slug) : undefined;
    c.header('Content-Security-Policy', embedPageCsp(business?.allowedOrigins ?? []));
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    c.header('Cache-Control', 'no-cache');
    if (!entry) return notBuilt(c);
    const title = business ? `${business.name}: tree work estimate` : 'Tree work estimator';
    // An unknown slug still gets the page: the element shows "Business configuration not found".
    return c.html(embedPage(slug, title, entry), business ? 200 : 404);
  });
  return app;
}
