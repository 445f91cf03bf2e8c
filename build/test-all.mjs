// `npm test`: every check, arranged for a two-core box: the server bundle; then lint, typecheck,
// the dashboard and widget build and the vitest suite (two workers) side by side; then the
// browser tests (two workers) alone. Each line is printed as it comes, tagged with its step; the
// end lists each step's time and result. Exit code 0 only if every step passed.
// `npm run test:unit` and `npm run test:e2e` still run one step alone (README, Tests).
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { failedTests, failureLines, readReport } from './test-report.mjs';

const started = Date.now();
const seconds = (from) => `${Math.round((Date.now() - from) / 1000)} s`;
const results = [];
rmSync('.vitest/results.json', { force: true });
rmSync('.playwright/results.json', { force: true });
// Each step's lines, kept to say at the end what failed: CI shows only a log's last part.
const output = new Map();

function run(name, command, args, env = {}) {
  const at = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        console.log(`[${name}] ${line}`);
        const lines = output.get(name) ?? [];
        lines.push(line);
        if (lines.length > 20000) lines.splice(0, lines.length - 20000);
        output.set(name, lines);
      });
    }
    child.on('close', (code, signal) => {
      const ok = code === 0;
      results.push({ name, ok, time: seconds(at), how: ok ? 'passed' : `failed (${signal ?? `exit ${code}`})` });
      console.log(`[${name}] ${ok ? 'passed' : 'FAILED'} in ${seconds(at)}`);
      resolve(ok);
    });
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// The server bundle first (under a second): vitest's tests that start the server or the CLI run
// it (testing/processes.ts), so nothing rebuilds it while they run.
const bundled = await run('bundle', process.execPath, ['--import', 'tsx', 'build/server-bundle.ts']);
// Then lint, typecheck, the dashboard and widget build and the vitest suite side by side: the
// first three are mostly one thread each, and vitest's two workers fill the gaps they leave
// (measured: 25 s sooner than one after the other, docs/testing.md). The vitest suite is the
// longest of the four, so the other three run niced: they take the CPU its workers leave while
// they wait on servers, processes and timers (alone it uses 1.6 of the 2 cores), rather than
// slowing it (the four side by side, in pairs in the same hour: 201 and 224 s niced, 217 and 238 s not;
// docs/testing.md).
const NICE = ['/usr/bin/nice', '/bin/nice'].find((path) => existsSync(path));
const behind = (args) => (NICE ? [NICE, ['-n', '15', npm, ...args]] : [npm, args]);
const [, , built] = await Promise.all([
  run('lint', ...behind(['run', '--silent', 'lint'])),
  run('typecheck', ...behind(['run', '--silent', 'typecheck'])),
  run('build', ...behind(['run', '--silent', 'build:client']), { NO_COLOR: '1' }),
  run('unit', npm, ['run', '--silent', 'test:unit']),
]);
if (bundled && built) {
  // The build is done: the browser tests use it as it is (e2e/run.mjs). They run alone: side by
  // side with vitest on two cores (measured), each slowed the other enough to take as long in all.
  await run('e2e', npm, ['run', '--silent', 'test:e2e'], { E2E_BUILT: '1' });
} else {
  console.log('\nnpm test: the build failed, so the browser tests were not run.');
}

// vitest's report (vitest.config.ts writes it), read once for the slowest tests and what failed.
const vitestReport = readReport('.vitest/results.json');
if (existsSync('.vitest/results.json') && !vitestReport) console.log('(could not read .vitest/results.json)');

// The 20 slowest vitest tests: where to look first when the suite grows slow (docs/testing.md).
if (vitestReport) {
  const tests = (vitestReport.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? []).map((t) => ({ ms: t.duration ?? 0, name: `${file.name.replace(`${process.cwd()}/`, '')} > ${t.fullName}` })),
  );
  tests.sort((a, b) => b.ms - a.ms);
  console.log(`\nThe 20 slowest of ${tests.length} vitest tests`);
  for (const t of tests.slice(0, 20)) console.log(`  ${String(Math.round(t.ms)).padStart(6)} ms  ${t.name.slice(0, 150)}`);
}

// What failed, last, where a log cut to its end still shows it (.ci/run prints it again after
// the Node 24 run): the failed tests by name from the two reports, and each failed step's own
// error lines.
const failed = results.filter((r) => !r.ok);
if (failed.length > 0) {
  console.log('\nnpm test: what failed');
  for (const name of failedTests(vitestReport, readReport('.playwright/results.json'))) {
    console.log(`  test: ${name.slice(0, 220)}`);
  }
  for (const r of failed) {
    console.log(`  ${r.name} ${r.how}:`);
    for (const line of failureLines(output.get(r.name) ?? [])) console.log(`    ${line.slice(0, 300)}`);
  }
}

console.log('\nnpm test summary');
for (const r of results) console.log(`  ${r.name.padEnd(10)} ${r.how.padEnd(22)} ${r.time}`);
const ok = results.length === 6 && results.every((r) => r.ok);
console.log(`npm test ${ok ? 'passed' : 'FAILED'} in ${seconds(started)}`);
process.exit(ok ? 0 : 1);
