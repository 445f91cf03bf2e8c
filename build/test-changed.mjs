// `npm run test:changed`: the quick inner loop. Lint the files changed since main (committed on
// this branch, staged, unstaged or new), typecheck the whole project (TypeScript 7's
// native compiler: seconds, so nothing incremental is kept), and run the vitest tests that import a changed file (`vitest
// related`). Browser specs are not run: `npm run test:e2e -- <spec>` for those, `npm test` for
// everything before pushing. TEST_BASE=<ref> compares with another branch than main.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { directTests, git } from './direct-tests.mjs';

const base = process.env.TEST_BASE || 'main';
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
step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
// The tests of what changed: a changed test file, the test files beside a changed module that
// bear its name (quote.ts: quote.test.ts, quote.pdf.test.ts) and the test files that import it
// directly. Not every test that reaches it through other modules: through the app, a change to
// most server files reaches nearly every test (`vitest related` picked 934 of 1,995 for one
// server file, five minutes), and that is what `npm test` is for.
const tests = directTests(code);
console.log(`test:changed: ${tests.length} test file${tests.length === 1 ? '' : 's'} for the changed files.`);
if (tests.length > 0) step('tests', 'npx', ['vitest', 'run', ...tests]);
console.log(`\ntest:changed: passed in ${seconds()}. Run \`npm test\` (every check, about eleven minutes on two cores) before you push.`);
