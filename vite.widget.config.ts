import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { shadowCssPlugin } from './widget/build/shadow-css-plugin';
import { overBudget, precompress, sizeLine, type BudgetedFile } from './build/sizes';

/**
 * The embeddable estimator, in two runs of this config (see "build" in package.json):
 *
 * 1. `vite build --config vite.widget.config.ts`: the <tree-estimator> element as one ES
 *    module with its CSS inlined, dist/widget/assets/estimator-[hash].js, immutable and
 *    cacheable forever. Its path is in dist/widget/.vite/manifest.json under
 *    ESTIMATOR_ENTRY; the server reads it there for /embed/{slug}.
 * 2. `... --mode loader`: widget.js, the small IIFE host pages include, with that hashed
 *    path baked in; then the size report, failing the build past either budget.
 */
const OUT_DIR = 'dist/widget';
/** The manifest key of the estimator entry (the server looks it up by this name). */
export const ESTIMATOR_ENTRY = 'widget/estimator.tsx';
const MANIFEST = join(OUT_DIR, '.vite/manifest.json');
/** The server serves dist/widget/assets/* at /widget/assets/*. */
const PUBLIC_PREFIX = '/widget/';

/** Budgets in gzip bytes: the estimator (JS with its CSS) and the loader, like Plausible's 2.7 kB tracker. */
const ESTIMATOR_BUDGET = 95 * 1024;
const LOADER_BUDGET = 3 * 1024;
/** Each chunk loaded only when used (questions, measuring): small enough that a tap never waits long on a phone. */
const LAZY_CHUNK_BUDGET = 30 * 1024;

/** Its scripts and stylesheets, each with a .gz and .br beside it. */
const COMPRESSED = /\.(js|css)$/;

function estimatorFile(): string {
  if (!existsSync(MANIFEST)) {
    throw new Error(`${MANIFEST} is missing: build the estimator first (vite build --config vite.widget.config.ts).`);
  }
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, { file?: string }>;
  const file = manifest[ESTIMATOR_ENTRY]?.file;
  if (!file) throw new Error(`${MANIFEST} has no "${ESTIMATOR_ENTRY}" entry.`);
  return file;
}

/** The estimator's other scripts (dynamic imports), as paths under OUT_DIR. */
function lazyChunks(estimator: string): string[] {
  const dir = join(OUT_DIR, 'assets');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js') && `assets/${name}` !== estimator)
    .map((name) => `assets/${name}`);
}

function sizesOf(file: string) {
  return { raw: statSync(file).size, gzip: statSync(`${file}.gz`).size, brotli: statSync(`${file}.br`).size };
}

/** Prints both files' sizes on every build and fails it past a budget (CONVENTIONS 8). */
function sizeReport(estimator: string): Plugin {
  return {
    name: 'tree-estimator:size-report',
    apply: 'build',
    closeBundle() {
      const files: BudgetedFile[] = [
        { label: 'widget.js (loader)', sizes: sizesOf(join(OUT_DIR, 'widget.js')), budget: { encoding: 'gzip', bytes: LOADER_BUDGET } },
        {
          label: `widget.js estimator bundle ${estimator}`,
          sizes: sizesOf(join(OUT_DIR, estimator)),
          budget: { encoding: 'gzip', bytes: ESTIMATOR_BUDGET },
        },
      ];
      for (const chunk of lazyChunks(estimator)) {
        files.push({ label: `lazy chunk ${chunk}`, sizes: sizesOf(join(OUT_DIR, chunk)), budget: { encoding: 'gzip', bytes: LAZY_CHUNK_BUDGET } });
      }
      for (const file of files) console.log(sizeLine(file));
      const over = overBudget(files);
      if (over.length > 0) {
        throw new Error(`Over the size budget: ${over.map((f) => f.label).join(', ')}. Look for zod, a whole icon set or development React in the bundle.`);
      }
    },
  };
}

function estimatorConfig(): UserConfig {
  return {
    plugins: [react(), tailwindcss(), shadowCssPlugin(/\/widget\/styles\.css(\?|$)/), precompress(OUT_DIR, COMPRESSED)],
    // React's production build, whatever NODE_ENV the shell has (lib and app builds alike).
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    // Nothing is fetched relative to the host page: one self-contained module.
    base: './',
    publicDir: false,
    build: {
      outDir: OUT_DIR,
      emptyOutDir: true,
      manifest: true,
      modulePreload: false,
      target: 'es2022',
      rolldownOptions: {
        input: ESTIMATOR_ENTRY,
        // The first chunk holds everything up to the photo; what only some visitors use (the
        // questions' pictures and species list, measuring on the photo) loads when first used.
        output: { entryFileNames: 'assets/estimator-[hash].js', chunkFileNames: 'assets/[name]-[hash].js' },
      },
    },
  };
}

function loaderConfig(): UserConfig {
  const estimator = estimatorFile();
  return {
    // Vite's own file list would repeat the report's widget.js line.
    logLevel: 'warn',
    plugins: [precompress(OUT_DIR, COMPRESSED), sizeReport(estimator)],
    define: { __ESTIMATOR_PATH__: JSON.stringify(PUBLIC_PREFIX + estimator) },
    publicDir: false,
    build: {
      outDir: OUT_DIR,
      emptyOutDir: false,
      target: 'es2020',
      minify: true,
      lib: { entry: 'widget/loader.ts', formats: ['iife'], name: 'TreeEstimatorLoader', fileName: () => 'widget.js' },
    },
  };
}

export default defineConfig(({ mode }) => (mode === 'loader' ? loaderConfig() : estimatorConfig()));
