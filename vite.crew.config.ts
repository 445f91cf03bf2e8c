import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { crewServiceWorker, DASHBOARD_COMPRESSED } from './build/dashboard-plugins';
import { firstLoadFiles, type Manifest } from './build/first-load';
import { overBudget, precompress, sizeLine, sizesOnDisk, totalSizes, type BudgetedFile } from './build/sizes';

/*
 * The crew's app (docs/performance.md, The crew's phone): dashboard/crew.html and its entry,
 * dashboard/crew/main.tsx, built on their own after the office's app (package.json build:client)
 * into the same dist/dashboard, so a phone opening My days downloads one script holding React, the
 * query client, the signed-in frame and My days, and nothing of the office's (a build of both pages
 * together shared its modules out in some 30 files, each a round trip on a slow signal). The job
 * sheet and whatever is shown only later load on their own when needed. The service worker is built
 * here, last, so it precaches both apps.
 */
const OUT_DIR = fileURLToPath(new URL('./dist/dashboard', import.meta.url));
/** Its own manifest, beside the office's .vite/manifest.json (the server reads both). */
export const CREW_MANIFEST = '.vite/crew-manifest.json';

/**
 * What a crew member's phone downloads for My days: the page, its script and stylesheet (brotli).
 * Within 2 s on slow 4G (two round trips of 562.5 ms, then 1.44 Mbps) leaves room for about 80 kB;
 * My days as a page of the office's app was 150 kB in 24 files.
 */
const CREW_FIRST_LOAD_BROTLI_BUDGET = 95 * 1024;

/** Prints My days' first-load bytes on every build and fails it past the budget (CONVENTIONS 8). */
function crewFirstLoadReport(): Plugin {
  return {
    name: 'crew:first-load-report',
    apply: 'build',
    closeBundle() {
      const manifest = JSON.parse(readFileSync(join(OUT_DIR, CREW_MANIFEST), 'utf8')) as Manifest;
      const files = firstLoadFiles(manifest, 'crew.html');
      const crewLoad: BudgetedFile = {
        label: `crew first load (/my-days: ${files.length} files)`,
        sizes: totalSizes(files.map((file) => sizesOnDisk(join(OUT_DIR, file)))),
        budget: { encoding: 'brotli', bytes: CREW_FIRST_LOAD_BROTLI_BUDGET },
      };
      console.log(sizeLine(crewLoad));
      if (overBudget([crewLoad]).length > 0) {
        throw new Error(`The crew's app is over its size budget: ${files.join(', ')}. Look for zod, office pages or the job sheet in what dashboard/crew/main.tsx imports (dist/dashboard/${CREW_MANIFEST}).`);
      }
    },
  };
}

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
  plugins: [react(), tailwindcss(), precompress(OUT_DIR, DASHBOARD_COMPRESSED), crewFirstLoadReport(), crewServiceWorker()],
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
