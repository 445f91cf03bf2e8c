import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';
import { firstLoadBudget } from './build/first-load';
import { DASHBOARD_COMPRESSED } from './build/dashboard-plugins';
import { precompress } from './build/sizes';

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

export default defineConfig({
  root: 'dashboard',
  plugins: [react(), tailwindcss(), precompress(OUT_DIR, DASHBOARD_COMPRESSED), firstLoadBudget({
      outDir: OUT_DIR,
      manifest: '.vite/manifest.json',
      page: 'index.html',
      label: 'dashboard first load (/login',
      brotliBytes: FIRST_LOAD_BROTLI_BUDGET,
      advice: 'Look for Stripe, zod, react-hook-form, report or history code or development React in the entry',
    })],
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    // What /login imports statically in one chunk ('$initial'), not shared out with the signed-in
    // pages' chunks into a dozen small files, each a request before the sign-in screen shows.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } } },
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
