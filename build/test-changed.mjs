// `npm run test:changed`: the quick inner loop. Lint the files changed since main (committed on
// this branch, staged, unstaged or new), typecheck the project (incremental: the second run
// reads only what changed), and run the vitest tests that import a changed file (`vitest
// related`). Browser specs are not run: `npm run test:e2e -- <spec>` for those, `npm test` for
// everything before pushing. TEST_BASE=<ref> compares with another branch than main.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const base = process.env.TEST_BASE || 'main';
const git = (...args) => spawnSync('git', args, { encoding: 'utf8' }).stdout.trim();
const since = git('merge-base', 'HEAD', base) || 'HEAD';
const changed = [...new Set([...git('diff', '--name-only', since).split('\n'), ...git('ls-files', '--others', '--exclude-standard').split('\n')])]
  .filter((file) => file && existsSync(file));
const code = changed.filter((file) => /\.(ts|tsx|mjs|js)$/.test(file) && !file.startsWith('dist/'));

const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
function step(name, command, args) {
  console.log(`\ntest:changed: ${name}: ${command} ${args.join(' ')}`.slice(0, 300));
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\ntest:changed: ${name} failed after ${seconds()}. Fix it and run again.`);
    process.exit(result.status ?? 1);
  }
}

console.log(`test:changed: ${code.length} changed code file${code.length === 1 ? '' : 's'} since ${base} (${since.slice(0, 7)}).`);
if (code.length === 0) {
  console.log('Nothing to check: no .ts, .tsx or .mjs file differs from main.');
  process.exit(0);
}
step('lint', 'npx', ['eslint', '--cache', '--cache-location', 'node_modules/.cache/eslint/', ...code]);
step('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/tsc.tsbuildinfo']);
// The tests of what changed: a changed test file, the test files beside a changed module that
// bear its name (quote.ts: quote.test.ts, quote.pdf.test.ts) and the test files that import it
// directly. Not every test that reaches it through other modules: through the app, a change to
// most server files reaches nearly every test (`vitest related` picked 934 of 1,995 for one
// server file, five minutes), and that is what `npm test` is for.
const tests = directTests(code);
console.log(`test:changed: ${tests.length} test file${tests.length === 1 ? '' : 's'} for the changed files.`);
if (tests.length > 0) step('tests', 'npx', ['vitest', 'run', ...tests]);
console.log(`\ntest:changed: passed in ${seconds()}. Run \`npm test\` (every check, about eleven minutes on two cores) before you push.`);

/** The test files that test one of `files` directly (see above), in the folders vitest runs. */
function directTests(files) {
  const isTest = (file) => /\.test\.tsx?$/.test(file);
  const stem = (file) => file.replace(/\.(ts|tsx|mjs|js)$/, '').replace(/\/index$/, '');
  const changedStems = new Set(files.filter((file) => !isTest(file)).map(stem));
  const all = git('ls-files', '*.test.ts', '*.test.tsx').split('\n').filter((file) => file && existsSync(file) && !file.startsWith('e2e/'));
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

