import { describe, expect, it } from 'vitest';
import { failedTests, failureLines } from './test-report.mjs';

// Shapes as vitest's and Playwright's JSON reporters write them (.vitest/results.json,
// .playwright/results.json), cut to the fields read.
const vitest = {
  success: false,
  testResults: [
    {
      name: '/repo/server/http/crew-home.first-view.test.ts',
      status: 'failed',
      message: '',
      assertionResults: [
        { fullName: 'is undefined without a build', status: 'passed' },
        { fullName: 'a build cut off mid-write is told once', status: 'failed' },
      ],
    },
    { name: '/repo/server/cli.test.ts', status: 'failed', message: 'Error: Hook timed out in 10000ms\n    at x', assertionResults: [] },
    { name: '/repo/core/postcode.test.ts', status: 'passed', message: '', assertionResults: [{ fullName: 'reads', status: 'passed' }] },
  ],
};
const playwright = {
  suites: [
    {
      title: 'crew-day.spec.ts',
      file: 'crew-day.spec.ts',
      specs: [{ title: 'the crew member works offline', tests: [{ status: 'unexpected' }] }],
      suites: [{ title: 'on a phone', specs: [{ title: 'My days at 390 px', tests: [{ status: 'flaky' }] }] }],
    },
    { title: 'team.spec.ts', file: 'team.spec.ts', specs: [{ title: 'invites', tests: [{ status: 'expected' }] }] },
  ],
  errors: [{ message: 'Error: webServer exited early\nmore' }],
};

describe('what npm test says failed at its end', () => {
  it('names each failed test of both suites, a file that failed outside its tests, and a run that failed before any', () => {
    expect(failedTests(vitest, playwright, '/repo')).toEqual([
      'server/http/crew-home.first-view.test.ts > a build cut off mid-write is told once',
      'server/cli.test.ts: Error: Hook timed out in 10000ms',
      'crew-day.spec.ts > the crew member works offline (unexpected)',
      'crew-day.spec.ts > My days at 390 px (flaky)',
      'playwright: Error: webServer exited early',
    ]);
  });

  it('names nothing when every test passed or there is no report', () => {
    expect(failedTests({ testResults: [vitest.testResults[2]] }, { suites: [playwright.suites[1]], errors: [] }, '/repo')).toEqual([]);
    expect(failedTests(undefined, undefined)).toEqual([]);
  });

  it("keeps a failed step's error lines and its last lines, once each, without colours", () => {
    const lines = [
      ...Array.from({ length: 500 }, (_, i) => ` ✓ passing test ${i}`),
      '\x1b[31m⎯⎯⎯ Unhandled Rejection ⎯⎯⎯\x1b[39m',
      'SyntaxError: Unexpected end of input',
      ...Array.from({ length: 30 }, (_, i) => ` ✓ late test ${i}`),
      ' Test Files  1 failed | 269 passed (270)',
    ];
    const shown = failureLines(lines);
    expect(shown).toContain('⎯⎯⎯ Unhandled Rejection ⎯⎯⎯');
    expect(shown).toContain('SyntaxError: Unexpected end of input');
    expect(shown.at(-1)).toBe(' Test Files  1 failed | 269 passed (270)');
    expect(shown).not.toContain(' ✓ passing test 1');
    expect(shown.length).toBeLessThanOrEqual(17);
  });
});
