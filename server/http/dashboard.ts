import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { dashboardHeaders } from './security-headers';
import { SESSION_HINT_COOKIE } from './session';

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
  const crewPage = crewIndexPage(distDir, indexPage.identity);
  // Source maps are built for operators (docs/performance.md, Front-end size) and never served. Lighthouse's
  // valid-source-maps audit (weight 0 in best practices) only asks for maps of first-party
  // scripts over 500 KiB, and the production entry is about 270 kB, so nothing is lost by it.
  // Nor is anything hidden in the build folder (the build's .vite/manifest.json, which the crew's
  // page is made from): a path with a part starting with a dot is not the app's.
  app.get('*', async (c, next) => (c.req.path.endsWith('.map') || c.req.path.includes('/.') ? c.text('Not found', 404) : next()));
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
    const page = crewPage && opensMyDays(c.req.path, c.req.header('Cookie')) ? crewPage : indexPage;
    const encoding = preferredEncoding(c.req.header('Accept-Encoding'), page);
    const compressed = encoding && page[encoding];
    if (!encoding || !compressed) return c.html(page.identity);
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

/** The session hint cookie: it says only that a session cookie exists. */
const SESSION_HINT = new RegExp(`(?:^|;\\s*)${SESSION_HINT_COOKIE}=1(?:;|$)`);

/** A signed-in phone opening My days (the crew's home, the installed app's start page). */
function opensMyDays(path: string, cookie: string | undefined): boolean {
  return path === '/my-days' && SESSION_HINT.test(cookie ?? '');
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * The app page for a signed-in /my-days (docs/performance.md, The crew's phone): the same page, with
 * the crew's code (dashboard/crew/index.ts and every chunk it imports, from the build's manifest)
 * and its two reads (who is signed in, My days) asked for beside the entry, in the page's own
 * round trip rather than one or two after it: on a slow signal each is over half a second. No data
 * is in it, so it is the same for everyone and cached like the app page. The reads are fetched
 * exactly as dashboard/api/early-reads.ts fetches them (same URL, mode and credentials, no extra
 * headers), so the browser hands the preloaded answers to those fetches.
 */
function crewIndexPage(distDir: string, indexHtml: string): IndexPage | undefined {
  const manifestFile = join(distDir, '.vite/manifest.json');
  if (!existsSync(manifestFile)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  if (!manifest['crew/index.ts'] || !manifest['index.html']) return undefined;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('crew/index.ts');
  const links = [
    '<link rel="preload" as="fetch" crossorigin href="/api/auth/me">',
    '<link rel="preload" as="fetch" crossorigin href="/api/my-days">',
    ...[...files].filter((file) => !indexHtml.includes(`/${file}"`)).map((file) => (file.endsWith('.css') ? `<link rel="stylesheet" crossorigin href="/${file}">` : `<link rel="modulepreload" crossorigin href="/${file}">`)),
  ];
  if (!indexHtml.includes('</head>')) return undefined;
  const identity = indexHtml.replace('</head>', `${links.join('\n    ')}\n  </head>`);
  return { identity, br: brotliCompressSync(identity), gzip: gzipSync(identity) };
}
