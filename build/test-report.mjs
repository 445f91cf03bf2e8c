// What `npm test` says failed at its end (build/test-all.mjs): CI shows only the last part of its
// log, so the names of the failed tests and each failed step's error lines are printed again last.
import { existsSync, readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

/** A JSON report as vitest or Playwright wrote it, or undefined when there is none or it is cut short. */
export function readReport(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The failed tests by name: vitest's (its JSON reporter: testResults[].assertionResults[]) and
 * Playwright's (its JSON reporter: suites nested in suites, specs, and each test's status, where
 * "unexpected" failed and "flaky" passed only on a retry).
 */
export function failedTests(vitest, playwright, cwd = process.cwd()) {
  const names = [];
  for (const file of vitest?.testResults ?? []) {
    const path = String(file.name).replace(`${cwd}/`, '');
    for (const t of file.assertionResults ?? []) if (t.status === 'failed') names.push(`${path} > ${t.fullName}`);
    // A file that failed outside its tests (an import, a hook, an unhandled error).
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      names.push(`${path}: ${String(file.message ?? 'failed').split('\n')[0]}`);
    }
  }
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === 'unexpected' || t.status === 'flaky') names.push(`${file} > ${spec.title} (${t.status})`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of playwright?.suites ?? []) walk(suite, suite.file ?? suite.title);
  for (const error of playwright?.errors ?? []) names.push(`playwright: ${String(error.message ?? '').split('\n')[0]}`);
  return names;
}

const MARKS = /✘|×|\bFAIL\b|Unhandled|Error|error TS|\berror\b|failed|Timed out|expect\(/;

/** A failed step's lines worth reading again, in order: its first 60 error lines and its last 15, colours off. */
export function failureLines(lines) {
  const plain = lines.map((line) => stripVTControlCharacters(line));
  const marked = plain.flatMap((line, i) => (MARKS.test(line) ? [i] : [])).slice(0, 60);
  const kept = new Set(marked);
  // In the order they were printed.
  return plain.filter((_, i) => kept.has(i) || i >= plain.length - 15);
}
