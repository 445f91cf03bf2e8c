import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressBeside, overBudget, sizeLine, totalSizes, type BudgetedFile } from './sizes';

describe('compressBeside', () => {
  it('writes .br and .gz copies that decode to the file, and returns the three sizes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'treeanalyzer-sizes-'));
    try {
      const file = join(dir, 'page.js');
      const content = 'export const page = "login";\n'.repeat(100);
      writeFileSync(file, content);
      const sizes = compressBeside(file);
      expect(sizes.raw).toBe(content.length);
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(content);
      expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(content);
      expect(sizes.brotli).toBe(readFileSync(`${file}.br`).length);
      expect(sizes.gzip).toBe(readFileSync(`${file}.gz`).length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the size budget', () => {
  const firstLoad = (brotli: number): BudgetedFile => ({
    label: 'dashboard first load',
    sizes: totalSizes([
      { raw: 1000, gzip: 400, brotli: brotli - 100 },
      { raw: 500, gzip: 200, brotli: 100 },
    ]),
    budget: { encoding: 'brotli', bytes: 120 * 1024 },
  });

  it('adds the files of a page together', () => {
    expect(firstLoad(5000).sizes).toEqual({ raw: 1500, gzip: 600, brotli: 5000 });
  });

  it('holds a page to its budget in the encoding named, the byte at the limit included', () => {
    expect(overBudget([firstLoad(120 * 1024)])).toEqual([]);
    expect(overBudget([firstLoad(120 * 1024 + 1)]).map((f) => f.label)).toEqual(['dashboard first load']);
    expect(sizeLine(firstLoad(120 * 1024 + 1))).toMatch(/122881 brotli bytes, budget 122880\): OVER BUDGET$/);
    expect(sizeLine(firstLoad(1000))).toMatch(/: ok$/);
  });
});
