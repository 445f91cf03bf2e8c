import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { CREW_API_CACHE, CREW_PHOTO_CACHE } from './dashboard/api/saved-answers';
import { firstLoadFiles, type Manifest } from './build/first-load';
import { compressBeside, overBudget, sizeLine, sizesOnDisk, totalSizes, type BudgetedFile } from './build/sizes';

// The dashboard SPA: built into dist/dashboard and served by the Hono server for every
// non-API path. In `npm run dev`, API calls are proxied to the server on :3000.
// `npm run build` runs this with NODE_ENV=production (package.json), so React's
// production build ships whatever the shell's NODE_ENV is.
const OUT_DIR = fileURLToPath(new URL('./dist/dashboard', import.meta.url));

/**
 * What /login may put on the wire (HTML, JS and CSS, brotli), enforced on every build
 * (the goal is under 120 kB; docs/performance.md, Front-end size). The production build before the split was 132 kB here,
 * at Lighthouse mobile 87; with the signed-in pages, zod and react-hook-form out of the
 * guest path it is 85 kB, so the budget sits at 100 kB to keep that gain. kB are 1024
 * bytes, as in the widget's budgets and the report.
 */
const FIRST_LOAD_BROTLI_BUDGET = 100 * 1024;

/**
 * What a crew member's phone downloads for My days (the entry, the signed-in frame and the crew's
 * own chunk, dashboard/crew/index.ts, apart from every office page): 150 kB brotli when the crew's
 * screens were built, so the budget keeps them from growing by more than a little unnoticed
 * (docs/performance.md, The crew's phone).
 */
const CREW_FIRST_LOAD_BROTLI_BUDGET = 160 * 1024;

/** .gz and .br beside every emitted page, script, stylesheet and SVG (source maps are not served). */
function precompress(): Plugin {
  return {
    name: 'dashboard:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? OUT_DIR;
      for (const fileName of Object.keys(bundle)) {
        if (/\.(html|js|css|svg)$/.test(fileName)) compressBeside(join(dir, fileName));
      }
    },
  };
}

/** Prints /login's first-load bytes on every build and fails it past the budget (CONVENTIONS 8). */
function firstLoadReport(): Plugin {
  return {
    name: 'dashboard:first-load-report',
    apply: 'build',
    closeBundle() {
      const manifest = JSON.parse(readFileSync(join(OUT_DIR, '.vite/manifest.json'), 'utf8')) as Manifest;
      const files = firstLoadFiles(manifest);
      const firstLoad: BudgetedFile = {
        label: `dashboard first load (/login: ${files.length} files)`,
        sizes: totalSizes(files.map((file) => sizesOnDisk(join(OUT_DIR, file)))),
        budget: { encoding: 'brotli', bytes: FIRST_LOAD_BROTLI_BUDGET },
      };
      const crewFiles = firstLoadFiles(manifest, 'index.html', ['crew/index.ts']);
      const crewLoad: BudgetedFile = {
        label: `crew first load (/my-days: ${crewFiles.length} files)`,
        sizes: totalSizes(crewFiles.map((file) => sizesOnDisk(join(OUT_DIR, file)))),
        budget: { encoding: 'brotli', bytes: CREW_FIRST_LOAD_BROTLI_BUDGET },
      };
      console.log(sizeLine(firstLoad));
      console.log(sizeLine(crewLoad));
      if (overBudget([crewLoad]).length > 0) {
        throw new Error(`The crew's screens are over their size budget: ${crewFiles.join(', ')}. Look for office code in dashboard/crew (dist/dashboard/.vite/manifest.json).`);
      }
      if (overBudget([firstLoad]).length > 0) {
        throw new Error(
          `Over the size budget: ${files.join(', ')}. Look for Stripe, zod, react-hook-form, report or history code or development React in the entry (dist/dashboard/.vite/manifest.json).`,
        );
      }
    },
  };
}

/** `npm run dev`'s API server (server/main.ts on its default PORT, with no PUBLIC_URL). */
const DEV_API = 'http://localhost:3000';

/**
 * In `npm run dev` the pages come from this dev server (http://localhost:5173), so the browser's
 * Origin is this server's, which the API's same-origin check (server/http/public-access.ts) does
 * not take: it trusts PUBLIC_URL, or without one the loopback forms of its own port, never the
 * Host header. A page of this dev server is one of ours, so its Origin is passed on as the API's,
 * as a same-origin reverse proxy would present it. Only an Origin naming this very server is
 * rewritten; Vite checks the Host header first (server.allowedHosts), so a rebinding name never
 * gets this far, and other sites' origins pass unchanged and are refused.
 */
const asOwnPage: NonNullable<ProxyOptions['configure']> = (proxy) => {
  proxy.on('proxyReq', (proxyReq, req) => {
    if (req.headers.origin !== undefined && req.headers.origin === `http://${req.headers.host}`) proxyReq.setHeader('origin', DEV_API);
  });
};

/** A week and a day: the crew's answers kept for the next 7 days' jobs after one visit with signal. */
const KEEP_SECONDS = 8 * 24 * 60 * 60;

/**
 * The crew's installable web app (docs/product.md, The crew's day, On a phone, with or without
 * signal): a manifest, and a Workbox service worker that precaches the app (every built page, script,
 * stylesheet and icon, so each screen opens without signal) and keeps the crew's reads as they are
 * fetched: who is signed in, My days, and each job's sheet, site check, photos and pictures. The
 * crew's screens register it (dashboard/crew/crew-frame.tsx); the changes made without signal wait
 * in IndexedDB, not here (dashboard/crew/outbox.ts), since Safari has no Background Sync.
 */
function crewApp(): Plugin[] {
  return VitePWA({
    injectRegister: false,
    registerType: 'autoUpdate',
    includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
    manifest: {
      name: 'TreeAnalyzer Pro: My days',
      short_name: 'My days',
      description: 'The crew\u2019s days, job sheets and site checks, with or without signal.',
      start_url: '/my-days',
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      background_color: '#fafaf9',
      theme_color: '#14532d',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      // The widget's files are the customer's, built apart (vite.widget.config.ts).
      globIgnores: ['**/node_modules/**', 'widget*', 'embed*'],
      navigateFallback: 'index.html',
      navigateFallbackDenylist: [/^\/api\//, /^\/embed\//, /^\/widget/, /\.(pdf|js|css|png|svg|map)$/],
      cleanupOutdatedCaches: true,
      clientsClaim: true,
      skipWaiting: true,
      runtimeCaching: [
        {
          // Who is signed in: the network when it answers within half a second, else the kept copy,
          // so a phone on a slow signal opens My days from the phone (a 401 on any call still signs out).
          urlPattern: ({ url, sameOrigin: same }) => same && url.pathname === '/api/auth/me',
          handler: 'NetworkFirst',
          options: { cacheName: CREW_API_CACHE, networkTimeoutSeconds: 0.5, expiration: { maxAgeSeconds: KEEP_SECONDS }, cacheableResponse: { statuses: [200] } },
        },
        {
          urlPattern: ({ url, sameOrigin: same }) => same && (url.pathname === '/api/my-days' || /^\/api\/jobs\/\d+\/(sheet|site-check|photos)$/.test(url.pathname)),
          handler: 'NetworkFirst',
          options: { cacheName: CREW_API_CACHE, networkTimeoutSeconds: 6, expiration: { maxEntries: 200, maxAgeSeconds: KEEP_SECONDS }, cacheableResponse: { statuses: [200] } },
        },
        {
          // The sheet's pictures (the trees' and the job's photos): fetched with Accept image/* when kept for offline.
          urlPattern: ({ url, request, sameOrigin: same }) => same && url.pathname.startsWith('/api/') && (request.destination === 'image' || (request.headers.get('Accept') ?? '').startsWith('image/')),
          handler: 'CacheFirst',
          options: { cacheName: CREW_PHOTO_CACHE, expiration: { maxEntries: 300, maxAgeSeconds: KEEP_SECONDS }, cacheableResponse: { statuses: [200] } },
        },
      ],
    },
  });
}

export default defineConfig({
  root: 'dashboard',
  plugins: [react(), tailwindcss(), precompress(), firstLoadReport(), crewApp()],
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    manifest: true,
    // Built for operators (dist/dashboard/assets/*.map, see docs/performance.md, Front-end size), never linked from the
    // bundles and never served (server/http/dashboard.ts answers *.map with 404).
    sourcemap: 'hidden',
  },
  server: {
    proxy: {
      // Only real API calls go to the server: the dashboard's own dashboard/api/*.ts modules share the prefix.
      '^/api/(?!.*\\.tsx?(\\?|$))': { target: DEV_API, configure: asOwnPage },
      // The embedded estimator's page and script are the server's, not the SPA's, so Preview works in dev too.
      '/embed/': 'http://localhost:3000',
      '^/widget(\\.js|/)': 'http://localhost:3000',
    },
  },
});
