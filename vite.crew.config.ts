import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import { crewServiceWorker, DASHBOARD_COMPRESSED } from './build/dashboard-plugins';
import { firstLoadBudget } from './build/first-load';
import { precompress } from './build/sizes';

/*
 * The crew's app (docs/performance.md, The crew's phone): dashboard/crew.html and its entry,
 * dashboard/crew/main.tsx, built on their own after the office's app (package.json build:client)
 * into the same dist/dashboard, so a phone opening My days downloads one script holding React, the
 * query client, the signed-in frame and My days, and nothing of the office's (a build of both pages
 * together shared its modules out in some 24 files, each a round trip on a slow signal). The job
 * sheet and whatever is shown only later load on their own when needed. The service worker is built
 * here, last, so it precaches both apps.
 */
const OUT_DIR = fileURLToPath(new URL('./dist/dashboard', import.meta.url));
/** Its own manifest, beside the office's .vite/manifest.json (for the size report). */
export const CREW_MANIFEST = '.vite/crew-manifest.json';

/**
 * What a crew member's phone downloads for My days: the page, its script and stylesheet (brotli).
 * 91 kB when built; My days as a page of the office's app was 150 kB in 24 files. The server draws
 * My days in the page before this arrives (docs/performance.md, The crew's phone).
 */
const CREW_FIRST_LOAD_BROTLI_BUDGET = 95 * 1024;

/** Where the server finds the first view's code (server/http/crew-home.ts): apart from dist/dashboard, which is served. */
export const FIRST_VIEW_DIR = 'dist/crew-first-view';

/**
 * `--mode first-view`: My days' first view (dashboard/crew/first-view.tsx) as one module for the
 * server, with React and everything it imports inside it, so the server needs nothing more at run time.
 */
const firstView: UserConfig = {
  root: 'dashboard',
  plugins: [react()],
  ssr: { noExternal: true },
  publicDir: false,
  build: {
    ssr: 'crew/first-view.tsx',
    outDir: fileURLToPath(new URL(`./${FIRST_VIEW_DIR}`, import.meta.url)),
    emptyOutDir: true,
    sourcemap: 'hidden',
    rolldownOptions: { output: { entryFileNames: 'first-view.js' } },
  },
};

const crewApp: UserConfig = {
  root: 'dashboard',
  plugins: [react(), tailwindcss(), precompress(OUT_DIR, DASHBOARD_COMPRESSED), firstLoadBudget({
      outDir: OUT_DIR,
      manifest: CREW_MANIFEST,
      page: 'crew.html',
      label: 'crew first load (/my-days',
      brotliBytes: CREW_FIRST_LOAD_BROTLI_BUDGET,
      advice: 'Look for zod, office pages or the job sheet in what dashboard/crew/main.tsx imports',
    }), crewServiceWorker()],
  build: {
    outDir: OUT_DIR,
    // The office's app is already there (vite.dashboard.config.ts empties the folder first).
    emptyOutDir: false,
    manifest: CREW_MANIFEST,
    sourcemap: 'hidden',
    rolldownOptions: {
      input: fileURLToPath(new URL('./dashboard/crew.html', import.meta.url)),
      // Everything the page imports statically in one chunk ('$initial'), not shared out with the
      // chunks loaded later: one request on the phone's slow signal rather than one per shared piece.
      output: { codeSplitting: { groups: [{ name: 'crew-app', tags: ['$initial'] }] } },
    },
  },
};

export default defineConfig(({ mode }) => (mode === 'first-view' ? firstView : crewApp));
