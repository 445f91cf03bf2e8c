import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Hono, type Context } from 'hono';
import { CREW_HOME_HEADER } from '../../core/crew-home';
import type { AppEnv } from './context';
import { crewHomePage, firstViewRenderer } from './crew-home';
import { dashboardHeaders } from './security-headers';
import { SESSION_HINT_COOKIE } from './session';

/** Built by `npm run build` (vite.dashboard.config.ts); resolved from this file, not the cwd. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../dist/dashboard', import.meta.url));

/**
 * Serves the built SPA: hashed assets with a year's cache, and index.html (never cached)
 * for every other path, so deep links such as /settings load the app and unknown paths
 * reach its "404 Page Not Found" screen.
 */
/**
 * My days' first view for the server (vite.crew.config.ts FIRST_VIEW_DIR): built beside the
 * dashboard's folder, never inside it, since everything in that folder is served.
 */
export function firstViewFileBeside(distDir: string): string {
  return join(distDir, '..', 'crew-first-view', 'first-view.js');
}

export interface DashboardOptions {
  stripe: boolean;
  /**
   * Load My days' first view now, not on the first phone's visit (the module holds React's
   * server renderer: about 0.3 s of CPU). main.ts does; a test server loads it only when a crew
   * home is asked for, so the suite's hundreds of servers do not each load it.
   */
  warmFirstView?: boolean;
  /** Told once when the first view's build is there but cannot be loaded. */
  onFirstViewError?: (err: unknown) => void;
}

export function dashboardRoutes(distDir = DASHBOARD_DIST, options: DashboardOptions = { stripe: false }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const firstView = firstViewRenderer(firstViewFileBeside(distDir), options.onFirstViewError);
  if (options.warmFirstView) void firstView();
  const indexFile = join(distDir, 'index.html');
  const crew = existsSync(indexFile) ? crewPages(distDir) : undefined;
  app.use('*', dashboardHeaders({ stripe: options.stripe }));
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
  // Nor is anything hidden in the build folder (the builds' .vite/ manifests): a path with a part
  // starting with a dot is not the app's.
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
  app.get('*', async (c) => {
    const crewPage = crew && opensCrewApp(c.req.path, c.req.header('Cookie'));
    let page = crew && crewPage ? crew[crewPage] : indexPage;
    const render = crew && crewPage === 'home' ? await firstView() : undefined;
    if (crew && render) {
      // The person's own My days in the page: kept by no cache but the phone's service worker.
      const home = await crewHomePage(c, crew.homeTemplate, render);
      if (home !== undefined) {
        c.header('Cache-Control', 'no-store');
        c.header('Vary', 'Cookie, Accept-Encoding');
        c.header(CREW_HOME_HEADER.name, CREW_HOME_HEADER.value);
        return sendPage(c, home);
      }
      if (!c.get('user')) page = indexPage;
    }
    c.header('Cache-Control', 'no-cache');
    c.header('Vary', 'Accept-Encoding');
    const encoding = preferredEncoding(c.req.header('Accept-Encoding'), page);
    const compressed = encoding && page[encoding];
    if (!encoding || !compressed) return c.html(page.identity);
    c.header('Content-Type', 'text/html; charset=UTF-8');
    c.header('Content-Encoding', encoding);
    return c.body(new Uint8Array(compressed));
  });
  return app;
}

/** A page made for this request, compressed as the browser accepts (brotli at a quick setting, else gzip). */
function sendPage(c: Context, html: string): Response {
  const accepts = c.req.header('Accept-Encoding') ?? '';
  const encoding = preferredEncoding(accepts, { identity: html, br: Buffer.alloc(0), gzip: Buffer.alloc(0) });
  if (!encoding) return c.html(html);
  c.header('Content-Type', 'text/html; charset=UTF-8');
  c.header('Content-Encoding', encoding);
  const body = encoding === 'br' ? brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(html);
  return c.body(new Uint8Array(body));
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

/** A signed-in phone opening My days (the crew's home, the installed app's start page) or a job sheet. */
function opensCrewApp(path: string, cookie: string | undefined): 'home' | 'sheet' | undefined {
  if (!SESSION_HINT.test(cookie ?? '')) return undefined;
  if (path === '/my-days') return 'home';
  return /^\/my-days\/jobs\/[^/]+$/.test(path) ? 'sheet' : undefined;
}

interface CrewPages {
  /** My days without the first view (its code not built): its two reads asked for at its top. */
  home: IndexPage;
  /** What the first view is put in (crew-home.ts). */
  homeTemplate: string;
  sheet: IndexPage;
}

const pageOf = (identity: string): IndexPage => ({ identity, br: brotliCompressSync(identity), gzip: gzipSync(identity) });

/**
 * The crew's app page (dashboard/crew.html, built by vite.crew.config.ts; docs/performance.md, The
 * crew's phone) for a signed-in phone: one script and one stylesheet rather than the office's app.
 * My days has its stylesheet inside it, so the first view the server draws in it (crew-home.ts)
 * shows as the page arrives, without a round trip for the styles (over half a second on slow 4G).
 * Without that view, My days' copy asks for its two reads (who is signed in, My days) at its top,
 * fetched exactly as dashboard/api/early-reads.ts fetches them (same URL, mode and credentials, no
 * extra headers), so the browser hands the preloaded answers to those fetches.
 */
function crewPages(distDir: string): CrewPages | undefined {
  const file = join(distDir, 'crew.html');
  if (!existsSync(file)) return undefined;
  const page = readFileSync(file, 'utf8');
  const style = /<link rel="stylesheet" crossorigin href="\/(assets\/[\w.-]+\.css)">/.exec(page);
  if (!style || !page.includes('</title>')) return undefined;
  const css = readFileSync(join(distDir, style[1]!), 'utf8').replaceAll('</style', '<\\/style');
  const homeTemplate = page.replace(style[0], () => `<style>${css}</style>`);
  const preloads = ['/api/auth/me', '/api/my-days'].map((path) => `<link rel="preload" as="fetch" crossorigin href="${path}">`).join('\n    ');
  return { sheet: pageOf(page), homeTemplate, home: pageOf(homeTemplate.replace('</title>', `</title>\n    ${preloads}`)) };
}
