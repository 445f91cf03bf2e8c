import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { overBudget, sizeLine, sizesOnDisk, totalSizes, type BudgetedFile } from './sizes';

/**
 * What a browser downloads to render /login: index.html, the entry module with every
 * module it imports statically (transitively), and their CSS, read from Vite's manifest
 * (https://vite.dev/guide/backend-integration). Dynamic imports (the signed-in pages)
 * are left out: a guest never fetches them.
 */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/**
 * Files, relative to the build folder, starting with the HTML page itself. `lazy` names
 * dynamically imported chunks a page also needs before it shows (e.g. 'pages/home.tsx'
 * for the signed-in home page), taken with their own static imports.
 */
export function firstLoadFiles(manifest: Manifest, entry = 'index.html', lazy: string[] = []): string[] {
  const files = new Set<string>([entry]);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The Vite manifest has no "${key}" chunk.`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  for (const key of lazy) visit(key);
  return [...files];
}

/**
 * A build step that prints what `page` puts on the wire before it can render (the page and the
 * files it imports statically, from the build's manifest in `outDir`) and fails the build past
 * `brotliBytes` (CONVENTIONS 8). `advice` says where to look when it does.
 */
export function firstLoadBudget(options: { outDir: string; manifest: string; page: string; label: string; brotliBytes: number; advice: string }): Plugin {
  return {
    name: `first-load-budget:${options.page}`,
    apply: 'build',
    closeBundle() {
      const manifest = JSON.parse(readFileSync(join(options.outDir, options.manifest), 'utf8')) as Manifest;
      const files = firstLoadFiles(manifest, options.page);
      const firstLoad: BudgetedFile = {
        label: `${options.label}: ${files.length} files)`,
        sizes: totalSizes(files.map((file) => sizesOnDisk(join(options.outDir, file)))),
        budget: { encoding: 'brotli', bytes: options.brotliBytes },
      };
      console.log(sizeLine(firstLoad));
      if (overBudget([firstLoad]).length > 0) throw new Error(`Over the size budget: ${files.join(', ')}. ${options.advice} (${options.manifest}).`);
    },
  };
}
