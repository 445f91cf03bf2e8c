import { describe, expect, it } from 'vitest';
import { directTests } from './direct-tests.mjs';

describe('the tests test:changed runs for a change', () => {
  it("are a module's own tests and those importing it directly, not every test that reaches it", () => {
    const tests = directTests(['core/postcode.ts']);
    expect(tests).toContain('core/postcode.test.ts');
    // Imports core/postcode directly.
    expect(tests.some((file) => file.startsWith('server/') || file.startsWith('widget/') || file.startsWith('dashboard/'))).toBe(true);
    // Reaches it only through the app.
    expect(tests).not.toContain('server/cli.test.ts');
    expect(tests.length).toBeLessThan(40);
  });

  it('runs a changed test file itself, and the tests beside a module that bear its name', () => {
    expect(directTests(['server/cli.test.ts'])).toEqual(['server/cli.test.ts']);
    const quoteRoutes = directTests(['server/routes/quotes.ts']);
    expect(quoteRoutes).toEqual(expect.arrayContaining(['server/routes/quotes.test.ts', 'server/routes/quotes.pdf.test.ts']));
  });

  it('never runs browser specs', () => {
    expect(directTests(['e2e/axe.ts']).filter((file) => file.startsWith('e2e/'))).toEqual([]);
  });
});

describe('a new test file not yet added to git', () => {
  it('is run when it is among the changed files', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const dir = mkdtempSync('build/tmp-direct-');
    const file = `${dir}/new.test.ts`;
    writeFileSync(file, '');
    try {
      expect(directTests([file])).toEqual([file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
