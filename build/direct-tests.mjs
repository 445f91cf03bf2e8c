// Which tests `npm run test:changed` runs for a list of changed files (build/test-changed.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/** A git command's output, trimmed. */
export const git = (...args) => spawnSync('git', args, { encoding: 'utf8' }).stdout.trim();

/** The test files that test one of `files` directly (see above), in the folders vitest runs. */
export function directTests(files) {
  const isTest = (file) => /\.test\.tsx?$/.test(file);
  const stem = (file) => file.replace(/\.(ts|tsx|mjs|js)$/, '').replace(/\/index$/, '');
  const changedStems = new Set(files.filter((file) => !isTest(file)).map(stem));
  // Tracked tests, and changed ones not yet added to git.
  const listed = [...git('ls-files', '*.test.ts', '*.test.tsx').split('\n'), ...files.filter(isTest)];
  const all = [...new Set(listed)].filter((file) => file && existsSync(file) && !file.startsWith('e2e/'));
  return all.filter((test) => {
    if (files.includes(test)) return true;
    const own = test.replace(/(\.[^./]+)?\.test\.tsx?$/, '');
    if (changedStems.has(own)) return true;
    const text = readFileSync(test, 'utf8');
    for (const [, spec] of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      if (changedStems.has(stem(normalize(join(dirname(test), spec))))) return true;
    }
    return false;
  });
}

