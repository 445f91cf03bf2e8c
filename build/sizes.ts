import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Pre-compressed copies of built files (served as-is by the server, so no request pays
 * for compression) and the size report printed on every build (CONVENTIONS 8, after
 * Plausible's tracker/report-sizes.js). Used by the dashboard and the widget builds.
 */
export interface CompressedSizes {
  raw: number;
  gzip: number;
  brotli: number;
}

/** Writes `file.gz` and `file.br` beside `file` at the strongest settings and returns the sizes. */
export function compressBeside(file: string): CompressedSizes {
  const content = readFileSync(file);
  const gzip = gzipSync(content, { level: 9 });
  const brotli = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  writeFileSync(`${file}.gz`, gzip);
  writeFileSync(`${file}.br`, brotli);
  return { raw: content.length, gzip: gzip.length, brotli: brotli.length };
}

/** A build step writing `.gz` and `.br` beside every emitted file whose name matches `files` (source maps are never served). */
export function precompress(outDir: string, files: RegExp): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? outDir;
      for (const fileName of Object.keys(bundle)) {
        if (files.test(fileName)) compressBeside(join(dir, fileName));
      }
    },
  };
}

/** The sizes of a built file and the `.gz` and `.br` copies compressBeside wrote. */
export function sizesOnDisk(file: string): CompressedSizes {
  return { raw: statSync(file).size, gzip: statSync(`${file}.gz`).size, brotli: statSync(`${file}.br`).size };
}

export function totalSizes(all: CompressedSizes[]): CompressedSizes {
  return all.reduce((sum, s) => ({ raw: sum.raw + s.raw, gzip: sum.gzip + s.gzip, brotli: sum.brotli + s.brotli }), {
    raw: 0,
    gzip: 0,
    brotli: 0,
  });
}

export interface BudgetedFile {
  label: string;
  sizes: CompressedSizes;
  /** Largest size allowed, in bytes, in the encoding named. */
  budget: { encoding: 'gzip' | 'brotli'; bytes: number };
}

function kB(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} kB`;
}

function isOver({ sizes, budget }: BudgetedFile): boolean {
  return sizes[budget.encoding] > budget.bytes;
}

/** One report line: raw, gzip and brotli sizes against the budget. */
export function sizeLine(file: BudgetedFile): string {
  const { label, sizes, budget } = file;
  const verdict = isOver(file) ? 'OVER BUDGET' : 'ok';
  return `${label}: ${kB(sizes.raw)} raw, ${kB(sizes.gzip)} gzip, ${kB(sizes.brotli)} brotli (${sizes[budget.encoding]} ${budget.encoding} bytes, budget ${budget.bytes}): ${verdict}`;
}

export function overBudget(files: BudgetedFile[]): BudgetedFile[] {
  return files.filter(isOver);
}
