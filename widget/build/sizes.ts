import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Pre-compressed copies of the widget's files (served as-is by the server, so no request
 * pays for compression) and the size report printed on every build (CONVENTIONS 8, after
 * Plausible's tracker/report-sizes.js).
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

export interface BudgetedFile {
  label: string;
  sizes: CompressedSizes;
  /** Largest gzip size allowed, in bytes. */
  gzipBudget: number;
}

function kB(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} kB`;
}

/** One report line: raw, gzip and brotli sizes against the gzip budget. */
export function sizeLine({ label, sizes, gzipBudget }: BudgetedFile): string {
  const verdict = sizes.gzip > gzipBudget ? 'OVER BUDGET' : 'ok';
  return `${label}: ${kB(sizes.raw)} raw, ${kB(sizes.gzip)} gzip (${sizes.gzip} bytes, budget ${gzipBudget}), ${kB(sizes.brotli)} brotli: ${verdict}`;
}

export function overBudget(files: BudgetedFile[]): BudgetedFile[] {
  return files.filter((file) => file.sizes.gzip > file.gzipBudget);
}
